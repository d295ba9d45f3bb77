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

    /// The keyboard's default point: the centre of the extents of the added rectangles (of the
    /// surface when the region is infinite); if that is outside the region, the centre of the
    /// last added rectangle that contains its own centre; the surface's centre when none does.
    func defaultPoint(surfaceSize size: Point) -> Point {
        let surfaceCentre = Point(x: size.x / 2, y: size.y / 2)
        guard let operations else { return surfaceCentre }
        var added: [Rectangle] = []
        for case .add(let rectangle) in operations { added.append(rectangle) }
        guard let first = added.first else { return surfaceCentre }
        var (left, top, right, bottom) = (Double(first.x), Double(first.y), Double(first.x), Double(first.y))
        for rectangle in added {
            left = min(left, Double(rectangle.x))
            top = min(top, Double(rectangle.y))
            right = max(right, Double(rectangle.x) + Double(rectangle.width))
            bottom = max(bottom, Double(rectangle.y) + Double(rectangle.height))
        }
        let centre = Point(x: (left + right) / 2, y: (top + bottom) / 2)
        if contains(centre) { return centre }
        for rectangle in added.reversed() {
            let own = Point(
                x: Double(rectangle.x) + Double(rectangle.width) / 2,
                y: Double(rectangle.y) + Double(rectangle.height) / 2)
            if contains(own) { return own }
        }
        return surfaceCentre
    }
}
