import PreviewEngine
import PreviewTrace

/// How an interaction ended, as a person would say it.
public enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case completed
    case cancelled(CancelReason)
    /// The trace ends before the interaction does (a cut-short trace).
    case unfinished

    public var description: String {
        switch self {
        case .completed: "completed"
        case .cancelled(let reason): "cancelled (\(reason))"
        case .unfinished: "unfinished"
        }
    }
}

/// One interaction of a trace, its records in order, and the moments that matter.
public struct InteractionStory: Hashable, Sendable {
    public var id: InteractionID
    public var device: String
    public var source: InputSource
    public var simulated: Bool
    public var records: [TraceRecord]

    public init(id: InteractionID, records: [TraceRecord]) {
        precondition(!records.isEmpty, "an interaction story needs a record")
        self.id = id
        self.records = records
        device = records[0].device
        source = records[0].source
        simulated = records.contains(where: \.simulated)
    }

    /// Every interaction of a trace, in order of first appearance. Should-begin lines (verbose
    /// traces) are left out: they are a question, not a phase.
    public static func stories(of records: [TraceRecord]) -> [InteractionStory] {
        var order: [InteractionID] = []
        var byID: [InteractionID: [TraceRecord]] = [:]
        for record in records where record.event != .shouldBegin {
            if byID[record.interaction] == nil { order.append(record.interaction) }
            byID[record.interaction, default: []].append(record)
        }
        return order.map { InteractionStory(id: $0, records: byID[$0]!) }
    }

    public var start: Timestamp { records[0].time }
    public var end: Timestamp { records[records.count - 1].time }

    /// When the commit phase began (preview ended), if it did.
    public var commitStart: Timestamp? {
        records.first(where: { $0.phaseAfter == .commit })?.time
    }

    public var outcome: Outcome {
        switch records.last?.phase {
        case .completed?: .completed
        case .cancelled(let reason)?: .cancelled(reason)
        case .previewBegan?, .previewProgress?, .previewEnded?, .commitProgress?, .stage?, nil: .unfinished
        }
    }

    /// Highest preview progress, and highest commit progress (0 when there was no commit).
    public var peakPreview: Double { records.filter { $0.event == .preview }.map(\.progress).max() ?? 0 }
    public var peakCommit: Double { records.filter { $0.event == .commit }.map(\.progress).max() ?? 0 }

    /// The records where the phase changed: the first preview, the switch to commit, the end.
    public var phaseChanges: [TraceRecord] {
        var changes: [TraceRecord] = []
        for record in records where record.phase?.changesPhase == true { changes.append(record) }
        return changes
    }
}
