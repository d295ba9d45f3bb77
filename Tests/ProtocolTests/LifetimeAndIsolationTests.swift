import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

@Suite struct LifetimeAndIsolationTests {
    @Test func eventsGoOnlyToTheClientThatOwnsTheSurface() throws {
        let harness = try ProtocolHarness()
        let alice = try PreviewClient(harness)
        let hers = alice.interaction(for: alice.surface())  // surface 1
        let bob = try PreviewClient(harness)
        let his = bob.interaction(for: bob.surface())  // surface 2

        harness.server.perform(.askShouldBegin(.test(1, surface: 1, at: Point(x: 3, y: 4))))
        harness.server.perform(.phase(.previewProgress, .test(1, surface: 1, progress: 0.5)))
        alice.roundtrip()
        bob.roundtrip()
        #expect(hers.events.contains(.location(1, x: 3, y: 4)))
        #expect(his.events.isEmpty, "bob hears nothing about alice's surface")

        // Bob cannot answer or cancel alice's interaction: on his object it was never announced.
        his.accept(1)
        #expect(!bob.roundtrip())
        #expect(bob.connection.protocolError?.code == SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_INTERACTION.rawValue)
        #expect(!harness.inputs.contains { if case .answered = $0 { true } else { false } })
        #expect(alice.roundtrip())
    }

    @Test func aDestroyedSurfaceCancelsItsInteractionAndMakesTheObjectInert() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        harness.server.perform(.askShouldBegin(.test(5)))
        client.roundtrip()
        interaction.accept(1)
        harness.server.perform(.phase(.previewProgress, .test(5, progress: 0.2)))
        client.roundtrip()

        wl_surface_destroy(surface)
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_SURFACE_GONE.rawValue))
        guard case .surfaceDestroyed(SurfaceID(1), _) = harness.inputs.last else {
            Issue.record("the engine was not told: \(harness.inputs)")
            return
        }
        // Inert: no more events, not offered to new presses, and destroy still works.
        interaction.clear()
        harness.server.perform(.phase(.previewProgress, .test(5, progress: 0.9)))
        harness.server.perform(.askShouldBegin(.test(6)))
        #expect(!harness.server.allowsInteraction(on: SurfaceID(1), at: .zero, source: .touchscreen))
        client.roundtrip()
        #expect(interaction.events.isEmpty)
        interaction.destroy()
        #expect(client.roundtrip())
        #expect(harness.server.liveInteractionObjects == 0)
    }

    @Test func destroyingTheObjectMidInteractionCancelsItSilently() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        harness.server.perform(.askShouldBegin(.test(9)))
        client.roundtrip()
        interaction.accept(1)
        client.roundtrip()
        interaction.destroy()
        client.roundtrip()
        guard case .cancelled(InteractionID(9), _) = harness.inputs.last else {
            Issue.record("the engine was not told: \(harness.inputs)")
            return
        }
        #expect(harness.server.liveInteractionObjects == 0)
        // Events the engine still produces for it go nowhere, and a new object may be made.
        harness.server.perform(.phase(.cancelled(.clientCancelled), .test(9)))
        let again = client.interaction(for: surface)
        harness.server.perform(.askShouldBegin(.test(10)))
        client.roundtrip()
        #expect(again.events.first == .shouldBegin(1, source: 3, force: 1))
    }

    @Test func aDisconnectingClientLeavesNothingBehind() throws {
        let harness = try ProtocolHarness()
        var client: PreviewClient? = try PreviewClient(harness)
        let surfaces = (0..<3).map { _ in client!.surface() }
        for surface in surfaces { _ = client!.interaction(for: surface) }
        client!.roundtrip()
        harness.server.perform(.askShouldBegin(.test(1, surface: 1)))
        harness.server.perform(.askShouldBegin(.test(2, surface: 3)))
        client!.roundtrip()
        #expect(harness.server.liveInteractionObjects == 3)
        #expect(harness.server.liveManagers == 1)

        client = nil  // wl_display_disconnect: the server sees the socket close
        harness.display.dispatch()
        #expect(harness.server.liveInteractionObjects == 0)
        #expect(harness.server.liveManagers == 0)
        #expect(harness.compositor.liveSurfaces == 0)
        for id in [InteractionID(1), InteractionID(2)] {
            #expect(
                harness.inputs.contains {
                    if case .cancelled(id, _) = $0 { return true }
                    if case .surfaceDestroyed(SurfaceID(UInt64(id.rawValue == 1 ? 1 : 3)), _) = $0 { return true }
                    return false
                }, "the engine hears that \(id) is over: \(harness.inputs)")
        }
    }

    @Test func aRemovedDeviceCancelsWithItsReason() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let interaction = client.interaction(for: client.surface())
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        interaction.accept(1)
        harness.server.perform(.phase(.previewEnded, .test(1, progress: 1)))
        harness.server.perform(.phase(.cancelled(.deviceRemoved), .test(1)))
        client.roundtrip()
        #expect(
            interaction.phaseEvents.suffix(2) == [
                .previewEnded(1),
                .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_DEVICE_REMOVED.rawValue),
            ])
    }

    @Test func noObjectOnTheSurfaceMeansAnImmediateDecline() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        _ = client.surface()
        client.roundtrip()
        harness.server.perform(.askShouldBegin(.test(4)))
        #expect(harness.inputs.isEmpty, "never a synchronous call back into the host")
        harness.display.dispatch()
        guard case .answered(InteractionID(4), accept: false, _) = harness.inputs.first else {
            Issue.record("expected a decline on the client's behalf: \(harness.inputs)")
            return
        }
    }
}

