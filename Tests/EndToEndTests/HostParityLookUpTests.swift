import DemoReport
import Foundation
import Testing
import _FixtureTestSupport

/// Look Up in every host, one answer: the same recordings over a GTK 3 app without the protocol
/// (Tests/Fixtures/lookup/gtk3-text.py, its window filled with one word or one link) give the
/// same lookups in preview-compositor, the wlroots example and sway: each one's outcome, what it
/// found, and how it ended (completed, cancelled with its reason, dismissed). Every host runs
/// the host core's Look Up and only draws; preview-lookup reads the app through AT-SPI on a
/// session bus of the run's own.
@Suite(.serialized) struct HostParityLookUpTests {
    static let fixtures = LookUpTests.fixtures

    /// A fixture app (gtk3-text.py, gtk4-textview.py) with `options`, its accessibility on (the
    /// test process may have it off), on Wayland.
    static func fixture(_ script: String, _ options: [String]) -> ParityApp {
        let words: [String] = ["/usr/bin/python3", fixtures + script] + options
        let command: String = words.map(shellQuote).joined(separator: " ")
        return ParityApp(name: script) { log in
            "unset NO_AT_BRIDGE GTK_A11Y; GDK_BACKEND=wayland GSK_RENDERER=cairo exec " + command + " > "
                + shellQuote(log) + " 2>&1"
        }
    }

    static func gtk3(_ options: [String]) -> ParityApp { fixture("gtk3-text.py", options) }

    static let scenarios: [ParityScenario] = [
        ParityScenario(
            name: "Look Up: a word",
            // The Dell pen: a light stroke, then a firm press to completion; played twice, the
            // second play compared (see `warmUp`).
            recordings: ["dell-canvas-isdv4-pen.yml", "dell-canvas-isdv4-pen.yml"], app: gtk3(["--fill", "jumps"]),
            lookup: ParityLookUp(warmUp: true),
            lookups: ["found jumps: cancelled (lifted), dismissed", "found jumps: completed, dismissed"]),
        ParityScenario(
            name: "Look Up: a link",
            // A finger without pressure, the long-press setting on: a long press lifted early, then
            // one held to completion, seconds apart (a tap on a link activates it, and a press
            // right after finds the app busy with that, in any host).
            // Played once: a second play finds the app busy with the link the first one completed.
            recordings: ["handwritten-usb-touchscreen.yml"], app: gtk3(["--fill-link"]),
            lookup: ParityLookUp(longPress: true),
            lookups: [
                "found https://example.org/guide: cancelled (lifted), dismissed",
                "found https://example.org/guide: completed, dismissed",
            ]),
        ParityScenario(
            name: "Look Up: a light press",
            // The UC-Logic pen presses to 0.44 at most: the highlight, never the panel.
            recordings: ["uclogic-wp5540u-pen.yml", "uclogic-wp5540u-pen.yml"], app: gtk3(["--fill", "jumps"]),
            lookup: ParityLookUp(warmUp: true),
            lookups: ["found jumps: cancelled (lifted), dismissed"]),
        ParityScenario(
            name: "Look Up: Escape",
            // Menu held (a lookup at the text caret, in "swans") completes, then Escape while it
            // is still held takes the panel away.
            recordings: [fixtures + "keyboard-menu-then-escape.yml", fixtures + "keyboard-menu-then-escape.yml"],
            app: fixture("gtk4-textview.py", ["--fill", "geese", "--caret", "swans"]),
            lookup: ParityLookUp(warmUp: true),
            lookups: ["found swans: completed, dismissed"]),
        ParityScenario(
            name: "Look Up: a press that moves off",
            // A finger without pressure, the long-press setting on: asked, answered, then it slides
            // off beyond the slop before the simulated force commits.
            recordings: [fixtures + "touchscreen-long-press-moved.yml", fixtures + "touchscreen-long-press-moved.yml"],
            app: gtk3(["--fill", "jumps"]), lookup: ParityLookUp(longPress: true, warmUp: true),
            lookups: ["found jumps: cancelled (moved), dismissed"]),
    ]

    @Test("Every host gives the same lookups", arguments: scenarios)
    func hostsAgree(_ scenario: ParityScenario) throws {
        let hosts = ParityHost.hosts(for: scenario, suite: "HostParityLookUpTests")
        let runs = try hosts.map { try scenario.run(in: $0) }
        let evidence = runs.map(\.lookUpSummary).joined(separator: "\n")
        for run in runs { #expect(run.status == 0, "\(run.host) did not finish the replay\n\(evidence)") }
        // After a warm-up play, the last play's lookups (as many as the scenario expects).
        func compared(_ run: ParityRun) -> [String] {
            let all = run.lookups.map(\.description)
            return scenario.lookup?.warmUp == true ? Array(all.suffix(scenario.lookups.count)) : all
        }
        let reference = compared(runs[0])
        #expect(reference == scenario.lookups, "the reference's lookups\n\(evidence)")
        for run in runs.dropFirst() {
            // sway plays the recording in real time (the testbed): its stream does not hold still
            // for preview-lookup's answer as a replay does, so a light tap may lift before the
            // answer (late); any other difference fails.
            let lateOnly = run.host == "sway" && Self.onlyLate(compared(run), reference)
            withKnownIssue(
                "sway's real-time stream lifted a light tap before preview-lookup answered", isIntermittent: true
            ) {
                #expect(compared(run) == reference, "\(run.host) differs\n\(evidence)")
            } when: {
                lateOnly
            }
            // No press of these apps is the protocol's: no host began an interaction.
            #expect(run.interactions(stages: false).isEmpty, "\(run.host): \(run.interactions(stages: false))")
        }
    }
}

extension HostParityLookUpTests {
    /// Whether `other` differs from `reference` only where a lookup the reference found and
    /// whose press lifted before it committed is one `late` for the same find.
    static func onlyLate(_ other: [String], _ reference: [String]) -> Bool {
        guard other.count == reference.count, other != reference else { return false }
        return zip(other, reference).allSatisfy { mine, theirs in
            guard mine != theirs else { return true }
            let found = theirs.split(separator: ":").first.map(String.init) ?? ""
            return theirs.hasSuffix(": cancelled (lifted), dismissed") && found.hasPrefix("found ")
                && mine == "late " + found.dropFirst("found ".count)
        }
    }
}
