import CCompositorModule
import Glibc
import Logging

/// The library's messages go to the host's log callback (or stderr without one).
struct HostLogHandler: LogHandler {
    let sink: HostCallbacks
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    var metadataProvider: Logger.MetadataProvider?

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
