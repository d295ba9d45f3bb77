import Foundation
import InputEvents
import PreviewEngine
import Synchronization
import Testing

@testable import PreviewCompositor

/// The user's completion setting and the client's pressure behaviours through the compositor:
/// real pen recordings replayed to a version 2 client (Tests/python/v2_client.py) that declares
/// its behaviour with set_behaviour, the engine's view in the trace beside what the client
/// received.
@Suite struct BehaviourCompositorTests {
    struct Run {
        var client: [String]
        var trace: [[String: Any]]
        /// When each replayed contact ended (the compositor's clock, µs).
        var lifts: [Int64]

        func traced(_ phase: String) -> [[String: Any]] { trace.filter { $0["phase"] as? String == phase } }
    }

    /// Replays `recording` to the client started with `arguments`; with `untilReplayEnds` the
    /// compositor is stopped once the replay has played everything and no contact is down (the
    /// client then leaves when it is disconnected), otherwise the client leaves on its own.
    static func run(
        _ recording: String, client arguments: [String], untilReplayEnds: Bool = false,
        _ tweak: (inout CompositorConfiguration) -> Void = { _ in }
    ) throws -> Run {
        let trace = TestRuntime.temporaryDirectory("behaviour") + "/trace.jsonl"
        let compositor = try startCompositor {
            $0.input = .replay([ReplayRunTests.recordings + "/" + recording], fast: true)
            $0.tracePath = trace
            // A debug-build client on a loaded machine must not turn an answer into a timeout.
            $0.engine.shouldBeginTimeout = .milliseconds(10_000)
            tweak(&$0)
        }
        defer { compositor.stop() }
        let lifts = Mutex<[Int64]>([])
        compositor.sync { compositor in
            compositor.hooks.onInputEvent = { event in
                if case .contactEnded(_, let time, _) = event { lifts.withLock { $0.append(time.microseconds) } }
            }
        }
        let client = try startClient(
            ["/usr/bin/python3", KeyboardPreviewTests.client] + arguments, socket: compositor.socketName)
        defer { _ = client.terminate() }
        if untilReplayEnds {
            let ended = compositor.wait(timeout: 120) {
                $0.replayFinishedAll == true && $0.interaction.contactsDown == 0
            }
            #expect(ended, "the replay ended: \(client.output)")
            compositor.stop()
        }
        let result = client.finish(timeout: 120)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        compositor.stop()  // the trace is complete once the compositor has stopped
        let records = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return Run(
            client: result.output.split(separator: "\n").map(String.init), trace: records,
            lifts: lifts.withLock { $0 })
    }

    /// The Dell Canvas pen's second stroke reaches full force about a second before it lifts:
    /// on release, the pop is the lift.
    @Test func completeOnReleasePopsAtTheLift() throws {
        let run = try Self.run("dell-canvas-isdv4-pen.yml", client: ["--interactions", "2"]) {
            $0.engine.completion = .onRelease
        }
        #expect(run.client.contains("settings completion 2"), "the client was told: \(run.client)")
        #expect(run.client.contains("preview_ended 2") && run.client.last == "v2_client: completed", "\(run.client)")
        let completed = run.traced("completed")
        try #require(completed.count == 1, "\(run.trace)")
        let pop = try #require(completed[0]["time_us"] as? Int64)
        #expect(run.lifts.count == 2 && pop == run.lifts.last, "the pop at \(pop), lifts at \(run.lifts)")
        // The commit phase began long before: completion waited for the lift, not the force.
        let commit = try #require(run.traced("preview-ended").first?["time_us"] as? Int64)
        #expect(pop - commit > 500_000, "commit at \(commit), pop at \(pop)")
    }

    /// A canvas: the same firm strokes on a `generic` surface begin nothing.
    @Test func aGenericSurfaceGetsNoInteractionFromAFirmPress() throws {
        let run = try Self.run(
            "dell-canvas-isdv4-pen.yml", client: ["--behaviour", "generic", "--until-disconnected"],
            untilReplayEnds: true)
        #expect(run.client.contains("mapped 1280 800"), "the strokes land on the client: \(run.client)")
        #expect(run.lifts.count == 2, "both strokes were replayed: \(run.lifts)")
        #expect(!run.client.contains { $0.hasPrefix("should_begin") }, "\(run.client)")
        #expect(run.trace.isEmpty, "the engine tracked nothing: \(run.trace)")
    }

    /// The UC-Logic pen's force rises into stage 2, wavers at its lower edge (the raw force
    /// crosses it four times) and falls back: one change up, one down.
    @Test func acceleratorStagesRiseAndFallWithoutChatter() throws {
        let run = try Self.run("uclogic-wp5540u-pen.yml", client: ["--behaviour", "accelerator:3"])
        #expect(run.client.contains("behaviour 1 3 3"), "accelerator, 3 stages: \(run.client)")
        let stages = run.client.filter { $0.hasPrefix("stage ") }
        #expect(stages == ["stage 1 1", "stage 1 2", "stage 1 1"], "\(run.client)")
        #expect(run.traced("stage").count == 3, "the engine's own changes, none coalesced away: \(run.trace)")
        #expect(!run.client.contains { $0.hasPrefix("preview_ended") }, "no deep click: \(run.client)")
        #expect(run.client.last == "v2_client: completed", "\(run.client)")
    }
}
