import CCompositorModule
import CWaylandClient
import CompositorModule
import Testing
import _PreviewProtocolTestSupport

/// What 1.3 changed for real compositors, with a real version 2 client: commits the library sees
/// itself, give-back held until the release, the events' 32-bit millisecond times, and keyboard
/// devices in the phase events.
@Suite struct EmbeddedHostFitTests {
    /// A version 2 client whose surface is a 3-stage accelerator on the right (x ≥ 100) and deep
    /// click elsewhere, committed by the client only (the host never calls surface_commit).
    static func setUp(_ recorder: HostRecorder) throws -> EmbeddedAcceleratorTests.Setup {
        let host = try EmbeddedHost(callbacks: recorder.callbacks(), userData: recorder.userData)
        recorder.compositor = host.compositor
        let client = try PreviewClient(display: host.display, version: 2)
        let surface = client.surface()
        let interaction = client.interaction(for: surface)
        interaction.setBehaviour(
            EmbeddedAcceleratorTests.accelerator, stages: 3, region: client.region([(100, 0, 100, 100)]))
        wl_surface_commit(surface)
        let resource = try #require(host.serverResource(of: surface, for: client))
        var pen: OpaquePointer?
        #expect(previewInteractionDeviceAdd(host.context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, &pen) == 0)
        return .init(host: host, client: client, interaction: interaction, surface: resource, pen: try #require(pen))
    }

    /// Presses the pen at (x, 50) with a force rising to 1 in 250 ms and held there 150 ms, 5 ms a
    /// sample on the host's clock (`time` turns the clock into the time passed), accepting every
    /// should_begin; the pen stays down.
    static func press(
        _ setup: EmbeddedAcceleratorTests.Setup, _ recorder: HostRecorder, x: Double,
        time: (UInt64) -> UInt64 = { $0 }
    ) {
        var answered: Set<UInt32> = []
        for index in 0...80 {
            recorder.now += 5_000
            let force = min(1, Double(index) / 50)
            let status =
                index == 0
                ? previewInteractionContactDown(setup.pen, 0, setup.surface, x, 50, force, time(recorder.now))
                : previewInteractionContactUpdate(setup.pen, 0, x, 50, force, time(recorder.now))
            #expect(status == 0)
            EmbeddedAcceleratorTests.settle(setup, answered: &answered)
        }
    }

    static func isTakenAway(_ setup: EmbeddedAcceleratorTests.Setup) -> Bool {
        var taken = false
        #expect(previewInteractionContactIsTakenAway(setup.pen, 0, &taken) == 0)
        return taken
    }

    @Test("A client's commit reaches the library without the host: its accelerator area applies")
    func commitsSeenByTheLibrary() throws {
        let recorder = HostRecorder()
        let setup = try Self.setUp(recorder)
        Self.press(setup, recorder, x: 150)
        recorder.now += 5_000
        #expect(previewInteractionContactUp(setup.pen, 0, recorder.now, nil) == 0)
        // Without the commit the area would not exist, and the press would be a deep click.
        #expect(recorder.stages.map(\.stage).contains(3), "\(recorder.stages) \(recorder.phases)")
        #expect(recorder.takenAway.isEmpty)
    }

    @Test("Take-away until release: a pop on force keeps its contact taken away until the lift gives it back")
    func giveBackHeldUntilTheRelease() throws {
        let recorder = HostRecorder()
        let setup = try Self.setUp(recorder)
        #expect(
            previewInteractionSetTakeAwayMode(setup.host.context, PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_RELEASE) == 0)
        Self.press(setup, recorder, x: 50)
        #expect(recorder.phases.last?.phase == PREVIEW_INTERACTION_PHASE_COMPLETED.rawValue, "\(recorder.phases)")
        #expect(recorder.takenAway == [0] && recorder.givenBack.isEmpty, "\(recorder.givenBack)")
        #expect(Self.isTakenAway(setup))
        recorder.now += 5_000
        var swallow = false
        #expect(previewInteractionContactUp(setup.pen, 0, recorder.now, &swallow) == 0)
        #expect(recorder.givenBack == [0] && swallow)
    }

    @Test("Take-away until end (the default): a pop on force gives its contact back with the pen still down")
    func giveBackAtTheEnd() throws {
        let recorder = HostRecorder()
        let setup = try Self.setUp(recorder)
        Self.press(setup, recorder, x: 50)
        #expect(recorder.phases.last?.phase == PREVIEW_INTERACTION_PHASE_COMPLETED.rawValue, "\(recorder.phases)")
        #expect(recorder.takenAway == [0] && recorder.givenBack == [0], "\(recorder.givenBack)")
        #expect(!Self.isTakenAway(setup))
        var swallow = false
        #expect(previewInteractionContactUp(setup.pen, 0, recorder.now + 5_000, &swallow) == 0)
        #expect(recorder.givenBack == [0] && swallow)
    }

