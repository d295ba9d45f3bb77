import Foundation
import LibinputRecording
import PreviewEngine
import PreviewTrace
import RecordingReplay
import SystemLayer

/// Something a demo run could not do, in one line.
public struct RunError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The demo through the real thing: `preview-compositor --replay … --run peek-client`, its
/// trace read from a FIFO as it is written (live view), copied to trace.jsonl.
public struct CompositorRun {
    public var tools: Tools
    public var recordings: [String]
    public var directory: String
    public var screenshots: String
    public var fast: Bool
    public var timeout: Double
    /// Interactions the client waits for before it exits (it then lets the compositor finish).
    public var interactions: Int?
    /// The compositor's `--should-begin-timeout` in ms; nil keeps its default (150 ms).
    public var shouldBeginTimeout: Int?
    /// Set for the compositor and, through it, the client (XDG_RUNTIME_DIR).
    public var environment: [String: String] = [:]

    public init(
        tools: Tools, recordings: [String], directory: String, screenshots: String, fast: Bool, timeout: Double,
        interactions: Int? = nil
    ) {
        self.tools = tools
        self.recordings = recordings
        self.directory = directory
        self.screenshots = screenshots
        self.fast = fast
        self.timeout = timeout
        self.interactions = interactions
    }

    public var clientLog: String { directory + "/client.log" }
    public var compositorLog: String { directory + "/compositor.log" }

    /// The compositor's command line (the client goes in `--run`).
    public func arguments(trace: String) -> [String] {
        var client = [tools.client, "--log"]
        if let interactions { client += ["--exit-after-interactions", String(interactions)] }
        let run = "exec " + client.map(shellQuote).joined(separator: " ") + " > " + shellQuote(clientLog) + " 2>&1"
        // Headless whatever the environment: the demo runs inside desktop sessions too.
        var arguments = [tools.compositor, "--backend", "headless", "--replay"] + recordings
        if fast { arguments.append("--fast") }
        if let shouldBeginTimeout { arguments += ["--should-begin-timeout", String(shouldBeginTimeout)] }
        arguments += [
            "--socket", "preview-demo-\(getpid())", "--screenshot-dir", screenshots, "--trace", trace,
            "--exit-when-done", "--run", run,
        ]
        return arguments
    }

    /// Runs it, showing the live view; returns the records of trace.jsonl.
    public func perform(tracePath: String, show: Bool = true) throws(RunError) -> [TraceRecord] {
        let fifoDirectory = NSTemporaryDirectory() + "preview-demo-\(getpid())"
        try? FileManager.default.createDirectory(atPath: fifoDirectory, withIntermediateDirectories: true)
        Interruption.track(folder: fifoDirectory)
        defer {
            try? FileManager.default.removeItem(atPath: fifoDirectory)
            Interruption.forget(folder: fifoDirectory)
        }
        let fifo = fifoDirectory + "/trace.fifo"
        guard mkfifo(fifo, 0o600) == 0 else { throw RunError("cannot make a FIFO at \(fifo)") }
        guard FileManager.default.createFile(atPath: tracePath, contents: nil) else {
            throw RunError("cannot create \(tracePath)")
        }
        guard let copy = FileHandle(forWritingAtPath: tracePath) else { throw RunError("cannot write \(tracePath)") }
        defer { try? copy.close() }

        let child: ChildProcess
        do {
            child = try ChildProcess(arguments(trace: fifo), environment: environment, output: .file(compositorLog))
        } catch {
            throw RunError("\(error)")
        }
        Interruption.track(child: child.pid)
        defer { Interruption.forget(child: child.pid) }
        // The reader: opening a FIFO blocks until the compositor opens it; the lines then come
        // as they are written, and end-of-file when the compositor closes it.
        let finished = DispatchSemaphore(value: 0)
        let isTerminal = Terminal.isTerminal
        DispatchQueue.global().async {
            if let handle = FileHandle(forReadingAtPath: fifo) {
                var view = LiveView(isTerminal: isTerminal)
                TraceFollower.follow(handle, raw: { copy.write($0) }) { record in
                    if show { Terminal.write(view.take(record)) }
                }
                if show { Terminal.write(view.finish()) }
                try? handle.close()
            }
            finished.signal()
        }
        let status = child.wait(timeout: timeout)
        // A compositor that never opened the trace leaves the reader in open(): be its writer once.
        if finished.wait(timeout: .now() + 0.5) == .timedOut {
            if let unblock = FileHandle(forWritingAtPath: fifo) { try? unblock.close() }
            finished.wait()
        }
        guard let status else {
            throw RunError("the compositor did not finish within \(Int(timeout)) s (log: \(compositorLog))")
        }
        guard status == 0 else {
            let log = (try? String(contentsOfFile: compositorLog, encoding: .utf8)) ?? ""
            let tail = log.split(separator: "\n").suffix(5).joined(separator: "\n  ")
            throw RunError("preview-compositor exited with status \(status):\n  \(tail)")
        }
        do {
            return try TraceReader.read(path: tracePath)
        } catch {
            throw RunError("\(error)")
        }
    }
}

/// The demo without a compositor: the recordings through the engine as `preview-replay` runs
/// them, one after another on one timeline (the next file starts a second after the last ended;
/// interaction numbers continue).
public struct ReplayRun {
    public var recordings: [String]
    public var fast: Bool

    public init(recordings: [String], fast: Bool) {
        self.recordings = recordings
        self.fast = fast
    }

    public func perform(tracePath: String, show: Bool = true) throws(RunError) -> [TraceRecord] {
        var all: [TraceRecord] = []
        var offset: Int64 = 0
        var idOffset: UInt32 = 0
        for file in recordings {
            let replayed: (records: [TraceRecord], summary: ReplaySummary)
            do {
                replayed = try Replay.records(input: try RecordingInput(path: file), options: ReplayOptions())
            } catch {
                throw RunError("\(error)")
            }
            var highest: UInt32 = 0
            for var record in replayed.records {
                record.time = Timestamp(microseconds: record.time.microseconds + offset)
                highest = max(highest, record.interaction.rawValue)
                record.interaction = InteractionID(record.interaction.rawValue + idOffset)
                all.append(record)
            }
            idOffset += highest
            offset += replayed.summary.lastTime.microseconds + 1_000_000
        }
        var view = LiveView(isTerminal: Terminal.isTerminal)
        var clock = RealtimeClock()
        var text = ""
        for record in all {
            if !fast { clock.wait(until: record.time) }
            if show { Terminal.write(view.take(record)) }
            text += record.jsonLine + "\n"
        }
        if show { Terminal.write(view.finish()) }
        do {
            try text.write(toFile: tracePath, atomically: true, encoding: .utf8)
        } catch {
            throw RunError("cannot write \(tracePath): \(error.localizedDescription)")
        }
        return all
    }
}
