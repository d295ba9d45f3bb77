/// The events about one interaction that one `frame` event closes, as read from the wire
/// (the protocol applies them together). Groups of the same interaction that the app has not
/// received yet merge into one (`merge`): the latest location and progress win, phase
/// changes are kept, so what waits for a slow app stays one group per interaction.
struct WireGroup: Sendable, Equatable {
    var interaction: UInt32
    var shouldBegin: (source: UInt32, force: UInt32)?
    var location: PreviewPoint?
    var preview: Double?
    var previewEnded = false
    var commit: Double?
    var completed = false
    var cancelled: UInt32?
    /// The frame serial that closed the group (the latest one after merging).
    var serial: UInt32 = 0
    /// The frame's timestamp, µs.
    var time: UInt64 = 0

    init(interaction: UInt32) { self.interaction = interaction }

    var isTerminal: Bool { completed || cancelled != nil }

    /// `later` happened after `self` (same interaction): one group with the effect of both.
    /// Progress of a phase that `later` left is dropped (preview_ended or the end imply it).
    mutating func merge(_ later: WireGroup) {
        if let begin = later.shouldBegin { shouldBegin = begin }
        if let location = later.location { self.location = location }
        if let preview = later.preview, !previewEnded { self.preview = preview }
        if later.previewEnded {
            previewEnded = true
            preview = nil
        }
        if let commit = later.commit { self.commit = commit }
        if later.completed { completed = true }
        if let reason = later.cancelled { cancelled = reason }
        if isTerminal { commit = nil }
        serial = max(serial, later.serial)
        time = later.time
    }

    static func == (a: WireGroup, b: WireGroup) -> Bool {
        a.interaction == b.interaction && a.shouldBegin?.source == b.shouldBegin?.source
            && a.shouldBegin?.force == b.shouldBegin?.force && a.location == b.location && a.preview == b.preview
            && a.previewEnded == b.previewEnded && a.commit == b.commit && a.completed == b.completed
            && a.cancelled == b.cancelled && a.serial == b.serial && a.time == b.time
    }
}

/// One event as the library read it, for logs and diagnostics (`PreviewInteraction.wireObserver`).
public enum PreviewWireEvent: Sendable, Equatable {
    case shouldBegin(interaction: UInt32, source: UInt32, force: UInt32)
    case location(interaction: UInt32, x: Double, y: Double)
    case preview(interaction: UInt32, progress: Double)
    case previewEnded(interaction: UInt32)
    case commit(interaction: UInt32, progress: Double)
    case completed(interaction: UInt32)
    case cancelled(interaction: UInt32, reason: UInt32)
    /// `time` is the hardware event's timestamp in µs (`utime_hi << 32 | utime_lo`).
    case frame(interaction: UInt32, serial: UInt32, time: UInt64)

    public var interaction: UInt32 {
        switch self {
        case .shouldBegin(let id, _, _), .location(let id, _, _), .preview(let id, _), .previewEnded(let id),
            .commit(let id, _), .completed(let id), .cancelled(let id, _), .frame(let id, _, _):
            id
        }
    }
}
