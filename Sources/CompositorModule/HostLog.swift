import CCompositorModule
import PreviewLog

extension Log {
    /// The library's messages to the host's log callback (or stderr without one), from the
    /// context's minimum level on (`preview_interaction_set_log_level`).
    static func host(_ sink: HostCallbacks, threshold: LogThreshold) -> Log {
        Log(isEnabled: { $0 >= threshold.level }) { level, message in
            let hostLevel: preview_interaction_log_level
            switch level {
            case .trace, .debug: hostLevel = PREVIEW_INTERACTION_LOG_DEBUG
            case .info, .notice: hostLevel = PREVIEW_INTERACTION_LOG_INFO
            case .warning: hostLevel = PREVIEW_INTERACTION_LOG_WARNING
            case .error, .critical: hostLevel = PREVIEW_INTERACTION_LOG_ERROR
            }
            sink.log(hostLevel, message)
        }
    }
}
