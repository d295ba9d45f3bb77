import EvdevDecoder
import InputEvents
import PreviewEngine
import Testing
import _FixtureTestSupport

/// A decoder fed by hand: `frame(t, [(type, code, value)...])` appends the SYN_REPORT.
struct Feeder {
    var decoder: EvdevDecoder

    init(_ description: DeviceDescription) {
        decoder = EvdevDecoder(description: description, device: DeviceID(7))
    }

    mutating func frame(_ ms: Int64, _ events: [(UInt16, UInt16, Int32)]) -> [DeviceEvent] {
        var output: [DeviceEvent] = []
        for (type, code, value) in events + [(EventType.syn, SynCode.report, 0)] {
            decoder.process(
                InputEvent(type: type, code: code, value: value), at: Timestamp(milliseconds: ms), into: &output)
        }
        return output
    }
}

private let key = EventType.key
private let abs = EventType.abs
private let syn = EventType.syn

func contacts(_ events: [DeviceEvent]) -> [String] {
    events.compactMap { event in
        switch event {
        case .contactBegan(let c): "began \(c.key.contact) \(c.force)"
        case .contactChanged(let c): "changed \(c.key.contact) \(c.force)"
        case .contactEnded(let k, _, let reason): "ended \(k.contact) \(reason)"
        default: nil
        }
    }
}

private enum Devices {
    static let pen = DeviceDescription(
        name: "pen",
        codes: [key: [KeyCode.btnToolPen, KeyCode.btnTouch, KeyCode.btnStylus], abs: [0, 1, 24, 25, 26, 27]],
        absinfo: [
            0: AbsInfo(minimum: 0, maximum: 1000), 1: AbsInfo(minimum: 0, maximum: 500),
            24: AbsInfo(minimum: 0, maximum: 2047), 25: AbsInfo(minimum: 0, maximum: 63),
            26: AbsInfo(minimum: -64, maximum: 63, resolution: 57),
            27: AbsInfo(minimum: -64, maximum: 63, resolution: 57),
        ], properties: [InputProperty.direct])

    static let penWithoutPressure = DeviceDescription(
        name: "pen without pressure", codes: [key: [KeyCode.btnToolPen, KeyCode.btnTouch], abs: [0, 1]],
        absinfo: [0: AbsInfo(minimum: 0, maximum: 1000), 1: AbsInfo(minimum: 0, maximum: 500)],
        properties: [InputProperty.direct])

    static let mtScreen = DeviceDescription(
        name: "screen", codes: [key: [KeyCode.btnTouch], abs: [0, 1, 0x2f, 0x35, 0x36, 0x39, 0x3a]],
        absinfo: [
            0: AbsInfo(minimum: 0, maximum: 1000), 1: AbsInfo(minimum: 0, maximum: 1000),
            0x2f: AbsInfo(minimum: 0, maximum: 9), 0x35: AbsInfo(minimum: 0, maximum: 1000),
            0x36: AbsInfo(minimum: 0, maximum: 1000), 0x39: AbsInfo(minimum: 0, maximum: 65535),
            0x3a: AbsInfo(minimum: 0, maximum: 200),
        ], properties: [InputProperty.direct])

    static let protocolAScreen = DeviceDescription(
        name: "screen-a", codes: [key: [KeyCode.btnTouch], abs: [0, 1, 0x35, 0x36]],
        absinfo: [
            0: AbsInfo(minimum: 0, maximum: 1000), 1: AbsInfo(minimum: 0, maximum: 1000),
            0x35: AbsInfo(minimum: 0, maximum: 1000), 0x36: AbsInfo(minimum: 0, maximum: 1000),
        ], properties: [InputProperty.direct])

    /// A protocol A clickpad (an Apple bcm5974's shape): its finger reported with SYN_MT_REPORT,
    /// touching or not.
    static let protocolAPad = DeviceDescription(
        name: "pad-a",
        codes: [key: [KeyCode.btnLeft, KeyCode.btnTouch, KeyCode.btnToolFinger], abs: [0, 1, 0x35, 0x36]],
        absinfo: [
            0: AbsInfo(minimum: 0, maximum: 1000, resolution: 10), 1: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
            0x35: AbsInfo(minimum: 0, maximum: 1000), 0x36: AbsInfo(minimum: 0, maximum: 500),
        ], properties: [InputProperty.pointer, InputProperty.buttonpad])

