// What force means where a press begins, and when the commit phase completes: the two
// choices beyond version 1's single behaviour. One is the client's (per area of its surface),
// the other the user's (a setting). docs/state-machine.md explains both.

/// What a press does where it begins, like a view's pressure behaviour on macOS
/// (`NSPressureBehavior`). Mirrors the protocol's `behaviour` enum. The host looks it up at
/// the point where the press began; it is fixed for the contact's whole life.
public enum PressureBehaviour: Hashable, Sendable, CustomStringConvertible {
    /// Preview, then commit, then completion: the only behaviour of version 1.
    case deepClick
    /// No interaction at all: the client reads raw pressure itself (a drawing canvas). The
    /// engine never asks should-begin for a contact that begins here.
    case generic
    /// The force selects a stage level, 1 to `stages`, reported with `PhaseEvent.stage` as it
    /// rises and falls (fast-forward speed, zoom steps). `stages` is clamped to
    /// `PressureBehaviour.stageRange`.
    case accelerator(stages: UInt8)

    /// Each level is a band of force wider than the hysteresis plus sensor noise (0.06 + 0.04);
    /// five such bands fit between `begin` and `completeEnter` of every preset (the narrowest,
    /// light, spans 0.67: bands of 0.134).
    public static let stageRange: ClosedRange<UInt8> = 2...5

    public var description: String {
        switch self {
        case .deepClick: "deep-click"
        case .generic: "generic"
        case .accelerator(let stages): "accelerator(\(stages))"
        }
    }
}

/// When the commit phase completes: the user's choice. Mirrors the protocol's `completion`.
public enum Completion: String, Hashable, Sendable, CaseIterable {
    /// When the force reaches `completeEnter` and holds above `completeLeave` for the dwell.
    case onForce = "on-force"
    /// When the contact lifts in the commit phase; easing off below the commit threshold for
    /// longer than `Tuning.releaseWindow` first cancels (`lifted`).
    case onRelease = "on-release"
}

/// The stage levels of an accelerator: `stages` equal bands of force from `begin` to
/// `completeEnter`. A level is entered when the force reaches the lower edge of its band and
/// left downwards only below that edge minus the hysteresis, so a force held at an edge
/// (±0.02 of noise) stays on one level.
public struct AcceleratorLevels: Hashable, Sendable {
    public let stages: UInt8
    public let low: Double
    public let high: Double
    public let hysteresis: Double

    public init(stages: UInt8, thresholds: ForceThresholds, hysteresis: Double = Sensitivity.hysteresis) {
        self.stages = min(PressureBehaviour.stageRange.upperBound, max(PressureBehaviour.stageRange.lowerBound, stages))
        low = thresholds.begin
        high = thresholds.completeEnter
        self.hysteresis = hysteresis
    }

    /// The force at which `stage` (2...stages) is entered on the way up.
    @inlinable
    public func edge(of stage: UInt8) -> Double {
        low + (Double(stage) - 1) * (high - low) / Double(stages)
    }

    /// The level after `current` for this force: up while the force reaches the next edge, down
    /// while it is below the current level's edge by more than the hysteresis.
    @inlinable
    public func level(after current: UInt8, force: Double) -> UInt8 {
        var level = min(stages, max(1, current))
        while level < stages, force >= edge(of: level + 1) { level += 1 }
        while level > 1, force < edge(of: level) - hysteresis { level -= 1 }
        return level
    }

    /// Where the force is between `begin` (0) and `completeEnter` (1): the progress that comes
    /// with stage events.
    @inlinable
    public func fraction(_ force: Double) -> Double {
        min(1, max(0, (force - low) / (high - low)))
    }
}
