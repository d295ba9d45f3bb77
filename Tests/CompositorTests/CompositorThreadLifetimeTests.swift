import Logging
import PreviewCompositor
import Testing

/// A log handler that says when it is freed: the compositor thread's logger holds it.
private final class WatchedHandler: LogHandler, @unchecked Sendable {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .critical
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {}
}

@Suite struct CompositorThreadLifetimeTests {
    /// Embedders (the WLCS module, tests) start and stop many compositor threads in one process:
    /// once stopped and released, nothing of one may stay (its logger is the witness).
    @Test func aStoppedThreadFreesWhatItWasGiven() throws {
        weak var watched: WatchedHandler?
        do {
            let handler = WatchedHandler()
            watched = handler
            var configuration = CompositorConfiguration()
            configuration.socketName = TestRuntime.uniqueSocket()
            let thread = try CompositorThread(
                configuration: configuration, logger: Logger(label: "watched") { _ in handler })
            #expect(thread.stop() == 0)
        }
        #expect(watched == nil, "the stopped thread's logger is still alive")
    }
}
