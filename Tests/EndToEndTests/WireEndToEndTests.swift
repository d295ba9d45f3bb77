import DemoReport
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ReplayTool
import Testing
import _FixtureTestSupport
import _PreviewProtocolTestSupport

/// Every bundled pen recording through the decoder, the engine, the protocol server and a real
/// libwayland connection to two clients side by side: each client gets exactly the phases the
/// engine produced for the contacts that began on its surface, and nothing else.
@Suite("Recording → engine → wire → clients")
struct WireEndToEndTests {
    /// Two clients, left and right half of the output; both accept every should_begin.
    final class TwoClients {
        let harness: ProtocolHarness
        let host: WireHost
        let left: PreviewClient
        let right: PreviewClient
        let leftInteraction: ClientInteraction
        let rightInteraction: ClientInteraction
        private var answered: Set<UInt32> = []

        init(split: Double = 960) throws {
            harness = try ProtocolHarness()
            left = try PreviewClient(harness)
            right = try PreviewClient(harness)
            leftInteraction = left.interaction(for: left.surface())
            rightInteraction = right.interaction(for: right.surface())
            host = WireHost(
                harness: harness,
                placements: [
                    .init(surface: SurfaceID(1), client: "left", x: 0, width: split),
                    .init(surface: SurfaceID(2), client: "right", x: split, width: WireHost.output.width - split),
                ])
            host.pump = { [unowned self] in self.pump() }
        }

        /// Both clients read, answer new should_begins with accept, and the server hears it.
        func pump() {
            for (client, interaction) in [(left, leftInteraction), (right, rightInteraction)] {
                client.roundtrip()
                var asked = false
                for case .shouldBegin(let id, _, _) in interaction.events
                where !answered.contains(id << 1 | (client === left ? 0 : 1)) {
                    answered.insert(id << 1 | (client === left ? 0 : 1))
                    interaction.accept(id)
                    asked = true
                }
                if asked { client.roundtrip() }
            }
        }

        func trace(of client: String) -> [TraceRecord] { host.trace.filter { $0.client == client } }
    }

    @Test("Each client receives exactly the engine's phases for its own surface", arguments: Fixtures.pens)
    func phasesReachTheRightClient(file: String) throws {
        let setup = try TwoClients()
        try setup.host.play(Fixtures.path(file))
        let trace = setup.host.trace
        #expect(!trace.isEmpty, "\(file) produced no interaction")
        #expect(trace.allSatisfy { $0.client != nil && $0.surface != nil }, "a phase event without a surface")
        for (name, interaction, width) in [
            ("left", setup.leftInteraction, 960.0), ("right", setup.rightInteraction, 960.0),
        ] {
            // Locations are surface-local: a press begins inside the client's own half (it may
            // then move past the edge: the interaction stays with its surface, like a grab).
            var asked: Set<UInt32> = []
            for event in interaction.events {
                if case .shouldBegin(let id, _, _) = event { asked.insert(id) }
                if case .location(let id, let x, let y) = event, asked.remove(id) != nil {
                    #expect(x >= 0 && x < width && y >= 0 && y < WireHost.output.height, "\(name) begins at \(x), \(y)")
                }
            }
            let sent = PhaseStep.steps(of: setup.trace(of: name))
            let received = PhaseStep.steps(of: interaction.events)
            #expect(
                PhaseStep.received(received, matches: sent),
                "\(file), \(name) client:\nreceived \(received.map(\.description))\nsent \(sent.map(\.description))")
            // With the client reading after every input frame, little is coalesced.
            let sentProgress = sent.filter(\.isProgress).count
            let receivedProgress = received.filter(\.isProgress).count
            #expect(Double(receivedProgress) >= 0.8 * Double(sentProgress))
            // Every interaction the client heard of ended, exactly once.
            let begun = received.filter { if case .shouldBegin = $0 { true } else { false } }.count
            let ended = received.filter {
                switch $0 {
                case .completed, .cancelled: true
                case .shouldBegin, .preview, .previewEnded, .commit: false
                }
            }.count
            #expect(begun == ended)
        }
        // The engine's outcomes are the replay's (the wire changed nothing about them).
        let replay = try InteractionStory.stories(of: replayRecords(file)).map(\.outcome)
        let traced = InteractionStory.stories(of: trace).map(\.outcome)
        #expect(traced == replay)
    }

    @Test("Two clients side by side: the Dell pen lands on the right one; the left one gets nothing")
    func contactOnTheSecondClient() throws {
        let setup = try TwoClients()
        try setup.host.play(Fixtures.path("dell-canvas-isdv4-pen.yml"))
        #expect(setup.leftInteraction.events.isEmpty, "\(setup.leftInteraction.events)")
        // A 47 ms stroke lifted at once (libinput's pressure thresholds), then the peek and pop.
        let received = PhaseStep.outline(PhaseStep.steps(of: setup.rightInteraction.events))
        let lifted = UInt32(CancelReason.lifted.rawValue)
        #expect(received == [.shouldBegin(1), .cancelled(1, lifted), .shouldBegin(2), .previewEnded(2), .completed(2)])
        #expect(setup.host.trace.allSatisfy { $0.client == "right" && $0.surface == SurfaceID(2) })
    }

    @Test("Moving the split past the contact moves the interaction to the other client")
    func contactOnTheFirstClient() throws {
        let setup = try TwoClients(split: 1500)  // the Dell contact is at x ≈ 1162
        try setup.host.play(Fixtures.path("dell-canvas-isdv4-pen.yml"))
        #expect(setup.rightInteraction.events.isEmpty, "\(setup.rightInteraction.events)")
        #expect(PhaseStep.steps(of: setup.leftInteraction.events).last == .completed(2))
    }
}

/// The replay's records for a fixture (decoder + engine, no wire).
func replayRecords(_ file: String) throws -> [TraceRecord] {
    try Replay.records(input: try RecordingInput(path: Fixtures.path(file)), options: ReplayOptions()).records
}
