import Foundation
import LibinputBackend
import Logging
import PreviewEngine
import PreviewLog
import PreviewLogging
import Testing

/// The backend on the real libinput, without a testbed.
struct BackendTests {
    @Test func aMissingNodeIsRefusedWithAReason() throws {
        let log = LogCapture()
        let backend = try #require(LibinputBackend(source: .path, logger: Log(Logger(label: "test") { _ in log })))
        #expect(backend.addDevice(path: "/nonexistent/event99") == false)
        #expect(log.lines.contains { $0.contains("/nonexistent/event99") }, "\(log.lines)")
    }

    @Test func pressureQuirksFollowLibinput() {
        #expect(PressureQuirks(lines: ["AttrPressureRange=10:8"]).floor == 8)
        #expect(PressureQuirks(lines: ["AttrPressureRange=0:0"]).disablesPressure)
        #expect(!PressureQuirks(lines: ["ModelAppleTouchpad=1", "AttrPressureRange=oops"]).disablesPressure)
        #expect(PressureQuirks(lines: []).floor == nil)
    }
}

/// Collects log lines (a swift-log handler).
final class LogCapture: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    var lines: [String] { lock.withLock { stored } }
    func log(event: LogEvent) {
        lock.withLock { stored.append("\(event.level) \(event.message)") }
    }
}