    static let semiMTPad = DeviceDescription(
        name: "semi",
        codes: [
            key: [KeyCode.btnLeft, KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap],
            abs: [0, 1, 24, 0x2f, 0x35, 0x36, 0x39],
        ],
        absinfo: [
            0: AbsInfo(minimum: 0, maximum: 1000, resolution: 10), 1: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
            24: AbsInfo(minimum: 0, maximum: 255), 0x2f: AbsInfo(minimum: 0, maximum: 1),
            0x35: AbsInfo(minimum: 0, maximum: 1000), 0x36: AbsInfo(minimum: 0, maximum: 500),
            0x39: AbsInfo(minimum: 0, maximum: 65535),
        ], properties: [InputProperty.pointer, InputProperty.buttonpad, InputProperty.semiMT])
}

@Suite("Evdev decoder")
struct DecoderTests {
    @Test("Pen: proximity, hover, tip with normalised pressure, tilt in degrees, lift, proximity out")
    func pen() {
        var pen = Feeder(Devices.pen)
        #expect(pen.decoder.kind == .pen && pen.decoder.hasForce)
        let enter = pen.frame(0, [(key, KeyCode.btnToolPen, 1), (abs, 0, 500), (abs, 1, 250), (abs, 25, 63)])
        guard case .toolProximity(let state, inProximity: true) = enter.first else {
            Issue.record("no proximity in: \(enter)")
            return
        }
        #expect(state.position == NormalisedPoint(x: 0.5, y: 0.5))
        #expect(state.axes.distance == 1)
        let hover = pen.frame(5, [(abs, 0, 600), (abs, 26, 57)])
        guard case .toolMotion(let moved) = hover.first else {
            Issue.record("no hover: \(hover)")
            return
        }
        #expect(Swift.abs(moved.axes.tiltX! - (57.5 / 57 * 180 / .pi)) < 1e-9)
        let down = pen.frame(10, [(key, KeyCode.btnTouch, 1), (abs, 24, 2047), (abs, 25, 0)])
        #expect(contacts(down) == ["began 0 1.0"])
        if case .contactBegan(let contact) = down.first {
            #expect(contact.positioning == .absolute && contact.source == .pen && contact.pen?.tool == .pen)
            #expect(contact.sample(at: Point(x: 3, y: 4)).location == Point(x: 3, y: 4))
            #expect(contact.sample(at: .zero).force == 1.0 && !contact.sample(at: .zero).simulated)
        }
        #expect(contacts(pen.frame(20, [(abs, 24, 1024)])).count == 1)
        let button = pen.frame(25, [(key, KeyCode.btnStylus, 1)])
        #expect(
            button.contains(
                .button(
                    KeyState(
                        device: DeviceID(7), time: Timestamp(milliseconds: 25), code: KeyCode.btnStylus, pressed: true))
            ))
        #expect(
            contacts(pen.frame(30, [(key, KeyCode.btnTouch, 0), (abs, 24, 0)])) == ["changed 0 0.0", "ended 0 lifted"])
        let out = pen.frame(40, [(key, KeyCode.btnToolPen, 0)])
        guard case .toolProximity(_, inProximity: false) = out.first else {
            Issue.record("no proximity out: \(out)")
            return
        }
        #expect(out.last == .frame(Timestamp(milliseconds: 40)))
    }

    @Test("Pen leaving proximity with the tip down ends the contact first")
    func penLeavesWhileDown() {
        var pen = Feeder(Devices.pen)
        _ = pen.frame(0, [(key, KeyCode.btnToolPen, 1), (key, KeyCode.btnTouch, 1), (abs, 24, 500)])
        #expect(contacts(pen.frame(10, [(key, KeyCode.btnToolPen, 0)])) == ["ended 0 lifted"])
    }

    @Test("MT protocol B: slots, tracking ids, per-slot pressure")
    func protocolB() {
        var screen = Feeder(Devices.mtScreen)
        #expect(screen.decoder.kind == .touchscreen)
        let first = screen.frame(
            0, [(abs, 0x2f, 0), (abs, 0x39, 10), (abs, 0x35, 100), (abs, 0x36, 200), (abs, 0x3a, 50)])
        #expect(contacts(first) == ["began 0 0.25"])
        let second = screen.frame(10, [(abs, 0x2f, 3), (abs, 0x39, 11), (abs, 0x35, 900), (abs, 0x3a, 200)])
        #expect(contacts(second) == ["began 3 1.0"])
        let both = screen.frame(20, [(abs, 0x2f, 0), (abs, 0x3a, 100), (abs, 0x2f, 3), (abs, 0x35, 901)])
        #expect(contacts(both) == ["changed 0 0.5", "changed 3 1.0"])
        // A new tracking id in an active slot replaces the touch.
        #expect(contacts(screen.frame(30, [(abs, 0x39, 12)])) == ["ended 3 lifted", "began 3 1.0"])
        #expect(
            contacts(screen.frame(40, [(abs, 0x2f, 0), (abs, 0x39, -1), (abs, 0x2f, 3), (abs, 0x39, -1)])) == [
                "ended 0 lifted", "ended 3 lifted",
            ])
        // Out-of-range slots are ignored, not trusted.
        #expect(
            contacts(screen.frame(50, [(abs, 0x2f, 99), (abs, 0x39, 13), (abs, 0x2f, -5), (abs, 0x35, 3)])).isEmpty)
    }

    @Test("MT protocol A: SYN_MT_REPORT contacts matched by distance, no pressure axis means no force")
    func protocolA() {
        var screen = Feeder(Devices.protocolAScreen)
        #expect(!screen.decoder.hasForce)
        let a = (syn, SynCode.mtReport, Int32(0))
        let down = screen.frame(0, [(abs, 0x35, 100), (abs, 0x36, 100), a, (abs, 0x35, 800), (abs, 0x36, 800), a])
        #expect(contacts(down) == ["began 0 0.0", "began 1 0.0"])
        if case .contactBegan(let contact) = down.first { #expect(!contact.hasForce) }
        // Reported in the other order: still the same two contacts, both moved.
        let swapped = screen.frame(10, [(abs, 0x35, 810), (abs, 0x36, 800), a, (abs, 0x35, 110), (abs, 0x36, 100), a])
        #expect(contacts(swapped) == ["changed 0 0.0", "changed 1 0.0"])
        let positions = swapped.compactMap { if case .contactChanged(let c) = $0 { c.position.x } else { nil } }
        #expect(positions == [0.11, 0.81])
        // One lifts: only the far one is left.
        #expect(
            contacts(screen.frame(20, [(abs, 0x35, 812), (abs, 0x36, 800), a])) == ["changed 1 0.0", "ended 0 lifted"])
        // An empty frame (just SYN_MT_REPORT) lifts everything.
        #expect(contacts(screen.frame(30, [a])) == ["ended 1 lifted"])
    }

    @Test("Semi-mt touchpad: the bounding-box slots are not fingers; a click is a contact with the pad pressure")
    func semiMT() {
        var pad = Feeder(Devices.semiMTPad)
        #expect(pad.decoder.kind == .touchpad && pad.decoder.hasForce)
        let touch = pad.frame(
            0,
            [
                (abs, 0x2f, 0), (abs, 0x39, 1), (abs, 0x35, 100), (abs, 0x2f, 1), (abs, 0x39, 2), (abs, 0x35, 900),
                (key, KeyCode.btnTouch, 1), (key, KeyCode.btnToolDoubleTap, 1), (abs, 0, 100), (abs, 1, 100),
                (abs, 24, 51),
            ])
        #expect(contacts(touch).isEmpty, "touches on a touchpad move the cursor, they are not contacts")
        #expect(pad.decoder.fingerCount == 2)
        #expect(pad.decoder.touchPoints.filter(\.down).count == 1, "semi-mt: one tracked touch")
        let click = pad.frame(10, [(key, KeyCode.btnLeft, 1), (abs, 24, 102)])
        #expect(contacts(click) == ["began 0 0.4"])
        if case .contactBegan(let contact)? = click.first(where: { if case .contactBegan = $0 { true } else { false } })
        {
            #expect(contact.positioning == .cursor && contact.source == .touchpad)
        }
        #expect(contacts(pad.frame(20, [(abs, 24, 255)])) == ["changed 0 1.0"])
        #expect(contacts(pad.frame(30, [(key, KeyCode.btnLeft, 0)])) == ["ended 0 lifted"])
    }

    @Test("Touchpad motion: one finger moves the cursor in 1000-DPI units; two fingers don't")
    func touchpadMotion() {
        var pad = Feeder(Devices.semiMTPad)
        _ = pad.frame(0, [(key, KeyCode.btnTouch, 1), (key, KeyCode.btnToolFinger, 1), (abs, 0, 100), (abs, 1, 100)])
        let moved = pad.frame(10, [(abs, 0, 110)])  // 10 units at 10 units/mm = 1 mm
        guard case .pointerMotion(let motion) = moved.first else {
            Issue.record("no motion: \(moved)")
            return
        }
        #expect(Swift.abs(motion.dx - 1000 / 25.4) < 1e-9 && motion.dy == 0)
        _ = pad.frame(20, [(key, KeyCode.btnToolFinger, 0), (key, KeyCode.btnToolDoubleTap, 1)])
        #expect(!pad.frame(30, [(abs, 0, 200)]).contains { if case .pointerMotion = $0 { true } else { false } })
    }

    @Test("Touchpad motion: a finger that lifts and lands elsewhere does not move the cursor")
    func touchpadFingerLandsElsewhere() {
        var pad = Feeder(Devices.protocolAPad)
        let a = (syn, SynCode.mtReport, Int32(0))
        func finger(_ x: Int32, _ y: Int32) -> [(UInt16, UInt16, Int32)] {
            [(abs, 0x35, x), (abs, 0x36, y), a, (abs, 0, x), (abs, 1, y)]
        }
        _ = pad.frame(0, finger(100, 100) + [(key, KeyCode.btnTouch, 1), (key, KeyCode.btnToolFinger, 1)])
        // Lifted, then reported before it touches again elsewhere, as the pad reports a finger.
        _ = pad.frame(10, finger(100, 100) + [(key, KeyCode.btnTouch, 0), (key, KeyCode.btnToolFinger, 0)])
        #expect(pad.decoder.touchPoints.contains { $0.down })
        let landing = pad.frame(20, finger(500, 400))
        let touching = pad.frame(30, finger(500, 400) + [(key, KeyCode.btnTouch, 1), (key, KeyCode.btnToolFinger, 1)])
        let moved = pad.frame(40, finger(510, 400))
        let motions = (landing + touching + moved).compactMap { if case .pointerMotion(let m) = $0 { m } else { nil } }
        #expect(motions.count == 1 && Swift.abs((motions.first?.dx ?? 0) - 1000 / 25.4) < 1e-9, "\(motions)")
    }

    @Test("SYN_DROPPED: the partial frame is dropped, contacts end desynchronised and stay silent until lifted")
    func synDroppedPen() {
        var pen = Feeder(Devices.pen)
        _ = pen.frame(0, [(key, KeyCode.btnToolPen, 1), (key, KeyCode.btnTouch, 1), (abs, 24, 300)])
        var output: [DeviceEvent] = []
        for (type, code, value) in [
            (abs, UInt16(24), Int32(500)), (syn, SynCode.dropped, 0), (abs, 24, 600), (syn, SynCode.report, 0),
        ] {
            pen.decoder.process(
                InputEvent(type: type, code: code, value: value), at: Timestamp(milliseconds: 10), into: &output)
        }
        #expect(contacts(output) == ["ended 0 desynchronised"])
        #expect(contacts(pen.frame(20, [(abs, 24, 700)])).isEmpty, "the contact can't be trusted any more")
        #expect(contacts(pen.frame(30, [(key, KeyCode.btnTouch, 0), (abs, 24, 0)])).isEmpty, "already ended")
        // libinput's force starts at its lower threshold, 1 % of the range (20 of 2047).
        #expect(contacts(pen.frame(40, [(key, KeyCode.btnTouch, 1), (abs, 24, 200)])) == ["began 0 \(180.0 / 2027)"])
    }

    @Test("Pen tip as libinput decides it: down at 5 % of the pressure range, up at 1 %, whatever BTN_TOUCH says")
    func penTipFollowsPressure() {
        var pen = Feeder(Devices.pen)  // pressure 0...2047: lower threshold 20, upper 102
        _ = pen.frame(0, [(key, KeyCode.btnToolPen, 1)])
        #expect(
            contacts(pen.frame(5, [(key, KeyCode.btnTouch, 1), (abs, 24, 101)])).isEmpty, "below the upper threshold")
        #expect(contacts(pen.frame(10, [(abs, 24, 102)])) == ["began 0 \(82.0 / 2027)"])
        #expect(contacts(pen.frame(15, [(abs, 24, 21)])) == ["changed 0 \(1.0 / 2027)"], "still above the lower one")
        // BTN_TOUCH stays down, yet a pressure at the lower threshold lifts the tip: a new stroke
        // when it rises past the upper one again (the Dell Canvas recording at 6.64 s).
        #expect(contacts(pen.frame(20, [(abs, 24, 20)])) == ["changed 0 0.0", "ended 0 lifted"])
        #expect(contacts(pen.frame(25, [(abs, 24, 224)])) == ["began 0 \(204.0 / 2027)"])
        #expect(contacts(pen.frame(30, [(key, KeyCode.btnTouch, 0)])).isEmpty, "BTN_TOUCH is not the tip")
    }

    @Test("Pen with a worn tip: pressure while hovering far away becomes libinput's offset")
    func penPressureOffset() {
        var pen = Feeder(Devices.pen)  // distance 0...63: far is at least 31.5
        // Proximity in at distance 40 with pressure 80 (under 20 % of 2047): the offset.
        _ = pen.frame(0, [(key, KeyCode.btnToolPen, 1), (abs, 25, 40), (abs, 24, 80)])
        #expect(contacts(pen.frame(5, [(abs, 24, 150)])).isEmpty, "upper threshold is 80 + 82 = 162")
        #expect(contacts(pen.frame(10, [(abs, 25, 0), (abs, 24, 162)])) == ["began 0 \(82.0 / 1967)"])
        #expect(contacts(pen.frame(15, [(abs, 24, 80)])) == ["changed 0 0.0", "ended 0 lifted"])
        // Lower than the offset: the offset follows it down (to 60, upper 142).
        _ = pen.frame(20, [(abs, 24, 60)])
        #expect(contacts(pen.frame(25, [(abs, 24, 142)])) == ["began 0 \(82.0 / 1987)"])
        // Down to 0: the offset follows (lower 0, upper 82), and it is the tool's: it survives
        // leaving proximity; the eraser has its own thresholds (lower 20, upper 102).
        _ = pen.frame(30, [(abs, 24, 0)])
        _ = pen.frame(35, [(key, KeyCode.btnToolPen, 0)])
        _ = pen.frame(40, [(key, KeyCode.btnToolPen, 1), (abs, 25, 10)])
        #expect(contacts(pen.frame(45, [(abs, 24, 90)])) == ["began 0 \(90.0 / 2047)"])
        _ = pen.frame(50, [(key, KeyCode.btnToolPen, 0), (abs, 24, 0)])
        _ = pen.frame(55, [(key, KeyCode.btnToolRubber, 1)])
        #expect(contacts(pen.frame(60, [(abs, 24, 90)])).isEmpty, "below the eraser's upper threshold")
        #expect(contacts(pen.frame(65, [(abs, 24, 120)])) == ["began 0 \(100.0 / 2027)"])
    }

    @Test("Pressure offsets libinput refuses: a pen entering close to the surface, or with more than 20 %")
    func penPressureOffsetRefused() {
        var near = Feeder(Devices.pen)  // distance 31 of 0...63: closer than half way (31.5)
        #expect(contacts(near.frame(0, [(key, KeyCode.btnToolPen, 1), (abs, 25, 31), (abs, 24, 80)])).isEmpty)
        #expect(contacts(near.frame(5, [(abs, 24, 102)])) == ["began 0 \(82.0 / 2027)"], "no offset: upper 102")
        var hard = Feeder(Devices.pen)  // 20 % of 2047 is 409.4: 410 is a press, not a worn tip
        #expect(
            contacts(hard.frame(0, [(key, KeyCode.btnToolPen, 1), (abs, 25, 63), (abs, 24, 410)]))
                == ["began 0 \(390.0 / 2027)"])
        var worn = Feeder(Devices.pen)  // 409 is at most 20 %: the offset, so no tip until 491
        #expect(contacts(worn.frame(0, [(key, KeyCode.btnToolPen, 1), (abs, 25, 63), (abs, 24, 409)])).isEmpty)
        #expect(contacts(worn.frame(5, [(abs, 25, 0), (abs, 24, 490)])).isEmpty)
        #expect(contacts(worn.frame(10, [(abs, 24, 491)])) == ["began 0 \(82.0 / 1638)"])
    }

    @Test("A pen without a pressure axis: BTN_TOUCH is the tip")
    func penWithoutPressure() {
        var pen = Feeder(Devices.penWithoutPressure)
        #expect(pen.decoder.kind == .pen && !pen.decoder.hasForce)
        _ = pen.frame(0, [(key, KeyCode.btnToolPen, 1), (abs, 0, 100)])
        #expect(contacts(pen.frame(5, [(key, KeyCode.btnTouch, 1)])) == ["began 0 0.0"])
        #expect(contacts(pen.frame(10, [(abs, 0, 200)])) == ["changed 0 0.0"])
        #expect(contacts(pen.frame(15, [(key, KeyCode.btnTouch, 0)])) == ["ended 0 lifted"])
    }

    @Test("SYN_DROPPED on a touchscreen: a fresh tracking id after the drop is a new contact")
    func synDroppedTouch() {
        var screen = Feeder(Devices.mtScreen)
        _ = screen.frame(0, [(abs, 0x2f, 0), (abs, 0x39, 10), (abs, 0x3a, 50)])
        var output: [DeviceEvent] = []
        for (type, code, value) in [(syn, SynCode.dropped, Int32(0)), (abs, 0x3a, 60), (syn, SynCode.report, 0)] {
            screen.decoder.process(
                InputEvent(type: type, code: code, value: value), at: Timestamp(milliseconds: 10), into: &output)
        }
        #expect(contacts(output) == ["ended 0 desynchronised"])
        #expect(contacts(screen.frame(20, [(abs, 0x3a, 70)])).isEmpty)
        // The lift was lost in the drop; the next touch arrives with a new id.
        #expect(contacts(screen.frame(30, [(abs, 0x39, 11), (abs, 0x3a, 100)])) == ["began 0 0.5"])
    }

    @Test("Mouse: relative motion, the primary button is a contact without force")
    func mouse() {
        var mouse = Feeder(
            DeviceDescription(
                name: "mouse", codes: [key: [KeyCode.btnLeft, KeyCode.btnRight], EventType.rel: [0, 1]]))
        #expect(mouse.decoder.kind == .pointer && !mouse.decoder.hasForce)
        let moved = mouse.frame(0, [(EventType.rel, 0, 3), (EventType.rel, 1, -2)])
        #expect(
            moved.first
                == .pointerMotion(RelativeMotion(device: DeviceID(7), time: .init(milliseconds: 0), dx: 3, dy: -2)))
        #expect(contacts(mouse.frame(10, [(key, KeyCode.btnLeft, 1)])) == ["began 0 0.0"])
        #expect(contacts(mouse.frame(20, [(key, KeyCode.btnRight, 1)])).isEmpty)
        #expect(contacts(mouse.frame(30, [(key, KeyCode.btnLeft, 0)])) == ["ended 0 lifted"])
    }

    @Test("Mouse wheel: notches as 1/120ths signed like wl_pointer; hi-res replaces the low-res duplicate")
    func wheel() {
        var mouse = Feeder(
            DeviceDescription(name: "mouse", codes: [key: [KeyCode.btnLeft], EventType.rel: [0, 1, 6, 8, 11]]))
        let rel = EventType.rel
        let notch = mouse.frame(0, [(rel, RelCode.wheel, 1), (rel, RelCode.hwheel, -1)])
        #expect(
            notch.first
                == .scroll(
                    ScrollMotion(
                        device: DeviceID(7), time: .init(milliseconds: 0), vertical120: -120, horizontal120: -120)))
        let hiRes = mouse.frame(10, [(rel, RelCode.wheel, -1), (rel, RelCode.wheelHiRes, -60)])
        #expect(
            hiRes.first
                == .scroll(
                    ScrollMotion(device: DeviceID(7), time: .init(milliseconds: 10), vertical120: 60, horizontal120: 0))
        )
    }

    @Test("Keyboard: key presses and releases, autorepeat ignored")
    func keyboard() {
        var keyboard = Feeder(DeviceDescription(name: "kbd", codes: [key: [30, 31]]))
        #expect(keyboard.decoder.kind == .keyboard)
        let events = keyboard.frame(0, [(key, 30, 1), (key, 30, 2), (key, 30, 0)])
        #expect(
            events == [
                .key(KeyState(device: DeviceID(7), time: .init(milliseconds: 0), code: 30, pressed: true)),
                .key(KeyState(device: DeviceID(7), time: .init(milliseconds: 0), code: 30, pressed: false)),
                .frame(.init(milliseconds: 0)),
            ])
    }

    @Test("Garbage values never trap")
    func garbage() {
        for description in [Devices.pen, Devices.mtScreen, Devices.protocolAScreen, Devices.semiMTPad] {
            var feeder = Feeder(description)
            var generator = SplitMix64(seed: 42)
            for ms in 0..<2000 {
                var events: [(UInt16, UInt16, Int32)] = []
                for _ in 0..<Int(generator.next() % 6) {
                    let type = [syn, key, abs, EventType.rel, EventType.msc][Int(generator.next() % 5)]
                    let code = UInt16(generator.next() % (type == key ? 0x300 : 0x40))
                    let value = Int32(truncatingIfNeeded: generator.next())
                    events.append((type, code, generator.next() % 4 == 0 ? value : value % 3))
                }
                _ = feeder.frame(Int64(ms), events)
            }
        }
    }
}
