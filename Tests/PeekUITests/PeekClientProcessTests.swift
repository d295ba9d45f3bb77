import Glibc
import PeekUI
import PreviewEngine
import PreviewProtocolServer
import SystemLayer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

// The real `peek-client` process against the in-process protocol harness (real libwayland on
// both ends): the test plays the engine, pressing where it likes, and reads the client's --log.
// The harness has no xdg_wm_base or wl_shm, so the client runs without a window.

@Suite(.serialized) struct PeekClientProcessTests {
    /// Where the test presses, in the client's default 800×600 layout.
    static let size = PeekUI.Size(width: 800, height: 600)

    @Test func answersByHitTestingAcksEveryFrameAndActsOnCompletion() throws {
        let grid = GridLayout(size: Self.size)
        let peek = PeekLayout(size: Self.size)
        let love = peek.actionFrames(appearance: 1).first { $0.0 == .love }!.1
        func centre(_ r: PeekUI.Rect) -> PreviewEngine.Point { PreviewEngine.Point(x: r.midX, y: r.midY) }
        let presses: [Press] = [
            // Item 1, then the pen slides onto ❤️ Love: the rating is performed.
            Press(at: centre(grid.tile(at: 0)), commitAt: centre(love), ending: .complete),
            // The title bar: declined.
            Press(at: PreviewEngine.Point(x: 400, y: 20), commitAt: nil, ending: .complete),
            // Item 3, lifted during the preview: nothing happens.
            Press(at: centre(grid.tile(at: 2)), commitAt: nil, ending: .lift),
            // Item 6, completed over the card itself: it pops open (last: the detail view then
            // covers the grid, so the next press would be declined).
            Press(at: centre(grid.tile(at: 5)), commitAt: centre(peek.card), ending: .complete),
        ]
        let run = try ClientRun(arguments: ["--log", "--exit-after-interactions", "\(presses.count)"])
        for press in presses { try run.play(press) }
        let status = try run.waitForExit()
        let log = run.stdout()
        #expect(status == 0, "exit status \(status); stderr: \(run.stderr())\n\(log)")

        let lines = log.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("event=should_begin") }.count == 4, "\(log)")
        #expect(lines.contains("interaction=1 request=accept"), "\(log)")
        #expect(lines.contains("interaction=2 request=decline"), "\(log)")
        #expect(lines.contains("interaction=3 request=accept"), "\(log)")
        #expect(lines.contains("interaction=4 request=accept"), "\(log)")
        #expect(lines.contains("interaction=1 event=preview_ended"), "\(log)")
        // Progress frames only flow after the previous frame was acknowledged: the commit
        // progress arriving at all shows that the client acks.
        #expect(lines.contains("interaction=1 event=commit progress=0.5000"), "\(log)")
        #expect(lines.contains { $0.hasPrefix("interaction=1 result=performed action=love item=1 ") }, "\(log)")
        #expect(lines.contains("interaction=2 event=cancelled reason=declined"), "\(log)")
        #expect(lines.contains { $0.hasPrefix("interaction=4 result=opened item=6 ") }, "\(log)")
        #expect(lines.contains("interaction=3 event=cancelled reason=lifted"), "\(log)")
        #expect(!lines.contains { $0.hasPrefix("interaction=3 result=") }, "a lifted preview performs nothing")
        // Every line is one of the documented kinds (README.md).
        for line in lines {
            let kind = line.split(separator: " ").dropFirst().first ?? ""
            #expect(
                line.hasPrefix("interaction=")
                    && ["event", "request", "result"].contains(kind.split(separator: "=").first ?? ""), "\(line)")
        }
        // Frame serials are consecutive from 1: none was lost between the two processes.
        let serials = lines.compactMap { line -> Int? in
            guard line.contains("event=frame") else { return nil }
            return line.split(separator: " ").first { $0.hasPrefix("serial=") }.flatMap { Int($0.dropFirst(7)) }
        }
        #expect(serials == Array(1...max(1, serials.count)), "\(serials)")
    }

    @Test("Sliding onto a quick action asks for a tick on the press's device, where effects can be felt")
    func aQuickActionReachedTicks() throws {
        let grid = GridLayout(size: Self.size)
        let peek = PeekLayout(size: Self.size)
        func centre(_ r: PeekUI.Rect) -> PreviewEngine.Point { PreviewEngine.Point(x: r.midX, y: r.midY) }
        let action = { (name: QuickAction) in peek.actionFrames(appearance: 1).first { $0.0 == name }!.1 }
        let run = try ClientRun(arguments: ["--log", "--exit-after-interactions", "3"])
        run.harness.playsHaptics = true
        // Onto 💀 Nope: a tick while the press runs.
        try run.play(Press(at: centre(grid.tile(at: 0)), commitAt: centre(action(.nope)), ending: .complete))
        // Completed over the card: no action reached, nothing to feel.
        try run.play(Press(at: centre(grid.tile(at: 1)), commitAt: centre(peek.card), ending: .complete))
        // The device cannot play effects: the app does not ask.
        run.harness.playsHaptics = false
        try run.play(Press(at: centre(grid.tile(at: 2)), commitAt: centre(action(.copy)), ending: .complete))
        let status = try run.waitForExit()
        let log = run.stdout()
        #expect(status == 0, "exit status \(status); stderr: \(run.stderr())\n\(log)")
        #expect(run.harness.playedHaptics.map(\.interaction) == [InteractionID(1)], "\(run.harness.playedHaptics)")
        #expect(run.harness.playedHaptics.map(\.effect) == [.tick])
        let requests = log.split(separator: "\n").filter { $0.contains("request=play_haptic") }
        #expect(requests == ["interaction=1 request=play_haptic effect=tick"], "\(log)")
        #expect(log.contains("interaction=1 event=haptics state=available"), "\(log)")
        #expect(log.contains("interaction=3 event=haptics state=unavailable"), "\(log)")
        #expect(log.contains("interaction=1 result=performed action=nope"), "\(log)")
    }

    @Test func rejectsBadOptionsWithAClearError() throws {
        let run = try ClientRun(arguments: ["--theme", "purple"], connect: false)
        let status = try run.waitForExit()
        #expect(status != 0)
        #expect(run.stderr().contains("--theme must be light or dark"), "\(run.stderr())")
    }
}

