import CCompositorModule
import PreviewLog
import Synchronization

/// One context's minimum log level.
final class LogThreshold: Sendable {
    private let raw = Atomic<UInt8>(LogLevel.info.rawValue)

    var level: LogLevel {
        get { LogLevel(rawValue: raw.load(ordering: .relaxed)) ?? .info }
        set { raw.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// The C API's level as the log's.
    static func level(_ value: preview_interaction_log_level) -> LogLevel? {
        switch value {
        case PREVIEW_INTERACTION_LOG_DEBUG: .debug
        case PREVIEW_INTERACTION_LOG_INFO: .info
        case PREVIEW_INTERACTION_LOG_WARNING: .warning
        case PREVIEW_INTERACTION_LOG_ERROR: .error
        default: nil
        }
    }
}
