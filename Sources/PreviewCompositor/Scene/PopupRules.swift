/// xdg_positioner's placement rules, and where they put a popup relative to its parent's
/// window geometry. No constraint adjustment: the popup lands where the rules say.
public struct PopupRules: Hashable, Sendable {
    /// Which edges an anchor or gravity value points at (xdg_positioner.anchor/gravity share values).
    public struct Edges: Hashable, Sendable {
        public var horizontal: Int  // -1 left, 0 centre, 1 right
        public var vertical: Int  // -1 top, 0 centre, 1 bottom

        public init(horizontal: Int, vertical: Int) {
            self.horizontal = horizontal
            self.vertical = vertical
        }

        /// Nil for values outside the enum (a protocol error for the caller).
        public init?(_ value: UInt32) {
            switch value {
            case 0: self.init(horizontal: 0, vertical: 0)
            case 1: self.init(horizontal: 0, vertical: -1)
            case 2: self.init(horizontal: 0, vertical: 1)
            case 3: self.init(horizontal: -1, vertical: 0)
            case 4: self.init(horizontal: 1, vertical: 0)
            case 5: self.init(horizontal: -1, vertical: -1)
            case 6: self.init(horizontal: -1, vertical: 1)
            case 7: self.init(horizontal: 1, vertical: -1)
            case 8: self.init(horizontal: 1, vertical: 1)
            default: return nil
            }
        }
    }

    public var size: (width: Int32, height: Int32) = (0, 0)
    public var anchorRect = Rect(x: 0, y: 0, width: 0, height: 0)
    public var anchor = Edges(horizontal: 0, vertical: 0)
    public var gravity = Edges(horizontal: 0, vertical: 0)
    public var offset: (x: Int32, y: Int32) = (0, 0)

    public init() {}

    /// Complete enough to place a popup (xdg_positioner requires size and anchor rect).
    public var isComplete: Bool { size.width > 0 && size.height > 0 }

    /// The popup's rectangle relative to the parent's window geometry. Computed wide and
    /// saturated, so extreme rules (any Int32 a client sends) place the popup far away, never trap.
    public var placement: Rect {
        func anchorCoordinate(_ start: Int32, _ length: Int32, _ edge: Int) -> Int64 {
            let start = Int64(start), length = Int64(length)
            return edge < 0 ? start : edge > 0 ? start + length : start + length / 2
        }
        func origin(_ point: Int64, _ length: Int32, _ direction: Int) -> Int64 {
            // Gravity is the direction the popup grows from the anchor point.
            let length = Int64(length)
            return direction < 0 ? point - length : direction > 0 ? point : point - length / 2
        }
        func saturated(_ value: Int64) -> Int32 { Int32(clamping: value) }
        let ax = anchorCoordinate(anchorRect.x, anchorRect.width, anchor.horizontal)
        let ay = anchorCoordinate(anchorRect.y, anchorRect.height, anchor.vertical)
        return Rect(
            x: saturated(origin(ax, size.width, gravity.horizontal) + Int64(offset.x)),
            y: saturated(origin(ay, size.height, gravity.vertical) + Int64(offset.y)), width: size.width,
            height: size.height)
    }

    public static func == (lhs: PopupRules, rhs: PopupRules) -> Bool {
        lhs.size == rhs.size && lhs.anchorRect == rhs.anchorRect && lhs.anchor == rhs.anchor
            && lhs.gravity == rhs.gravity && lhs.offset == rhs.offset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(anchorRect)
        hasher.combine(size.width)
        hasher.combine(size.height)
    }
}
