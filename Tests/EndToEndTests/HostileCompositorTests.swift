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

    @Test(
        "peek-client takes one press at a time: after 10,000 pen presses the compositor never ends, it accepts a fresh one"
    )
    func peekClientAfterAFlood() throws {
        // The scripted server plays the flood on a photo of peek-client's grid and says how the
        // app answered each hundredth press and the fresh one. Before a new pen press ended the
        // one the compositor never ended, the first press peek-client took held it busy for good.
        let runtime = TestRuntimeDirectory.path
        let socket = "hostile-flood-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let server = try ChildProcess(
            [tools.directory + "/preview-protocol-test-server", socket, "--hostile", "flood", "120", "160"],
            environment: ["XDG_RUNTIME_DIR": runtime], output: .pipe, errors: .discard)
        #expect(server.waitForOutput(containing: "WAYLAND_DISPLAY=", timeout: 30))
        let app = try ChildProcess(
            [tools.directory + "/peek-client"], environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket],
            unsetting: ["WAYLAND_SOCKET"], output: .discard, errors: .discard)
        let answered = server.waitForOutput(containing: "10001", timeout: 300)
        _ = app.stop()
        _ = server.wait(timeout: 30)
        let said = server.standardOutput
        #expect(answered && said.contains("accepted 10001"), "\(said.suffix(200))")
        #expect(!said.contains("declined"), "\(said.suffix(200))")
    }
}