struct Press {
    enum Ending { case complete, lift }
    var at: PreviewEngine.Point
    /// Where the contact is during the commit phase; nil ends the press during the preview.
    var commitAt: PreviewEngine.Point?
    var ending: Ending
}

/// One peek-client process connected to a fresh harness through WAYLAND_SOCKET.
final class ClientRun {
    let harness: ProtocolHarness
    let child: ChildProcess
    private var nextInteraction: UInt32 = 1
    private var surface: SurfaceID?
    private let outPath: String
    private let errPath: String

    init(arguments: [String], connect: Bool = true) throws {
        harness = try ProtocolHarness()
        let products = CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let binary = products + "/peek-client"
        let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        outPath = "/tmp/peek-client-test-\(tag).out"
        errPath = "/tmp/peek-client-test-\(tag).err"

        var environment = ["XDG_RUNTIME_DIR": "/tmp"]
        var clientFD: Int32 = -1
        if connect {
            let (client, fd) = try harness.display.connectedClientSocket()
            _ = client
            clientFD = fd
            environment["WAYLAND_SOCKET"] = "3"  // the first passed descriptor
        }
        var surfaceSeen: SurfaceID?
        harness.compositor.onCommit = { [harness] id in
            harness.server.surfaceCommitted(id)
            surfaceSeen = id
        }
        do {
            child = try ChildProcess(
                [binary] + arguments, environment: environment, inheritingEnvironment: false,
                passing: clientFD >= 0 ? [clientFD] : [], output: .file(outPath), errors: .file(errPath))
        } catch {
            if clientFD >= 0 { close(clientFD) }
            throw error
        }
        if clientFD >= 0 { close(clientFD) }
        harness.react = { [unowned self] input in self.react(input) }
        if connect {
            try pump("the client's first commit") { surfaceSeen != nil }
            surface = surfaceSeen
        }
    }

    deinit {
        child.stop()
        unlink(outPath)
        unlink(errPath)
    }

    func stdout() -> String { read(outPath) }
    func stderr() -> String { read(errPath) }

    /// One press, played the way the engine would: ask, then (if accepted) preview, commit and
    /// completion, or a lift during the preview.
    func play(_ press: Press) throws {
        guard let surface else { throw TestFailure("no surface") }
        let id = nextInteraction
        nextInteraction += 1
        var update = PhaseUpdate(
            interaction: InteractionID(id), surface: surface, contact: ContactKey(device: DeviceID(1)),
            time: now(), progress: 0, location: press.at, source: .pen, simulated: false)
        answers[id] = nil
        harness.server.perform(.askShouldBegin(update))
        try pump("an answer to should_begin \(id)") { self.answers[id] != nil || self.exited }
        guard answers[id] == true else { return }  // declined: react() sent cancelled(declined)
        for (event, progress) in [(PhaseEvent.previewBegan, 0.3), (.previewProgress, 0.6)] {
            update.progress = progress
            update.time = now()
            harness.server.perform(.phase(event, update))
            try settle()
        }
        guard let commitAt = press.commitAt, press.ending == .complete else {
            update.time = now()
            harness.server.perform(.phase(.cancelled(.lifted), update))
            try settle()
            return
        }
        update.progress = 1
        harness.server.perform(.phase(.previewEnded, update))
        try settle()
        update.progress = 0.5
        update.location = commitAt
        update.time = now()
        harness.server.perform(.phase(.commitProgress, update))
        try settle()
        update.progress = 1
        update.time = now()
        harness.server.perform(.phase(.completed, update))
        try settle()
    }

    private var answers: [UInt32: Bool] = [:]

    private func react(_ input: PreviewClientInput) -> [Action] {
        guard case .answered(let id, let accept, _) = input else { return [] }
        answers[id.rawValue] = accept
        guard !accept, let surface else { return [] }
        let update = PhaseUpdate(
            interaction: id, surface: surface, contact: ContactKey(device: DeviceID(1)), time: now(), progress: 0,
            location: PreviewEngine.Point(x: 0, y: 0), source: .pen, simulated: false)
        return [.phase(.cancelled(.declined), update)]
    }

    /// Lets both processes exchange what they have (acks, coalesced progress) for a moment.
    private func settle() throws {
        let until = monotonicMilliseconds() + 40
        while monotonicMilliseconds() < until && !exited { harness.display.dispatch(timeoutMilliseconds: 5) }
    }

    private func pump(_ what: String, until done: () -> Bool) throws {
        let deadline = monotonicMilliseconds() + 20_000
        while !done() {
            guard monotonicMilliseconds() < deadline else { throw TestFailure("timed out waiting for \(what)") }
            harness.display.dispatch(timeoutMilliseconds: 10)
            if exited && !done() { throw TestFailure("the client exited waiting for \(what): \(stderr())") }
        }
    }

    var exited: Bool { !child.isRunning }

    func waitForExit() throws -> Int32 {
        try pump("the client to exit") { self.exited }
        return child.wait().status
    }

    private func now() -> Timestamp { Timestamp(microseconds: harness.display.clock.microseconds()) }

    private func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private func monotonicMilliseconds() -> Int64 { MonotonicTime.microseconds() / 1000 }
