/// A message's importance, lowest first (swift-log's and syslog's order).
public enum LogLevel: UInt8, Sendable, CaseIterable, Comparable {
    case trace, debug, info, notice, warning, error, critical

    public static func < (left: LogLevel, right: LogLevel) -> Bool { left.rawValue < right.rawValue }
}

/// Where the libraries' messages go: the program that embeds them connects the sink (the tools
/// to swift-log, the C library to its host's log handler). A plain value of closures rather than
/// a logging package, so that the C libraries, built in Embedded Swift, log the same way.
public struct Log: Sendable {
    public typealias Sink = @Sendable (LogLevel, String) -> Void

    private let isEnabled: @Sendable (LogLevel) -> Bool
    private let sink: Sink

    /// `isEnabled` is asked before a message is formatted; `sink` gets the ones it lets through.
    public init(isEnabled: @escaping @Sendable (LogLevel) -> Bool, sink: @escaping Sink) {
        self.isEnabled = isEnabled
        self.sink = sink
    }

    /// Drops every message, formatting none.
    public static let discarding = Log(isEnabled: { _ in false }, sink: { _, _ in })

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        sink(level, message())
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func critical(_ message: @autoclosure () -> String) { log(.critical, message()) }
}