    @Test("A device removed while its give-back is held gives it back, naming the device")
    func heldGiveBackAtRemoval() throws {
        let recorder = HostRecorder()
        let setup = try Self.setUp(recorder)
        #expect(
            previewInteractionSetTakeAwayMode(setup.host.context, PREVIEW_INTERACTION_TAKE_AWAY_UNTIL_RELEASE) == 0)
        Self.press(setup, recorder, x: 50)
        #expect(recorder.givenBack.isEmpty)
        #expect(previewInteractionDeviceRemove(setup.pen, recorder.now) == 0)
        #expect(recorder.givenBack == [0])
    }

    @Test("Millisecond times across the 32-bit wrap land on the library's clock; 0 is now")
    func millisecondTimesAcrossTheWrap() throws {
        let recorder = HostRecorder()
        // 100 ms before the milliseconds' 32 bits wrap: the press crosses it.
        recorder.now = ((1 << 32) - 100) * 1_000
        let setup = try Self.setUp(recorder)
        #expect(previewInteractionSetTimeUnit(setup.host.context, PREVIEW_INTERACTION_TIME_MSEC) == 0)
        Self.press(setup, recorder, x: 50) { UInt64(UInt32(truncatingIfNeeded: $0 / 1_000)) }
        #expect(recorder.phases.last?.phase == PREVIEW_INTERACTION_PHASE_COMPLETED.rawValue, "\(recorder.phases)")
        // Every phase is timed by an input: each time is one the host passed, on its clock.
        let start = ((1 << 32) - 100) * 1_000 as UInt64
        #expect(
            recorder.phaseTimes.allSatisfy { $0 > start && $0 <= recorder.now && ($0 - start) % 5_000 == 0 },
            "\(recorder.phaseTimes)")
        #expect(recorder.phaseTimes.last.map { $0 > (1 << 32) * 1_000 } == true, "past the wrap")
        recorder.now += 7_000
        #expect(previewInteractionContactCancel(setup.pen, 0, 0) == 0)
    }

    @Test("A key naming a keyboard device gives its phase events that device, whose user data is the host's")
    func keyboardDeviceInPhaseEvents() throws {
        let recorder = HostRecorder()
        // The long press runs on the real clock, the keys' times.
        var callbacks = recorder.callbacks()
        callbacks.now_usec = nil
        let host = try EmbeddedHost(callbacks: callbacks, userData: recorder.userData)
        #expect(previewInteractionSetLongPress(host.context, PREVIEW_INTERACTION_LONG_PRESS_FAST) == 0)
        let client = try PreviewClient(display: host.display, version: 2)
        let (interaction, surface) = try host.keyboardSurface(client)
        var keyboard: OpaquePointer?
        #expect(
            previewInteractionDeviceAdd(host.context, PREVIEW_INTERACTION_DEVICE_KEYBOARD, "keys", 0, 0, 0, &keyboard)
                == 0)
        #expect(previewInteractionDeviceSetUserData(keyboard, recorder.userData) == 0)
        let menu = EmbeddedKeyboardTests.menu
        #expect(host.key(menu, pressed: true, focus: surface, device: keyboard) == PREVIEW_INTERACTION_KEY_CONSUMED)
        let began = host.wait(for: interaction, client) { events in
            events.contains { if case .preview = $0 { true } else { false } }
        }
        #expect(began, "\(interaction.phaseEvents)")
        #expect(!recorder.phaseDevices.isEmpty && recorder.phaseDevices.allSatisfy { $0 == keyboard })
        var data: UnsafeMutableRawPointer?
        #expect(previewInteractionDeviceGetUserData(recorder.phaseDevices.first ?? nil, &data) == 0)
        #expect(data == recorder.userData)
        // Removing the keyboard ends its interaction (device removed), still naming it.
        #expect(previewInteractionDeviceRemove(keyboard, 0) == 0)
        #expect(recorder.phases.last?.reason == PREVIEW_INTERACTION_CANCEL_DEVICE_REMOVED.rawValue)
        #expect(recorder.phaseDevices.last == keyboard)
    }
}

extension EmbeddedHostFitTests {
    @Test("In milliseconds, a tapped preview key's withheld press comes back at the event's milliseconds")
    func tapPressTimeInMilliseconds() throws {
        let host = try EmbeddedHost()
        let client = try PreviewClient(display: host.display, version: 2)
        let (_, surface) = try host.keyboardSurface(client)
        #expect(previewInteractionSetTimeUnit(host.context, PREVIEW_INTERACTION_TIME_MSEC) == 0)
        let pressedAt = UInt32(truncatingIfNeeded: host.display.clock.microseconds() / 1_000)
        var key = preview_interaction_key()
        key.size = MemoryLayout<preview_interaction_key>.size
        key.keycode = EmbeddedKeyboardTests.menu
        key.focus = surface
        key.focus_width = 100
        key.focus_height = 100
        var verdict = PREVIEW_INTERACTION_KEY_DELIVER
        var pressTime: UInt64 = 0
        key.pressed = true
        key.time_usec = UInt64(pressedAt)
        #expect(previewInteractionKeyboardKey(host.context, &key, &verdict, &pressTime) == 0)
        #expect(verdict == PREVIEW_INTERACTION_KEY_CONSUMED)
        key.pressed = false
        key.time_usec = UInt64(pressedAt &+ 20)
        #expect(previewInteractionKeyboardKey(host.context, &key, &verdict, &pressTime) == 0)
        #expect(verdict == PREVIEW_INTERACTION_KEY_DELIVER_TAP && pressTime == UInt64(pressedAt), "\(pressTime)")
    }
}
