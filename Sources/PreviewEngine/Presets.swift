// The numbers behind the user's presets. Everything the state machine compares against
// lives here, so docs/state-machine.md can quote one table.

/// Force thresholds on the normalised 0...1 scale (after smoothing).
///
/// Only the completion threshold can be re-crossed while it matters (the dwell restarts), so
/// it alone has separate enter and leave values. `begin` and `commit` are one-way doors: once
/// crossed, the interaction never goes back, so noise around them cannot flicker a phase.
public struct ForceThresholds: Hashable, Sendable {
    /// Smoothed force at or above this asks should-begin (a contact below it starts nothing).
    public var begin: Double
    /// Smoothed force at or above this ends the preview phase and starts the commit phase.
    public var commit: Double
    /// At or above this the completion dwell starts...
    public var completeEnter: Double
    /// ...and below this it is abandoned (force eased off before the dwell was over).
    public var completeLeave: Double

    /// Expects `0 < begin < commit < completeLeave < completeEnter <= 1` (`isOrdered`; every
    /// preset's table is, which a test checks). Not checked by a trap: this runs in compositors.
    public init(begin: Double, commit: Double, completeEnter: Double, completeLeave: Double) {
        self.begin = begin
        self.commit = commit
        self.completeEnter = completeEnter
        self.completeLeave = completeLeave
    }

    public var isOrdered: Bool {
        0 < begin && begin < commit && commit < completeLeave && completeLeave < completeEnter && completeEnter <= 1
    }

    /// 0...1 through the preview phase: 0 at `begin`, 1 at `commit`.
    @inlinable
    public func previewProgress(_ force: Double) -> Double {
        min(1, max(0, (force - begin) / (commit - begin)))
    }

    /// 0...1 through the commit phase: 0 at `commit`, 1 at `completeEnter`.
    @inlinable
    public func commitProgress(_ force: Double) -> Double {
        min(1, max(0, (force - commit) / (completeEnter - commit)))
    }
}

extension Sensitivity {
    /// Gap between `completeEnter` and `completeLeave`: wider than ±0.02 sensor noise
    /// (0.04 peak to peak) with room to spare.
    public static let hysteresis = 0.06

    /// The threshold table of this preset (see docs/state-machine.md).
    public var thresholds: ForceThresholds {
        switch self {
        case .light: ForceThresholds(begin: 0.08, commit: 0.40, completeEnter: 0.75, completeLeave: 0.69)
        case .medium: ForceThresholds(begin: 0.12, commit: 0.55, completeEnter: 0.88, completeLeave: 0.82)
        case .firm: ForceThresholds(begin: 0.18, commit: 0.68, completeEnter: 0.93, completeLeave: 0.87)
        }
    }
}

extension LongPressDuration {
    /// How long a force-less contact must stay down, within the slop, before the
    /// simulated press starts (UIKit's long-press default is 500 ms).
    public var duration: Timestamp.Duration {
        switch self {
        case .fast: .milliseconds(350)
        case .default: .milliseconds(500)
        case .slow: .milliseconds(800)
        }
    }
}

/// Every number the state machine needs, resolved from an `EngineConfiguration` once per contact.
public struct Tuning: Hashable, Sendable {
    public var thresholds: ForceThresholds
    public var shouldBeginTimeout: Timestamp.Duration
    /// Force must stay at or above `completeLeave` this long after reaching `completeEnter`
    /// to complete: a spike does not pop the item.
    public var completionDwell: Timestamp.Duration
    /// Long press: how long the contact must be held.
    public var longPressDuration: Timestamp.Duration
    /// Long press: how far (surface px, Euclidean from the down position) the contact may move
    /// before it stops being a long press. UIKit's `allowableMovement` is 10 pt.
    public var slop: Double
    /// Long press: the simulated force rises linearly from `begin` to 1 over this time.
    public var rampDuration: Timestamp.Duration
    /// Long press: the ramp is sampled at this period (one frame at 60 Hz).
    public var rampTick: Timestamp.Duration
    /// Smoothing: a sample's smoothed value settles to its raw value one and a half sample
    /// periods later even when the device sends nothing (evdev is silent while pressure is
    /// constant). The period is estimated from the last gap and clamped to this range.
    public var settleRange: ClosedRange<Int64>
    /// When the commit phase completes (the user's setting).
    public var completion: Completion
    /// Complete on release: the force must stay below `releaseLine` this long, contact still
    /// down, to cancel; a quick lift falls through the line faster (docs/state-machine.md
    /// measures it on the pen recordings).
    public var releaseWindow: Timestamp.Duration
    /// Complete on release: below this force (the commit threshold minus the hysteresis) the
    /// release window runs; back at `commit` it stops.
    public var releaseLine: Double

    public init(_ configuration: EngineConfiguration) {
        thresholds = configuration.sensitivity.thresholds
        shouldBeginTimeout = configuration.shouldBeginTimeout
        completionDwell = .milliseconds(50)
        longPressDuration = configuration.longPress.duration
        slop = 10
        rampDuration = .milliseconds(300)
        rampTick = .milliseconds(16)
        settleRange = 2_000...16_000
        completion = configuration.completion
        releaseWindow = .milliseconds(100)
        releaseLine = thresholds.commit - Sensitivity.hysteresis
    }
}
