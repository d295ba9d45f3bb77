import CPreviewInteraction
import Glibc
import Logging
import Synchronization

/// The library's messages go to the host's log callback (or stderr without one), from the
/// context's minimum level on (`preview_interaction_set_log_level`), which every copy of the
/// context's logger shares.
struct HostLogHandler: LogHandler {
    let sink: HostCallbacks
    let threshold: LogThreshold
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    var logLevel: Logger.Level {
        get { threshold.level }
        set { threshold.level = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let level: preview_interaction_log_level
        switch event.level {
        case .trace, .debug: level = PREVIEW_INTERACTION_LOG_DEBUG
        case .info, .notice: level = PREVIEW_INTERACTION_LOG_INFO
        case .warning: level = PREVIEW_INTERACTION_LOG_WARNING
        case .error, .critical: level = PREVIEW_INTERACTION_LOG_ERROR
        }
        sink.log(level, "\(event.message)")
    }
}

/// One context's minimum log level.
final class LogThreshold: Sendable {
    private let raw = Atomic<UInt8>(Logger.Level.info.rank)

    var level: Logger.Level {
        get { Logger.Level.allCases.first { $0.rank == raw.load(ordering: .relaxed) } ?? .info }
        set { raw.store(newValue.rank, ordering: .relaxed) }
    }

    /// The C API's level as the logger's.
    static func level(_ value: preview_interaction_log_level) -> Logger.Level? {
        switch value {
        case PREVIEW_INTERACTION_LOG_DEBUG: .debug
        case PREVIEW_INTERACTION_LOG_INFO: .info
        case PREVIEW_INTERACTION_LOG_WARNING: .warning
        case PREVIEW_INTERACTION_LOG_ERROR: .error
        default: nil
        }
    }
}

extension Logger.Level {
    fileprivate var rank: UInt8 { UInt8(Logger.Level.allCases.firstIndex(of: self)!) }
}
