import CWaylandClient
import PreviewEngine
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

/// The host core both hosts are shells over (preview-compositor's InteractionHost, the C
/// library's EmbeddedContext): its contact table and routing as pure values, then the driver
/// with a real client deciding the source and region filters, take-away and give-back, the
/// swallowed release, keyboard focus loss and the haptic moments.
@Suite struct HostCoreTests {
    static let pen = DriverHost.pen
    static let inside = Point(x: 30, y: 40)

    // MARK: the contact table (pure)

    @Test func aContactBelongsToTheSurfaceOnlyWhereItsClientTakesIt() {
        let hit = SurfaceHit(surface: SurfaceID(7), origin: Point(x: 100, y: 50))
        var asked: [Point] = []
        let taken = ContactTable.route(Self.pen, source: .pen, at: Point(x: 130, y: 90), over: hit, force: 0.2) {
            asked.append($1)
            return $0 == SurfaceID(7)
        }
        #expect(asked == [Point(x: 30, y: 40)], "the client is asked at the surface-local point")
        #expect(taken.surface == SurfaceID(7) && taken.location == Point(x: 30, y: 40))
        #expect(taken.position == Point(x: 130, y: 90) && taken.delivery == .pointer)

        let refused = ContactTable.route(Self.pen, source: .pen, at: Point(x: 130, y: 90), over: hit, force: 0.2) {
            _, _ in false
        }
        #expect(refused.surface == nil, "outside the client's region or sources")
        #expect(refused.location == Point(x: 30, y: 40), "still local to the surface under it")

        let nowhere = ContactTable.route(
            Self.pen, source: .touchscreen, at: Point(x: 5, y: 6), over: nil, force: nil
        ) { _, _ in true }
        #expect(nowhere.surface == nil && nowhere.location == Point(x: 5, y: 6))
        #expect(!nowhere.hasForce && nowhere.delivery == .touch)
    }

    @Test func positionsStayLocalToTheSurfaceTheContactBeganOver() throws {
        var table = ContactTable()
        let hit = SurfaceHit(surface: SurfaceID(1), origin: Point(x: 100, y: 100))
        try table.begin(
            ContactTable.route(Self.pen, source: .pen, at: Point(x: 110, y: 120), over: hit, force: 0.1) {
                _, _ in true
            })
        let moved = try table.move(Self.pen, to: Point(x: 400, y: 20), force: 0.5)
        #expect(moved.location == Point(x: 300, y: -80), "past the surface's edge, still its coordinates")
        #expect(moved.force == 0.5 && moved.surface == SurfaceID(1))
        let forceOnly = try table.move(Self.pen, to: nil, force: 0.6)
        #expect(forceOnly.location == Point(x: 300, y: -80) && forceOnly.force == 0.6)
        try table.deliver(Self.pen, as: .tabletTool)
        #expect(table.end(Self.pen)?.delivery == .tabletTool)
        #expect(table.end(Self.pen) == nil && table.count == 0)
    }

    @Test func withoutPressureTheForceStaysZero() throws {
        var table = ContactTable()
        let mouse = ContactKey(device: DeviceID(3))
        try table.begin(
            ContactTable.route(mouse, source: .pointer, at: Self.inside, over: nil, force: nil) { _, _ in true })
        #expect(try table.move(mouse, to: nil, force: 0.9).force == 0, "the engine simulates force (long press)")
    }

    @Test func theTableRefusesADuplicateOneTooManyAndAnUnknownContact() throws {
        var table = ContactTable(capacity: 2)
        func contact(_ number: Int32) -> RoutedContact {
            ContactTable.route(
                ContactKey(device: DeviceID(1), contact: number), source: .touchscreen, at: Self.inside, over: nil,
                force: 0.1
            ) { _, _ in true }
        }
        try table.begin(contact(0))
        #expect(throws: ContactError.exists) { try table.begin(contact(0)) }
        try table.begin(contact(1))
        #expect(throws: ContactError.limit) { try table.begin(contact(2)) }
        #expect(throws: ContactError.unknown) { try table.move(contact(2).key, to: nil, force: 1) }
        #expect(table.keys(of: DeviceID(1)).count == 2 && table.keys(of: DeviceID(2)).isEmpty)
    }

    // MARK: the driver with a real client

    /// A version 2 client on the mini compositor's first surface (region and sources as given).
    func client(
        of host: DriverHost, sources: UInt32 = 0x1f, region: [(Int32, Int32, Int32, Int32)]? = nil,
        focus: Point? = nil
    ) throws -> (PreviewClient, ClientInteraction) {
        let client = try PreviewClient(display: host.display, version: 2)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        interaction.setSources(sources)
        if let region { interaction.setRegion(client.region(region)) }
        if let focus {
            spi_preview_interaction_v1_set_focus_point(interaction.proxy, focus.x.wireFixed, focus.y.wireFixed)
        }
        wl_surface_commit(surface)
        client.roundtrip()
        return (client, interaction)
    }

    /// Presses up to `force` at `point` in 5 ms steps, accepting should_begin.
    func press(
        _ host: DriverHost, _ client: PreviewClient, _ interaction: ClientInteraction, to force: Double,
        at point: Point = inside
    ) {
        var answered: Set<UInt32> = []
        for step in 0...40 {
            host.press(force * Double(step) / 40, at: point, began: step == 0)
            client.roundtrip()
            for case .shouldBegin(let id, _, _) in interaction.events where !answered.contains(id) {
                answered.insert(id)
                interaction.accept(id)
            }
        }
    }

