// Logical-pixel geometry for layout and hit-testing. PeekUI stays free of Foundation and of the
// compositor's engine: it is the part of the sample another toolkit's developer reads first.

public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public var description: String { "(\(x), \(y))" }
}

public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }

    public func insetBy(_ dx: Double, _ dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// Scaled about its centre (the "lift" of a pressed item).
    public func scaled(by s: Double) -> Rect {
        Rect(x: midX - width * s / 2, y: midY - height * s / 2, width: width * s, height: height * s)
    }

    public func offsetBy(_ dx: Double, _ dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
}

@inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
@inline(__always) func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

func lerp(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
    Rect(
        x: lerp(a.x, b.x, t), y: lerp(a.y, b.y, t), width: lerp(a.width, b.width, t),
        height: lerp(a.height, b.height, t))
}

/// The curves used to turn a linear progress into motion that feels physical.
enum Ease {
    static func outCubic(_ t: Double) -> Double {
        let u = 1 - clamp01(t)
        return 1 - u * u * u
    }
    static func inOutCubic(_ t: Double) -> Double {
        let t = clamp01(t)
        return t < 0.5 ? 4 * t * t * t : 1 - pow3(-2 * t + 2) / 2
    }
    private static func pow3(_ v: Double) -> Double { v * v * v }
}
