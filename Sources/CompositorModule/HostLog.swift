import CCompositorModule
import Logging

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
