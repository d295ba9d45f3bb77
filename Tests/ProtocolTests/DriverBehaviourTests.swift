import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

/// Version 2's pressure behaviours through the shared driver: the client's list decides what
/// the engine does with a press.
@Suite struct DriverBehaviourTests {
    static let generic = Point(x: 50, y: 50)
    static let accelerator = Point(x: 150, y: 50)

    /// A version 2 client whose surface is generic on the left and a 3-stage accelerator on the right.
    func client(of host: DriverHost) throws -> (PreviewClient, OpaquePointer, ClientInteraction) {
        let client = try PreviewClient(display: host.display, version: 2)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        interaction.setBehaviour(
            SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_GENERIC.rawValue, region: client.region([(0, 0, 100, 100)]))
        interaction.setBehaviour(
            SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_ACCELERATOR.rawValue, stages: 3,
            region: client.region([(100, 0, 100, 100)]))
        wl_surface_commit(surface)
        client.roundtrip()
        return (client, surface, interaction)
    }

    /// Ramps the force up to 1 and down to 0.3 at `point`, accepting every should_begin, then lifts.
    func rampAndLift(_ host: DriverHost, _ client: PreviewClient, _ interaction: ClientInteraction, at point: Point) {
        var answered: Set<UInt32> = []
        let forces = (0...50).map { Double($0) / 50 } + (0...35).map { 1 - Double($0) / 50 }
        for (index, force) in forces.enumerated() {
            host.press(force, at: point, began: index == 0)
            client.roundtrip()
            for case .shouldBegin(let id, _, _) in interaction.events where !answered.contains(id) {
                answered.insert(id)
                interaction.accept(id)
            }
        }
        host.lift()
        client.roundtrip()
    }

    @Test func aFirmPressOnAGenericAreaAsksNothing() throws {
        let host = try DriverHost()
        let (client, _, interaction) = try client(of: host)
        rampAndLift(host, client, interaction, at: Self.generic)
        #expect(interaction.events.isEmpty, "\(interaction.events)")
        #expect(host.driver.engineContactCount == 0)
    }

    @Test func anAcceleratorAreaReportsStagesUpAndDownThenCompletes() throws {
        let host = try DriverHost()
        let (client, _, interaction) = try client(of: host)
        rampAndLift(host, client, interaction, at: Self.accelerator)
        let events = interaction.phaseEvents.filter { if case .location = $0 { false } else { true } }
        #expect(events.prefix(2) == [.shouldBegin(1, source: 1, force: 1), .behaviour(1, behaviour: 3, stages: 3)])
        let stages = events.compactMap { if case .stage(_, let level) = $0 { level } else { nil } }
        #expect(stages.first == 1 && stages.contains(3), "\(stages)")
        #expect(stages.last.map { $0 < 3 } == true, "the level falls with the force: \(stages)")
        #expect(zip(stages, stages.dropFirst()).allSatisfy { $0 != $1 }, "only changes are sent: \(stages)")
        #expect(events.last == .completed(1))
        #expect(
            !events.contains(.previewEnded(1)) && !events.contains { if case .preview = $0 { true } else { false } })
    }

    @Test func stagesAreCoalescedWhileTheClientOwesAnAck() throws {
        let host = try DriverHost()
        let (client, _, interaction) = try client(of: host)
        interaction.autoAck(false)
        var answered = false
        for (index, force) in (0...50).map({ Double($0) / 50 }).enumerated() {
            host.press(force, at: Self.accelerator, began: index == 0)
            client.roundtrip()
            if !answered, interaction.events.contains(.shouldBegin(1, source: 1, force: 1)) {
                answered = true
                interaction.accept(1)
            }
        }
        func stages() -> [UInt32] { interaction.events.compactMap { if case .stage(_, let l) = $0 { l } else { nil } } }
        #expect(answered && stages().isEmpty, "held while should_begin's frame is owed: \(interaction.events)")
        let serial = try #require(
            interaction.events.compactMap { if case .frame(_, let s, _) = $0 { s } else { nil } }.last)
        interaction.ack(serial)
        client.roundtrip()
        #expect(stages() == [3], "only the latest level: \(interaction.events)")
    }

    @Test func aDeepClickAreaToldItsBehaviourAndClearingRestoresIt() throws {
        let host = try DriverHost()
        let (client, surface, interaction) = try client(of: host)
        interaction.clearBehaviours()
        // Not yet committed: the generic area still holds.
        #expect(host.driver.behaviour(on: SurfaceID(1), at: Self.generic) == .generic)
        client.roundtrip()
        #expect(host.driver.behaviour(on: SurfaceID(1), at: Self.generic) == .generic)
        wl_surface_commit(surface)
        client.roundtrip()
        rampAndLift(host, client, interaction, at: Self.generic)
        let events = interaction.phaseEvents.filter { if case .location = $0 { false } else { true } }
        #expect(events.prefix(2) == [.shouldBegin(1, source: 1, force: 1), .behaviour(1, behaviour: 1, stages: 0)])
        #expect(events.last == .completed(1))
    }

    @Test func badBehavioursAreProtocolErrors() throws {
        let host = try DriverHost()
        for (behaviour, stages, code) in [
            (UInt32(9), UInt32(0), SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_BEHAVIOUR.rawValue),
            (
                SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_ACCELERATOR.rawValue, 6,
                SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_STAGES.rawValue
            ),
            (
                SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_GENERIC.rawValue, 2,
                SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_STAGES.rawValue
            ),
        ] {
            let client = try PreviewClient(display: host.display, version: 2)
            let interaction = client.interaction(for: client.surface())
            interaction.setBehaviour(behaviour, stages: stages, region: nil)
            #expect(!client.roundtrip())
            #expect(client.connection.protocolError?.code == code, "\(behaviour) with \(stages) stages")
        }
        let client = try PreviewClient(display: host.display, version: 2)
        let interaction = client.interaction(for: client.surface())
        for _ in 0...32 { interaction.setBehaviour(SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_GENERIC.rawValue, region: nil) }
        #expect(!client.roundtrip())
        #expect(client.connection.protocolError?.code == SPI_PREVIEW_INTERACTION_V1_ERROR_TOO_MANY_BEHAVIOURS.rawValue)
    }
}
