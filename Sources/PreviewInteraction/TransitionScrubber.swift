/// A timing curve for scrubbing: maps linear progress 0...1 to an eased fraction 0...1.
public enum PreviewTimingCurve: Sendable, Equatable {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    /// A cubic Bézier from (0, 0) to (1, 1) with these control points (x in 0...1), as CSS
    /// and UIKit's UICubicTimingParameters define it.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)

    /// The eased value at `t` (clamped to 0...1).
    public func value(at t: Double) -> Double {
        let t = t.isFinite ? min(max(t, 0), 1) : 0
        switch self {
        case .linear: return t
        case .easeIn: return Self.bezier(t, 0.42, 0, 1, 1)
        case .easeOut: return Self.bezier(t, 0, 0, 0.58, 1)
        case .easeInOut: return Self.bezier(t, 0.42, 0, 0.58, 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return Self.bezier(t, min(max(x1, 0), 1), y1, min(max(x2, 0), 1), y2)
        }
    }

    /// y at the x = `x` of the curve: x(s) is monotonic for control x in 0...1, so a few
    /// bisection-safeguarded Newton steps find s.
    private static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let inverse = 1 - s
            return 3 * inverse * inverse * s * p1 + 3 * inverse * s * s * p2 + s * s * s
        }
        func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let inverse = 1 - s
            return 3 * inverse * inverse * p1 + 6 * inverse * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        var low = 0.0
        var high = 1.0
        var s = x
        for _ in 0..<24 {
            let error = coordinate(s, x1, x2) - x
            if abs(error) < 1e-7 { break }
            if error > 0 { high = s } else { low = s }
            let derivative = slope(s, x1, x2)
            let next = derivative > 1e-6 ? s - error / derivative : (low + high) / 2
            s = next > low && next < high ? next : (low + high) / 2
        }
        return coordinate(s, y1, y2)
    }
}

/// Scrubs an animation with a phase's progress, as `UIViewPropertyAnimator.fractionComplete`
/// does for the seeds' apps: set `fractionComplete` from `didUpdatePreviewTransition` (or
/// the commit's), read `value` (eased) and `interpolate(from:to:)` when drawing.
///
/// ```swift
/// var blur = TransitionScrubber(curve: .easeOut)
/// func previewInteraction(_ i: PreviewInteraction, didUpdatePreviewTransition p: Double, ended: Bool) {
///     blur.fractionComplete = p
///     draw(radius: blur.interpolate(from: 0, to: 12))
/// }
/// ```
public struct TransitionScrubber: Sendable, Equatable {
    public var curve: PreviewTimingCurve
    /// Runs the animation backwards: fraction 0 is the end state (UIKit's `isReversed`).
    public var isReversed = false
    /// The linear position, 0...1 (out-of-range values are clamped, NaN is 0).
    public var fractionComplete: Double {
        didSet { fractionComplete = fractionComplete.isFinite ? min(max(fractionComplete, 0), 1) : 0 }
    }

    public init(curve: PreviewTimingCurve = .linear, fractionComplete: Double = 0) {
        self.curve = curve
        self.fractionComplete = fractionComplete.isFinite ? min(max(fractionComplete, 0), 1) : 0
    }

    /// The eased fraction for drawing.
    public var value: Double {
        let eased = curve.value(at: isReversed ? 1 - fractionComplete : fractionComplete)
        return eased
    }

    /// A value between `start` and `end` at the eased fraction.
    public func interpolate(from start: Double, to end: Double) -> Double { start + (end - start) * value }
}
