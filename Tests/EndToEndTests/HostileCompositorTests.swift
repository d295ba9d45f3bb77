import Foundation
import Synchronization
import SystemLayer
import Testing
import WaylandServer
import _FixtureTestSupport
import _PreviewProtocolTestSupport

// The sample apps under a compositor that sends wire-valid but absurd numbers: a toplevel
// configure of 2147483647 × 2147483647 and an output scale of 2147483647. The apps clamp them
// (their buffers stay drawable) and never trap; minimal-preview-app says why it exits when the
// compositor goes away.

/// A compositor with just what a window needs (surfaces and the test support's window globals:
/// wl_shm, xdg-shell, one wl_output), on a thread of its own, that sends the numbers it is
/// told to. It records each buffer a client makes and drops the client once it has one.
final class HostileCompositor: @unchecked Sendable {  // the display is only used on its thread
    struct Numbers {
        var configure: (width: Int32, height: Int32) = (0, 0)
        var outputScale: Int32 = 1
    }

    /// The buffers clients made: width, height, stride.
    let buffers = Mutex<[(Int32, Int32, Int32)]>([])
    let socket: String
    private let display: Display
    private let compositor: MiniCompositor
    private var windows: WindowGlobals?
    /// A client made a buffer: it is dropped after this dispatch (never inside its request).
    private let dropClients = Atomic(false)
    private let stopped = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ numbers: Numbers) throws {
        _ = TestRuntimeDirectory.path
        display = try Display()
        socket = try display.addSocket("hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        compositor = try MiniCompositor(display: display)
        windows = WindowGlobals(
            display: display,
            options: .init(configure: numbers.configure, outputScale: numbers.outputScale) {
                [unowned self] width, height, stride in
                buffers.withLock { $0.append((width, height, stride)) }
                dropClients.store(true, ordering: .relaxed)
            })
        Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                display.dispatch(timeoutMilliseconds: 20)
                display.flushClients()
                if dropClients.exchange(false, ordering: .relaxed) {
                    // The client has drawn with the numbers it was given: the compositor goes away.
                    for client in display.clients { client.destroy() }
                }
            }
            windows = nil
            display.destroy()
            done.signal()
        }.start()
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        done.wait()
    }
}

@Suite("The sample apps under a compositor sending absurd numbers", .serialized)
struct HostileCompositorTests {
    /// Runs `tool` on the compositor until it exits (the compositor drops it after its first
    /// buffer); its status, what it printed, and the buffers it made.
    static func run(_ tool: String, _ arguments: [String] = [], numbers: HostileCompositor.Numbers) throws
        -> (exited: Bool, status: Int32, output: String, buffers: [(Int32, Int32, Int32)])
    {
        let compositor = try HostileCompositor(numbers)
        defer { compositor.stop() }
        let run = try ChildProcess.run(
            [tools.directory + "/" + tool] + arguments, environment: ["WAYLAND_DISPLAY": compositor.socket],
            unsetting: ["WAYLAND_SOCKET"], errors: nil, timeout: 60)
        let exited = if case .exited = run.termination { true } else { false }
        let buffers = compositor.buffers.withLock { $0 }
        return (exited && !run.timedOut, run.timedOut ? -1 : run.status, run.output, buffers)
    }

    @Test("minimal-preview-app: a 2147483647 × 2147483647 configure is clamped; a lost compositor is said")
    func hugeConfigure() throws {
        let result = try Self.run(
            "minimal-preview-app", numbers: .init(configure: (Int32.max, Int32.max)))
        #expect(result.exited, "ended by a signal (a trap?): \(result.output)")
        let buffer = try #require(result.buffers.first, "no buffer drawn: \(result.output)")
        #expect(buffer.0 <= 4096 && buffer.1 <= 4096 && buffer.0 > 160 && buffer.2 >= buffer.0 * 4, "\(buffer)")
        #expect(result.status == 1)
        #expect(result.output.contains("the connection to the compositor was lost"), "\(result.output)")
    }

    @Test("peek-client: an output scale of 2147483647 is clamped")
    func hugeScale() throws {
        let result = try Self.run("peek-client", numbers: .init(configure: (0, 0), outputScale: Int32.max))
        #expect(result.exited, "ended by a signal (a trap?): \(result.output)")
        let buffer = try #require(result.buffers.last, "no buffer drawn: \(result.output)")
        // 800 × 600 at the largest scale it takes (4).
        #expect(buffer.0 == 4 * 800 && buffer.1 == 4 * 600, "\(buffer)")
    }
}
