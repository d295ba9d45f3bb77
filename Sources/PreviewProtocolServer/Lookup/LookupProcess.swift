import PreviewLog
import SystemLayer
import WaylandServer

/// preview-lookup, started by the host: descriptor 3 is a Wayland connection of its own to the
/// host's display (its panel), 4 the private lookup channel; nobody else can open either.
/// Restarted with back-off when it exits; the host never waits for it (non-blocking writes,
/// answers read on the event loop).
/// Its sources and listener are its own (removed when it goes): their closures hold it
/// unretained.
final class LookupProcess {
    private let display: Display
    private let executable: String
    private let logger: Log
    private var process: ChildProcess?
    private var channel: Descriptor?
    private var channelSource: EventSource?
    private var exitSource: EventSource?
    private var restartTimer: EventSource?
    private var reader = LookupChannel.FrameReader()
    private var backoffMilliseconds: Int32 = 250
    private var startedAt: Int64 = 0
    /// False after `stop()`: an exit then restarts nothing.
    private var wanted = false
    /// The Wayland client of the running process (its surfaces are the panel); nil once
    /// libwayland destroyed it (the process closed its end) or we did.
    private(set) var client: Client?
    private var clientGone: Listener?
    var onMessage: ((LookupChannel.Message) -> Void)?
    /// The process started (its Wayland client is known).
    var onStart: ((Client) -> Void)?
    /// The process went away (answers in flight are lost).
    var onExit: (() -> Void)?

    init(display: Display, executable: String, logger: Log) {
        self.display = display
        self.executable = executable
        self.logger = logger
    }

    var isRunning: Bool { process != nil && channel != nil }
    var pid: Int32? { process?.pid }

    func start() {
        wanted = true
        guard process == nil else { return }
        let started: Client
        do {
            started = try spawn()
        } catch {
            logger.error("look up: cannot start \(executable): \(error.reason)")
            scheduleRestart()
            return
        }
        client = started
        let gone = Listener { [unowned(unsafe) self] _ in
            clientGone = nil
            client = nil
        }
        gone.listen(toDestroyOf: started)
        clientGone = gone
        startedAt = MonotonicTime.microseconds()
        if let process {
            exitSource = display.eventLoop.addFD(process.exitDescriptor, events: .readable) {
                [unowned(unsafe) self] _ in
                exited()
            }
        }
        logger.info("look up: started \(executable) (pid \(process?.pid ?? 0))")
        onStart?(started)
    }

    private struct StartFailure: Error {
        let reason: String
    }

    /// The child with its Wayland connection (descriptor 3) and the lookup channel (4); the
    /// channel's reading starts here.
    private func spawn() throws(StartFailure) -> Client {
        let pair: SocketPair
        do { pair = try SocketPair() } catch { throw StartFailure(reason: "\(error)") }
        let connection: (client: Client, clientFD: Int32)
        do { connection = try display.connectedClientSocket() } catch { throw StartFailure(reason: "\(error)") }
        let socket = Descriptor(adopting: connection.clientFD)  // ours closes once the child has its copy
        do {
            process = try ChildProcess(
                [executable], environment: ["WAYLAND_SOCKET": "3"], unsetting: ["WAYLAND_DISPLAY"],
                passing: [socket.rawValue, pair.theirs.rawValue], input: .discard, output: .inherit)
        } catch {
            connection.client.destroy()
            throw StartFailure(reason: "\(error)")
        }
        let ours = pair.keepingOurs()
        try? ours.setNonBlocking()
        channelSource = display.eventLoop.addFD(ours.rawValue, events: .readable) { [unowned(unsafe) self] _ in
            readChannel()
        }
        channel = consume ours
        return connection.client
    }

    /// Sends a request if the channel takes it now; false (no lookup) otherwise.
    @discardableResult
    func send(_ request: LookupChannel.Request) -> Bool {
        let bytes = LookupChannel.encode(request)
        let sent = bytes.withUnsafeBytes { bytes in (try? channel?.send(bytes)) ?? nil }
        return sent == bytes.count
    }

    private func readChannel() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while channel != nil {
            let result: Result<Int, SystemCallError> = chunk.withUnsafeMutableBytes { buffer in
                do throws(SystemCallError) {
                    return .success(try channel?.read(into: buffer) ?? 0)
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let count) where count > 0:
                chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                while let body = reader.next() {
                    if let message = LookupChannel.decode(body) { onMessage?(message) }
                }
                if reader.overrun {
                    logger.error("look up: preview-lookup sent an oversized frame: restarting it")
                    end(notifying: true)
                    scheduleRestart()
                    return
                }
            case .failure(let error) where error.wouldBlock:
                return
            default:
                // Closed: the process is going; its exit restarts it.
                closeChannel()
                return
            }
        }
    }

    private func closeChannel() {
        channelSource?.remove()
        channelSource = nil
        channel = nil  // closed here
        reader = LookupChannel.FrameReader()
    }

    private func exited() {
        let status = process?.wait().status ?? 0
        exitSource?.remove()
        exitSource = nil
        process = nil
        closeChannel()
        forgetClient()
        logger.notice("look up: preview-lookup exited with status \(status)")
        onExit?()
        // A process that ran for a minute starts again at once; one that keeps dying waits longer.
        if MonotonicTime.microseconds() - startedAt > 60_000_000 { backoffMilliseconds = 250 }
        if wanted { scheduleRestart() }
    }

    private func scheduleRestart() {
        if restartTimer == nil {
            restartTimer = display.eventLoop.addTimer { [unowned(unsafe) self] in if wanted { start() } }
        }
        restartTimer?.arm(milliseconds: backoffMilliseconds)
        backoffMilliseconds = min(backoffMilliseconds * 2, 30_000)
    }

    /// Ends the process (Look Up turned off, the host going away); no restart follows.
    func stop() {
        wanted = false
        restartTimer?.remove()
        restartTimer = nil
        end(notifying: false)
    }

    /// Ends the running process; the caller decides about a restart.
    private func end(notifying: Bool) {
        closeChannel()
        exitSource?.remove()
        exitSource = nil
        process?.wait(timeout: 0, grace: 1)
        let hadProcess = process != nil
        process = nil
        // Its connection goes with it, now (the loop may not run again to notice).
        let connection = client
        forgetClient()
        connection?.destroy()
        if hadProcess && notifying { onExit?() }
    }

    private func forgetClient() {
        clientGone?.remove()
        clientGone = nil
        client = nil
    }
}
