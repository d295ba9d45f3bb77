import DemoReport
import Foundation
import LibinputRecording
import PreviewTrace
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// preview-compositor on the real libinput inside the umockdev testbed (`--libinput`, the
/// testbed's udev seat), with haptics on the recorded pressure pad, and peek-client in it: the
/// effects the app asks for reach the pad's force-feedback interface as the kernel would see them.
struct PressurePadRun {
    let live: LibinputTestbed.LiveRun
    let trace: String
    let shots: String

    /// Plays the pressure-pad recording to the compositor; the testbed stops it (SIGINT) after
    /// the last frame.
    static func run(
        recording: String, client: [String] = [], compositor: [String] = [], output: String = "1280x800",
        name: String = #function
    ) throws
        -> PressurePadRun
    {
        let directory = scratchDirectory(name)
        let runtime = directory + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        let trace = directory + "/trace.jsonl"
        let shots = directory + "/shots"
        let peek = ([tools.client, "--log"] + client).map(shellQuote).joined(separator: " ")
        // The stream starts once the compositor says peek-client's window is mapped (its log,
        // -v), however long the two take to start on a loaded machine: the compositor stays
        // the runner's child (exec), its log passes through a reader that creates the file.
        let ready = directory + "/ready"
        let command =
            [
                "/bin/bash", "-c",
                #"exec 2> >(while IFS= read -r line; do printf '%s\n' "$line" >&2; "#
                    + #"case "$line" in *" mapped at "*) : > "$0";; esac; done); exec "$@""#,
                ready, "/usr/bin/env", "XDG_RUNTIME_DIR=\(runtime)",
                tools.compositor, "--backend", "headless", "--libinput", "--haptics", "medium", "-v",
                "--output", output, "--trace", trace, "--screenshot-dir", shots,
                "--should-begin-timeout", String(slowClientShouldBeginTimeout),
            ] + compositor + ["--run", peek]
        let device = try TestbedDevice(recording: try Recording.open(recording))
        var options = LibinputTestbed.Options()
        options.readyFile = ready
        options.haptics = .medium
        let live = try LibinputTestbed.runLive(device, command: command, options: options)
        return PressurePadRun(live: live, trace: trace, shots: shots)
    }
}

/// The pad's effects in the order the compositor wrote them (`EV_FF` writes of the testbed's
/// log), named by the waveform each id was uploaded with.
struct PadEffects {
    enum Effect: Equatable { case press, deepClick, release, other }
    var written: [(time: Int64, effect: Effect)] = []

    init(log: String) {
        var waveforms: [String: Effect] = [:]
        for line in log.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let time = words.first.flatMap({ Int64($0) }),
                let id = words.firstIndex(of: "id").map({ words[$0 + 1] })
            else { continue }
            if line.contains("EVIOCSFF"), let usage = words.firstIndex(of: "usage").map({ words[$0 + 1] }) {
                waveforms[id] = ["0x1006": .press, "0x1003": .deepClick, "0x1007": .release][usage] ?? .other
            } else if line.contains(" EV_FF ") {
                written.append((time, waveforms[id] ?? .other))
            }
        }
    }

    /// The presses the pad's own clicks do not explain: the pad plays a press where its button
    /// goes down and owes a release for it, so a press while one is owed, or one never
    /// released, is an app's effect (tick and snap play the press waveform).
    var appPresses: [Int64] {
        var owed: Int64?
        var extra: [Int64] = []
        for (time, effect) in written {
            switch effect {
            case .press:
                if owed != nil { extra.append(time) } else { owed = time }
            case .release: owed = nil
            case .deepClick, .other: break
            }
        }
        if let owed { extra.append(owed) }
        return extra.sorted()
    }
}

@Suite(.enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
struct PeekPressurePadTests {
    @Test("peek-client's haptic requests reach the pressure pad's force feedback, after the commit's deep click")
    func appEffectsReachThePad() throws {
        // The first press pops Coral Bay open (the pad's deep click at the commit); the later
        // presses land on its photo, a 4-stage accelerator: each zoom level reached asks for a snap.
        let run = try PressurePadRun.run(recording: Fixtures.path("apple-bcm5974-pressurepad.yml"))
        let log = run.live.output
        #expect(run.live.status == 0, "\(run.live.log.suffix(3000))")
        #expect(log.contains("interaction=1 event=preview_ended"), "\(log)")
        #expect(log.contains("interaction=1 result=opened item=11 "), "\(log)")
        #expect(log.contains("interaction=2 event=behaviour behaviour=accelerator stages=4"), "\(log)")
        #expect(log.contains("interaction=2 event=haptics state=available"), "the pad plays effects: \(log)")
        let requests = log.split(separator: "\n").filter { $0.contains("request=play_haptic effect=snap") }
        #expect(!requests.isEmpty, "\(log)")

        let pad = PadEffects(log: run.live.forceFeedback)
        let deepClick = try #require(
            pad.written.first { $0.effect == .deepClick }?.time, "no deep click: \(run.live.forceFeedback)")
        let app = pad.appPresses
        // Each request played, or dropped by the pad's 50 ms between an app's effects.
        #expect(!app.isEmpty && app.count <= requests.count, "\(app) for \(requests): \(run.live.forceFeedback)")
        #expect(app.allSatisfy { $0 > deepClick }, "\(app) vs the deep click at \(deepClick)")
    }
}
