// Integer rectangles in output (or surface-local) logical pixels.

public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Half-open on the right and bottom edges, like pixman and wl_region.
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && py >= Double(y) && px < Double(x) + Double(width) && py < Double(y) + Double(height)
    }

    public func offsetBy(x dx: Int32, y dy: Int32) -> Rect {
        Rect(x: x &+ dx, y: y &+ dy, width: width, height: height)
    }

    public func intersection(_ other: Rect) -> Rect? {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(Int64(x) + Int64(width), Int64(other.x) + Int64(other.width))
        let bottom = min(Int64(y) + Int64(height), Int64(other.y) + Int64(other.height))
        guard right > Int64(left), bottom > Int64(top) else { return nil }
        return Rect(x: left, y: top, width: Int32(right - Int64(left)), height: Int32(bottom - Int64(top)))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A set of rectangles as wl_region builds it: adds and subtracts, in order.
/// Small and rarely hit-tested, so a list of operations is enough.
public struct Region: Hashable, Sendable {
    public enum Operation: Hashable, Sendable {
        case add(Rect)
        case subtract(Rect)
    }
    public private(set) var operations: [Operation] = []

    public init() {}

    public mutating func add(_ rect: Rect) { operations.append(.add(rect)) }
    public mutating func subtract(_ rect: Rect) { operations.append(.subtract(rect)) }

    /// The last operation that covers the point decides.
    public func contains(x: Double, y: Double) -> Bool {
        for operation in operations.reversed() {
            switch operation {
            case .add(let rect): if rect.contains(x: x, y: y) { return true }
            case .subtract(let rect): if rect.contains(x: x, y: y) { return false }
            }
        }
        return false
    }
}