    /// What the host was told of core input (the haptic moments apart).
    func coreInput(_ host: DriverHost) -> [String] { host.told.filter { !$0.hasPrefix("haptic") } }

    func committed(_ interaction: ClientInteraction) -> Bool {
        interaction.events.contains { if case .previewEnded = $0 { true } else { false } }
    }

    @Test func aPressOutsideTheRegionOrTheSourcesAsksNothing() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host, region: [(0, 0, 20, 20)])
        press(host, client, interaction, to: 1)
        #expect(host.driver.contacts[Self.pen]?.surface == nil, "outside the region")
        host.lift()
        client.roundtrip()
        #expect(interaction.events.isEmpty, "\(interaction.events)")

        let touchOnly = try DriverHost()
        let (otherClient, other) = try self.client(
            of: touchOnly, sources: SPI_PREVIEW_INTERACTION_V1_SOURCES_TOUCHSCREEN.rawValue)
        press(touchOnly, otherClient, other, to: 1)
        #expect(touchOnly.driver.contacts[Self.pen]?.surface == nil, "a pen, where only touch is taken")
        touchOnly.lift()
        otherClient.roundtrip()
        #expect(other.events.isEmpty, "\(other.events)")
    }

    @Test func theCommitTakesTheContactAwayAndTheLiftSwallowsItsRelease() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host)
        press(host, client, interaction, to: 0.7)
        #expect(committed(interaction), "\(interaction.events)")
        #expect(coreInput(host) == ["take away pointer"])
        #expect(host.driver.isTakenAway(Self.pen))
        let end = try host.driver.contactEnded(Self.pen, at: host.driver.now(), reason: .lifted)
        #expect(end.swallow, "a pop is not also a click")
        #expect(coreInput(host) == ["take away pointer", "give back at its end"])
        #expect(host.driver.contacts.count == 0 && !host.driver.isTakenAway(Self.pen))
    }

    @Test func aPressThatNeverCommitsKeepsItsRelease() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host)
        press(host, client, interaction, to: 0.3)
        #expect(!committed(interaction))
        #expect(try host.driver.contactEnded(Self.pen, at: host.driver.now(), reason: .lifted).swallow == false)
        #expect(coreInput(host).isEmpty)
    }

    @Test func anInteractionCancelledWhileTheContactIsDownGivesItBackAndStillSwallowsItsRelease() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host)
        press(host, client, interaction, to: 0.7)
        host.driver.surfaceDestroyed(SurfaceID(1), at: host.driver.now())
        #expect(coreInput(host) == ["take away pointer", "give back"], "the pointer may enter again")
        #expect(!host.driver.isTakenAway(Self.pen))
        #expect(try host.driver.contactEnded(Self.pen, at: host.driver.now(), reason: .lifted).swallow)
        #expect(coreInput(host).count == 2, "given back once")
    }

    @Test func aRemovedDeviceLeavesTheTableAndItsContactsAreUnknown() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host)
        press(host, client, interaction, to: 0.7)
        host.driver.deviceRemoved(Self.pen.device, at: host.driver.now())
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_DEVICE_REMOVED.rawValue))
        #expect(coreInput(host) == ["take away pointer", "give back at its end"])
        #expect(host.driver.contacts.count == 0)
        #expect(throws: ContactError.unknown) {
            try host.driver.contactEnded(Self.pen, at: host.driver.now(), reason: .lifted)
        }
    }

    @Test func keyboardFocusLossCancelsWithSystemAndDropsTheWithheldKey() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host, focus: Point(x: 40, y: 30))
        #expect(host.key(pressed: true) == .withhold)
        var answered = false
        for _ in 0..<40 {
            host.clock.advance(milliseconds: 16)
            host.driver.runDueTimers()
            client.roundtrip()
            if !answered, interaction.events.contains(where: { if case .shouldBegin = $0 { true } else { false } }) {
                answered = true
                interaction.accept(1)
            }
        }
        #expect(host.driver.runningCount == 1, "\(interaction.events)")
        host.driver.keyboardFocusLost(at: host.driver.now())
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(1, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_SYSTEM.rawValue))
        #expect(host.driver.engineContactCount == 0)
        #expect(host.key(pressed: false) == .withhold, "its press was never delivered: nor is its release")
        #expect(coreInput(host).isEmpty, "the keyboard has no core input to take away")
        #expect(host.key(pressed: true) == .withhold, "the next press may begin again")
    }

    @Test func aRegisteredPadClicksAtTheDownTheCommitAndTheLift() throws {
        let host = try DriverHost()
        host.driver.hapticPadAdded(Self.pen.device)
        let (client, interaction) = try client(of: host)
        press(host, client, interaction, to: 0.7)
        host.lift()
        #expect(
            host.told == [
                "haptic press", "haptic deep-click", "take away pointer", "give back at its end", "haptic release",
            ])
    }

    @Test func anyOtherDeviceHearsOnlyTheCommitsDeepClick() throws {
        let host = try DriverHost()
        let (client, interaction) = try client(of: host)
        press(host, client, interaction, to: 0.7)
        host.lift()
        #expect(host.told == ["haptic deep-click", "take away pointer", "give back at its end"])
    }
}
