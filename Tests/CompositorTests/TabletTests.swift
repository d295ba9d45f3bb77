import Foundation
import Testing
import _FixtureTestSupport

/// Pens over tablet-v2, with a real client on a real socket: Tests/python/tablet_client.py
/// (pywayland bindings generated from tablet-unstable-v2.xml) logs every event it gets while
/// the compositor replays a Cintiq pen recording.
@Suite(.serialized) struct TabletTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../python/tablet_client.py").standardized.path

    /// Runs the compositor on the pen recording with the client in `mode` until the client has
    /// logged the lines `last` `times` (its last events: we synchronise on its output), then
    /// stops the compositor with SIGTERM; returns the client's event log.
    func replayPen(_ mode: String..., until last: String, times: Int) throws -> [Substring] {
        let log = TestRuntime.temporaryDirectory("tablet") + "/events.log"
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket",
                TestRuntime.uniqueSocket(),
                "--replay", ReplayRunTests.recordings + "/wacom-cintiq13hd-pen.yml", "--fast",
                "--should-begin-timeout", String(slowClientShouldBeginTimeout),
                "--run", "/usr/bin/python3 \(Self.client) \(mode.joined(separator: " ")) \(log)",
            ], socket: "", environment: [:])
        process.waitForText(in: log) { $0.components(separatedBy: last + "\n").count - 1 >= times }
        process.child.signal(SIGTERM)
        let run = process.finish(timeout: 20)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        #expect(!run.output.contains("Traceback"), "\(run.output)")
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    }

    /// Lines that are not motion, axes or frames.
    func milestones(_ lines: [Substring]) -> [Substring] {
        lines.filter {
            !["motion", "pressure", "distance", "tilt", "frame"].contains(
                $0.split(separator: " ").dropFirst().first ?? "")
        }
    }

    @Test func aTabletClientGetsProximityDownPressureUpInOrder() throws {
        let lines = try replayPen("--tablet", until: "tool proximity_out\ntool frame", times: 1)
        let tool = milestones(lines).filter {
            $0.hasPrefix("tool ") && !$0.hasPrefix("tool type") && !$0.hasPrefix("tool capability")
        }
        // The recording: the pen comes close, taps briefly, presses long and hard, lifts and leaves.
        #expect(
            tool == [
                "tool added", "tool proximity_in", "tool down", "tool up", "tool down", "tool up", "tool proximity_out",
            ],
            "\(tool)")
        #expect(!lines.contains { $0.hasPrefix("pointer button") }, "no emulated click for a tablet client")
        // The long press: pressure reported between down and up rises steadily to well over half.
        let presses = pressuresWhileDown(lines)
        let long = try #require(presses.max { $0.count < $1.count })
        let peak = try #require(long.max())
        #expect(peak > 32768, "\(long)")
        let rise = long.prefix { $0 < peak }
        #expect(rise.count >= 10 && zip(rise, rise.dropFirst()).allSatisfy { $0 <= $1 }, "\(long)")
        // Every group ends with a frame; motion is surface-local and inside the 1280x800 window.
        #expect(lines.last { $0.hasPrefix("tool ") } == "tool frame")
        for motion in lines where motion.hasPrefix("tool motion") {
            let xy = motion.split(separator: " ").dropFirst(2).compactMap { Double($0) }
            #expect(xy.count == 2 && (0..<1280).contains(xy[0]) && (0..<800).contains(xy[1]), "\(motion)")
        }
        #expect(lines.contains { $0.hasPrefix("tool tilt") } && lines.contains { $0.hasPrefix("tool distance") })
    }

    @Test func aClientWithoutATabletSeatStillGetsThePointer() throws {
        let lines = try replayPen("--pointer", until: "pointer button 272 0", times: 2)
        #expect(!lines.contains { $0.hasPrefix("tool ") })
        let pointer = milestones(lines).filter { $0.hasPrefix("pointer ") }
        // The pen emulates the pointer: enter, then the tap and the long press as BTN_LEFT.
        #expect(pointer.first?.hasPrefix("pointer enter") == true, "\(pointer)")
        #expect(
            Array(pointer.dropFirst())
                == ["pointer button 272 1", "pointer button 272 0", "pointer button 272 1", "pointer button 272 0"],
            "\(pointer)")
        #expect(lines.contains { $0.hasPrefix("pointer motion") })
    }

    /// The preview protocol's core-input rules hold for tablet tools: at preview_ended the tool
    /// goes up and out of proximity, no core event follows for that press, and once the
    /// interaction ends the tool enters again (proximity_in) without a down.
    @Test func theCommitPhaseTakesTheToolAwayAndGivesItBack() throws {
        let lines = milestones(
            try replayPen("--tablet", "--preview", until: "tool proximity_out\ntool frame", times: 2))
        let ended = try #require(lines.firstIndex(of: "preview preview_ended 1"), "\(lines)")
        // The commit progress of the same sample shares preview_ended's frame; then the tool leaves.
        let left = lines[ended + 1].hasPrefix("preview commit 1 ") ? ended + 2 : ended + 1
        #expect(lines[left] == "tool up" && lines[left + 1] == "tool proximity_out", "\(lines[ended...])")
        let after = lines[(left + 2)...].filter {
            $0.hasPrefix("tool ") || $0.hasPrefix("preview cancelled") || $0.hasPrefix("preview completed")
        }
        #expect(Array(after) == ["preview cancelled 1 1", "tool proximity_in", "tool proximity_out"], "\(after)")
        #expect(
            lines[..<ended].contains("preview should_begin 1 1 1"), "should_begin for a pen source with measured force")
    }

    /// The measuring client (scripts/perf-compare's scale runs) allocates many proxies; Python's
    /// collector must not take the ones whose events it handles (the tool, the interaction
    /// object), or its events are discarded and the run measures a client that hears nothing.
    @Test func aClientWithManySurfacesStillHearsItsToolAndItsPreview() throws {
        let lines = try replayPen(
            "--tablet", "--preview", "--subsurfaces", "300", "--objects", "300",
            until: "tool proximity_out\ntool frame", times: 2)
        #expect(lines.contains("tool down") && lines.contains("preview preview_ended 1"), "\(milestones(lines))")
    }

    private func pressuresWhileDown(_ lines: [Substring]) -> [[Int]] {
        var presses: [[Int]] = []
        var down = false
        for line in lines {
            if line == "tool down" { down = true; presses.append([]) }
            if line == "tool up" { down = false }
            if down, line.hasPrefix("tool pressure"), let value = Int(line.split(separator: " ")[2]) {
                presses[presses.count - 1].append(value)
            }
        }
        return presses
    }
}
