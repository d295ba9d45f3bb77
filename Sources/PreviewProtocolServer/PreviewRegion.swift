import PreviewEngine

/// A wl_region's contents as the protocol layer needs them: the add/subtract sequence of
/// rectangles, in surface-local coordinates. The host builds it from its own wl_region.
public struct PreviewRegion: Hashable, Sendable {
    public struct Rectangle: Hashable, Sendable {
        public var x: Int32, y: Int32, width: Int32, height: Int32
        public init(x: Int32, y: Int32, width: Int32, height: Int32) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
        func contains(_ point: Point) -> Bool {
            point.x >= Double(x) && point.y >= Double(y) && point.x < Double(x) + Double(width)
                && point.y < Double(y) + Double(height)
        }
    }

    public enum Operation: Hashable, Sendable {
        case add(Rectangle)
        case subtract(Rectangle)
    }

    /// nil: infinite (every point).
    public var operations: [Operation]?

    public init(operations: [Operation]) { self.operations = operations }
    private init() { operations = nil }

    /// The initial region of set_region: the whole surface.
    public static let infinite = PreviewRegion()

    public func contains(_ point: Point) -> Bool {
        guard let operations else { return true }
        // The last operation that covers the point decides.
        var inside = false
        for operation in operations {
            switch operation {
            case .add(let rectangle): if rectangle.contains(point) { inside = true }
            case .subtract(let rectangle): if rectangle.contains(point) { inside = false }
            }
        }
        return inside
    }
}