@Suite struct RegionAndSourcesTests {
    @Test func theRegionAndSourcesApplyOnCommitOnly() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        let inside = Point(x: 10, y: 10)
        let outside = Point(x: 80, y: 10)
        let region = client.region([(0, 0, 50, 50)])
        interaction.setRegion(region)
        wl_region_destroy(region)  // copied: destroying it right away is fine
        client.roundtrip()
        #expect(harness.server.allowsInteraction(on: SurfaceID(1), at: outside, source: .pen), "pending until commit")

        wl_surface_commit(surface)
        client.roundtrip()
        #expect(harness.server.allowsInteraction(on: SurfaceID(1), at: inside, source: .pen))
        #expect(!harness.server.allowsInteraction(on: SurfaceID(1), at: outside, source: .pen))

        interaction.setSources(SPI_PREVIEW_INTERACTION_V1_SOURCES_TOUCHSCREEN.rawValue)
        wl_surface_commit(surface)
        client.roundtrip()
        #expect(!harness.server.allowsInteraction(on: SurfaceID(1), at: inside, source: .pen))
        #expect(harness.server.allowsInteraction(on: SurfaceID(1), at: inside, source: .touchscreen))

        // A press the region excludes is never announced; the engine gets a decline.
        harness.server.perform(.askShouldBegin(.test(1, at: outside)))
        client.roundtrip()
        #expect(interaction.events.isEmpty)
        #expect(
            harness.inputs.first == nil
                || { if case .answered(_, false, _) = harness.inputs[0] { true } else { false } }())

        interaction.setRegion(nil)
        interaction.setSources(0xF)
        wl_surface_commit(surface)
        client.roundtrip()
        #expect(harness.server.allowsInteraction(on: SurfaceID(1), at: outside, source: .pen))
        #expect(!harness.server.allowsInteraction(on: SurfaceID(2), at: outside, source: .pen), "no such surface")
    }

    @Test func subtractedRectanglesAreHoles() {
        let region = PreviewRegion(operations: [
            .add(.init(x: 0, y: 0, width: 100, height: 100)), .subtract(.init(x: 40, y: 40, width: 20, height: 20)),
        ])
        #expect(region.contains(Point(x: 10, y: 10)))
        #expect(!region.contains(Point(x: 50, y: 50)))
        #expect(!region.contains(Point(x: 100, y: 10)), "right edge excluded")
        #expect(PreviewRegion.infinite.contains(Point(x: -1e6, y: 1e6)))
        #expect(!PreviewRegion(operations: []).contains(.zero))
    }
}
