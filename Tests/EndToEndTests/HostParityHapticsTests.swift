import DemoReport
import Foundation
import LibinputRecording
import PreviewEngine
import PreviewTrace
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// Haptics in every host: the pressure pad (`apple-bcm5974-pressurepad.yml`, `FF_HAPTIC`) played
/// as a real device on the umockdev testbed, whose device answers the force-feedback calls as
/// the kernel does and logs each, to a host running its libinput backend with the user's
/// haptics at medium, over `v2_client.py` (one window, every press accepted, `confirm` asked for
/// 80 ms into each commit phase). Every host must play the same effects (waveform and order) and
/// give the same phases per interaction. The stream starts when the client's window is mapped.
enum HapticParity {
    static let recording = "apple-bcm5974-pressurepad.yml"

    struct Run {
        var host: String
        var status: Int32?
        var records: [TraceRecord]
        var played: [String]
        var clientLog: String
        var log: String

        var summary: String {
            "\(host) (status \(status.map(String.init) ?? "none")): \(played.joined(separator: " "))\n"
                + ParityInteraction.all(records, stages: false).map { "  \($0)" }.joined(separator: "\n")
                + "\n  log: …\(log.suffix(1500))\n  client: …\(clientLog.suffix(800))"
        }
    }

    /// The client, the user completing on release: the commit phase lasts until the finger lifts
    /// (over 200 ms after the commit), so the app's effect comes while its interaction runs.
    static func client(ready: String) -> String {
        LibinputTestbed.shell(
            "exec /usr/bin/python3 " + shellQuote(ParityBuilds.root + "/Tests/python/v2_client.py")
                + " --haptic confirm --until-disconnected",
            readyOn: "mapped ", file: ready)
    }

    /// Runs `command` (given the trace's path and the client) live on the testbed.
    static func live(_ host: String, _ command: (_ trace: String, _ client: String) -> [String]) throws -> Run {
        let folder = scratchDirectory("haptics")
        let trace = folder + "/trace.jsonl"
        let device = try TestbedDevice(recording: try Recording.open(Fixtures.path(recording)))
        var options = LibinputTestbed.Options()
        options.haptics = .medium
        options.readyFile = folder + "/ready"
        let run = try LibinputTestbed.runLive(
            device, command: command(trace, client(ready: folder + "/ready")), options: options)
        return Run(
            host: host, status: run.status, records: (try? TraceReader.read(path: trace)) ?? [],
            played: ForceFeedbackLog.played(run.forceFeedback).map { ForceFeedbackLog.name($0.usage) },
            clientLog: run.output, log: run.log)
    }

    static func previewCompositor() throws -> Run {
        try live("preview-compositor") { trace, client in
            [
                tools.compositor, "--backend", "headless", "--socket", "wayland-hp-\(UUID().uuidString.prefix(8))",
                "--libinput", "--haptics", "medium", "--completion", "on-release", "--should-begin-timeout",
                String(slowClientShouldBeginTimeout), "--trace", trace, "--run", client,
            ]
        }
    }

    /// The wlroots example on wlroots' own libinput backend (as sway runs it: headless outputs,
    /// the pixman renderer, libseat's noop seat, whose name the device's udev entry is tagged with).
    static func wlrootsExample() throws -> Run {
        try live("wlroots example") { trace, client in
            [
                "/bin/sh", "-c",
                "for entry in /run/udev/data/c*; do echo E:ID_SEAT=noop >> \"$entry\"; done; exec \"$@\"", "sh",
                "/usr/bin/env", "WLR_BACKENDS=headless,libinput", "WLR_RENDERER=pixman", "LIBSEAT_BACKEND=noop",
                "WLR_HEADLESS_OUTPUTS=1", "WLR_LIBINPUT_NO_DEVICES=1", ParityBuilds.wlrootsCompositor, "--backend",
                "auto", "--haptics", "medium", "--completion", "on-release", "--should-begin-timeout",
                String(slowClientShouldBeginTimeout), "--trace", trace, "--run", client,
            ]
        }
    }
}

extension HapticParity.Run {
    /// Each interaction reduced to its source and how it ended: on the real-time testbed the
    /// client's should-begin answer races a firm press (it may pass the preview phase before the
    /// answer, in either host), so the phases before the end are the replay suite's to compare.
    var outcomes: [ParityInteraction] {
        ParityInteraction.all(records, stages: false).map { interaction in
            var outcome = interaction
            outcome.steps = Array(interaction.steps.suffix(1))
            return outcome
        }
    }
}

@Suite(.serialized, .enabled(if: LibinputTestbed.availability() == .available, "needs the umockdev testbed"))
struct HostParityHapticsTests {
    /// The scenario's name in docs/testing.md's table of differences.
    static let scenario = "a haptic pressure pad"

    @Test("A haptic pressure pad plays the same effects, in the same order, in every host")
    func sameEffects() throws {
        if let problem = ParityBuilds.wlroots { Issue.record("wlroots example: \(problem)") }
        let runs = [try HapticParity.previewCompositor(), try HapticParity.wlrootsExample()]
        let evidence = runs.map(\.summary).joined(separator: "\n")
        for run in runs { #expect(run.status == 0, "\(run.host) did not finish\n\(evidence)") }
        let reference = runs[0]
        // The scenario did what it is there for: presses that committed, the app's confirm played.
        #expect(
            Array(reference.played.prefix(4)) == ["press", "click", "click", "release"],
            "press, the commit's deep click, the app's confirm, release\n\(evidence)")
        #expect(reference.outcomes.filter { $0.steps == ["completed"] }.count >= 2, "\(evidence)")
        // The same effects, one for one; the same outcomes but for the documented differences.
        var differences: [ParityScenario.Difference] = []
        for run in runs.dropFirst() {
            #expect(run.played == reference.played, "effects differ\n\(evidence)")
            for step in ParityScenario.align(reference.outcomes, run.outcomes) {
                switch step {
                case .both: break
                case .onlyFirst(let x): differences.append(.init(host: run.host, reference: x.description))
                case .onlySecond(let y): differences.append(.init(host: run.host, other: y.description))
                }
            }
        }
        let documented = try DocumentedDifferences.rows().filter { $0.scenario == Self.scenario }.map(\.difference)
        #expect(
            differences.map(\.description).sorted() == documented.map(\.description).sorted(),
            "outcomes differ\n\(evidence)")
    }
}
