import Foundation
import Logging
import SystemLayer
import WaylandServer

/// preview-lookup, started by the compositor: descriptor 3 is a Wayland connection of its own
/// (its panel), 4 the private lookup channel; nobody else can open either. Restarted with
/// back-off when it exits; the compositor never waits for it (non-blocking writes, answers
/// read on the event loop).
final class LookupProcess {
    private unowned let compositor: Compositor
    private let executable: String
    private let logger: Logger
    private var process: ChildProcess?
    private var channel: Int32 = -1
    private var channelSource: EventSource?
    private var exitSource: EventSource?
    private var restartTimer: EventSource?
    private var reader = LookupChannel.FrameReader()
    private var backoffMilliseconds: Int32 = 250
    private var startedAt: Int64 = 0
    /// The Wayland client of the running process (its surfaces are the panel).
    private(set) var client: Client?
    var onMessage: ((LookupChannel.Message) -> Void)?
    /// The process went away (answers in flight are lost).
    var onExit: (() -> Void)?

    init(compositor: Compositor, executable: String, logger: Logger) {
        self.compositor = compositor
        self.executable = executable
        self.logger = logger
    }

    var isRunning: Bool { process != nil && channel >= 0 }
    var pid: Int32? { process?.pid }

    func start() {
        guard process == nil else { return }
        do {
            let pair = try SocketPair()
            let connection = try compositor.connectClientWithHandle()
            let socket = Descriptor(adopting: connection.fd)  // ours closes once the child has its copy
            do {
                process = try ChildProcess(
                    [executable], environment: ["WAYLAND_SOCKET": "3"], unsetting: ["WAYLAND_DISPLAY"],
                    passing: [socket.rawValue, pair.theirs.rawValue], input: .discard, output: .inherit)
            } catch {
                connection.client.destroy()
                throw error
            }
            client = connection.client
            let ours = pair.keepingOurs()
            try? ours.setNonBlocking()
            channel = ours.release()
        } catch {
            logger.error("look up: cannot start \(executable): \(error)")
            scheduleRestart()
            return
        }
        startedAt = MonotonicTime.microseconds()
        let loop = compositor.display.eventLoop
        channelSource = loop.addFD(channel, events: .readable) { [unowned self] _ in readChannel() }
        if let process {
            exitSource = loop.addFD(process.exitDescriptor, events: .readable) { [unowned self] _ in exited() }
        }
        logger.info("look up: started \(executable) (pid \(process?.pid ?? 0))")
    }

    /// Sends a request if the channel takes it now; false (no lookup) otherwise.
    @discardableResult
    func send(_ request: LookupChannel.Request) -> Bool {
        guard channel >= 0 else { return false }
        let bytes = LookupChannel.encode(request)
        let sent = bytes.withUnsafeBytes { system_layer_send_bytes(channel, $0) }
        return sent == bytes.count
    }

    private func readChannel() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while channel >= 0 {
            let count = chunk.withUnsafeMutableBytes { recv(channel, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                while let body = reader.next() {
                    if let message = LookupChannel.decode(body) { onMessage?(message) }
                }
                if reader.overrun {
                    logger.error("look up: preview-lookup sent an oversized frame: restarting it")
                    stop()
                    scheduleRestart()
                    return
                }
                continue
            }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            // Closed: the process is going; its exit restarts it.
            closeChannel()
            return
        }
    }

    private func closeChannel() {
        channelSource?.remove()
        channelSource = nil
        if channel >= 0 { _ = Descriptor(adopting: channel) }  // closed here
        channel = -1
        reader = LookupChannel.FrameReader()
    }

    private func exited() {
        let status = process?.wait().status ?? 0
        exitSource?.remove()
        exitSource = nil
        process = nil
        closeChannel()
        client = nil
        logger.notice("look up: preview-lookup exited with status \(status)")
        onExit?()
        // A process that ran for a minute starts again at once; one that keeps dying waits longer.
        if MonotonicTime.microseconds() - startedAt > 60_000_000 { backoffMilliseconds = 250 }
        scheduleRestart()
    }

    private func scheduleRestart() {
        if restartTimer == nil {
            restartTimer = compositor.display.eventLoop.addTimer { [unowned self] in start() }
        }
        restartTimer?.arm(milliseconds: backoffMilliseconds)
        backoffMilliseconds = min(backoffMilliseconds * 2, 30_000)
    }

    /// Ends the process (at shutdown, or a broken channel); no restart is scheduled here.
    func stop() {
        restartTimer?.remove()
        restartTimer = nil
        closeChannel()
        exitSource?.remove()
        exitSource = nil
        if let process {
            process.wait(timeout: 0, grace: 1)
        }
        process = nil
        client = nil
    }
}

/// send(2) without SIGPIPE and without blocking (the channel is non-blocking).
private func system_layer_send_bytes(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
}
