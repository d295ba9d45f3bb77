import Logging
import PreviewLog

extension Log {
    /// The libraries' messages through a swift-log logger, at its level.
    public init(_ logger: Logger) {
        self.init(
            isEnabled: { logger.logLevel <= Logger.Level($0) }, sink: { logger.log(level: Logger.Level($0), "\($1)") })
    }
}

extension Logger.Level {
    /// The same level in swift-log's words.
    public init(_ level: LogLevel) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
