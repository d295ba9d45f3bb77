import PreviewEngine
import PreviewTrace

/// One interaction's force over time, from its own trace records: each record carries the force
/// the engine judged that phase event on, on the trace's clock, so force and progress line up
/// whatever clock made the trace (a compositor's, a recording's) and however long the client
/// took to answer should-begin.
public struct ForceCurve: Hashable, Sendable {
    public struct Sample: Hashable, Sendable {
        public var time: Timestamp
        public var force: Double
    }
    public var device: String
    /// False for the long-press fallback: the curve is the simulated ramp.
    public var hasForce: Bool
    public var samples: [Sample]
    public var start: Timestamp { samples.first?.time ?? Timestamp(microseconds: 0) }
    public var end: Timestamp { samples.last?.time ?? Timestamp(microseconds: 0) }

    /// The curve of a story's records; nil when they carry no force (a trace from before the
    /// trace had it).
    public init?(_ story: InteractionStory) {
        let samples = story.records.compactMap { record in
            record.force.map { Sample(time: record.time, force: $0) }
        }
        guard !samples.isEmpty else { return nil }
        device = story.device
        hasForce = !story.simulated
        self.samples = samples
    }
}

/// A trace interaction with the force that drove it.
public struct ForcedStory: Hashable, Sendable {
    public var story: InteractionStory
    public var force: ForceCurve?

    public init(_ story: InteractionStory) {
        self.story = story
        force = ForceCurve(story)
    }
}
