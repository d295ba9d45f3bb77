import InputEvents
import PreviewEngine
import Testing
import WaylandWindow

/// The nested window's input translation, alone: what the parent compositor sends (surface-local
/// pointer, keyboard, touch and tablet-tool events) becomes the decoder's `DeviceEvent`s.
@Suite("ParentInput: the parent's input as DeviceEvents")
struct ParentInputTests {
    private func t(_ ms: Int64) -> Timestamp { Timestamp(microseconds: ms * 1000) }

    @Test("A pen over tablet-v2: proximity, a contact with its measured pressure and tilt, lift, out")
    func penPressure() {
        var input = ParentInput(outputWidth: 1280, outputHeight: 800)
        var events: [DeviceEvent] = []
        let device = input.toolAdded(7, number: 0, kind: .pen, pressure: true, distance: true, tilt: true)
        input.toolProximity(7, inProximity: true)
        input.toolMotion(7, x: 640, y: 200)
        input.toolDistance(7, 65535)
        input.toolFrame(7, at: t(1), into: &events)
        guard case .toolProximity(let state, true) = events.first else {
            Issue.record("expected proximity in, got \(events)")
            return
        }
        #expect(state.device == device && state.position == NormalisedPoint(x: 0.5, y: 0.25))
        #expect(state.axes.distance == 1)
        #expect(events.last == .frame(t(1)))

        events.removeAll()
        input.toolTip(7, down: true)
        input.toolPressure(7, 32768)
        input.toolTilt(7, x: 10, y: -20)
        input.toolFrame(7, at: t(2), into: &events)
        guard case .contactBegan(let began) = events.first else {
            Issue.record("expected a contact, got \(events)")
            return
        }
        #expect(began.source == .pen && began.hasForce && began.positioning == .absolute)
        #expect(abs(began.force - 32768.0 / 65535) < 1e-9)
        #expect(began.pen?.tiltX == 10 && began.pen?.tiltY == -20)
        #expect(began.key == ContactKey(device: device))

        events.removeAll()
        input.toolPressure(7, 65535)
        input.toolFrame(7, at: t(3), into: &events)
        #expect(events.count == 2)
        if case .contactChanged(let changed) = events.first {
            #expect(changed.force == 1)
        } else {
            Issue.record("\(events)")
        }

        events.removeAll()
        input.toolTip(7, down: false)
        input.toolPressure(7, 0)
        input.toolFrame(7, at: t(4), into: &events)
        #expect(events == [.contactEnded(ContactKey(device: device), time: t(4), reason: .lifted), .frame(t(4))])

        events.removeAll()
        input.toolProximity(7, inProximity: false)
        input.toolFrame(7, at: t(5), into: &events)
        guard case .toolProximity(_, false) = events.first else {
            Issue.record("expected proximity out, got \(events)")
            return
        }
    }

    @Test("A pen leaving the window with its tip down ends its contact cancelled, never lifted")
    func penLeavesWindow() {
        var input = ParentInput(outputWidth: 800, outputHeight: 600)
        var events: [DeviceEvent] = []
        let device = input.toolAdded(1, number: 0, kind: .pen, pressure: true, distance: false, tilt: false)
        input.toolProximity(1, inProximity: true)
        input.toolTip(1, down: true)
        input.toolMotion(1, x: 10, y: 10)
        input.toolPressure(1, 60000)
        input.toolFrame(1, at: t(1), into: &events)
        events.removeAll()
        input.toolProximity(1, inProximity: false)
        input.toolFrame(1, at: t(2), into: &events)
        #expect(events.first == .contactEnded(ContactKey(device: device), time: t(2), reason: .system))
        #expect(!events.contains { if case .contactEnded(_, _, .lifted) = $0 { true } else { false } })
    }

    @Test("A tool without pressure gives a long-press contact (no force)")
    func penWithoutPressure() {
        var input = ParentInput(outputWidth: 800, outputHeight: 600)
        var events: [DeviceEvent] = []
        input.toolAdded(1, number: 0, kind: .pen, pressure: false, distance: false, tilt: false)
        input.toolProximity(1, inProximity: true)
        input.toolTip(1, down: true)
        input.toolFrame(1, at: t(1), into: &events)
        let began = events.compactMap { if case .contactBegan(let c) = $0 { c } else { nil } }.first
        #expect(began?.hasForce == false && began?.force == 0)
    }

    @Test("The pointer is a mouse: cursor motion, a primary press is a long-press contact, leaving cancels it")
    func pointer() {
        var input = ParentInput(outputWidth: 1280, outputHeight: 800)
        var events: [DeviceEvent] = []
        input.pointerEntered(x: 100, y: 100, at: t(1), into: &events)
        #expect(
            events.first
                == .pointerMotion(RelativeMotion(device: ParentInput.pointerDevice, time: t(1), dx: -540, dy: -300)))
        #expect(input.cursor == (100, 100))

        events.removeAll()
        input.pointerButton(0x110, pressed: true, at: t(2), into: &events)
        #expect(events.count == 3)
        guard case .contactBegan(let contact) = events[1] else {
            Issue.record("\(events)")
            return
        }
        #expect(contact.source == .pointer && !contact.hasForce && contact.positioning == .cursor)

        events.removeAll()
        input.pointerMoved(x: 103, y: 100, at: t(3), into: &events)
        #expect(events.contains { if case .contactChanged = $0 { true } else { false } })

        events.removeAll()
        input.pointerLeft(at: t(4), into: &events)
        #expect(
            events.contains(.contactEnded(ContactKey(device: ParentInput.pointerDevice), time: t(4), reason: .system)))
        #expect(
            events.contains(
                .button(KeyState(device: ParentInput.pointerDevice, time: t(4), code: 0x110, pressed: false))))

        // The release the parent sends later (if any) is not a second end.
        events.removeAll()
        input.pointerButton(0x110, pressed: false, at: t(5), into: &events)
        #expect(events.isEmpty)
    }

    @Test("Wheel steps and smooth scrolling become one scroll per pointer frame")
    func scroll() {
        var input = ParentInput(outputWidth: 100, outputHeight: 100)
        var events: [DeviceEvent] = []
        input.pointerAxis(vertical: true, value120: 120)
        input.pointerAxis(vertical: true, pixels: 15, hasDiscrete: true)
        input.pointerFrame(at: t(1), into: &events)
        #expect(
            events.first
                == .scroll(
                    ScrollMotion(device: ParentInput.pointerDevice, time: t(1), vertical120: 120, horizontal120: 0)))
        events.removeAll()
        input.pointerAxis(vertical: false, pixels: -7.5, hasDiscrete: false)
        input.pointerFrame(at: t(2), into: &events)
        #expect(
            events.first
                == .scroll(
                    ScrollMotion(device: ParentInput.pointerDevice, time: t(2), vertical120: 0, horizontal120: -60)))
    }

    @Test("Touch points are touchscreen contacts without pressure; cancel ends them all")
    func touch() {
        var input = ParentInput(outputWidth: 1000, outputHeight: 500)
        var events: [DeviceEvent] = []
        input.touchDown(id: 3, x: 250, y: 250, at: t(1), into: &events)
        guard case .contactBegan(let contact) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(
            contact.source == .touchscreen && !contact.hasForce && contact.position == NormalisedPoint(x: 0.25, y: 0.5))
        #expect(contact.key.contact == 3)
        events.removeAll()
        input.touchCancelled(at: t(2), into: &events)
        #expect(
            events.first
                == .contactEnded(ContactKey(device: ParentInput.touchDevice, contact: 3), time: t(2), reason: .system))
    }

    @Test("Keys pass through; losing keyboard focus releases what is held")
    func keyboard() {
        var input = ParentInput(outputWidth: 100, outputHeight: 100)
        var events: [DeviceEvent] = []
        input.key(1, pressed: true, at: t(1), into: &events)
        input.key(1, pressed: true, at: t(1), into: &events)  // repeated press: ignored
        #expect(
            events == [
                .key(KeyState(device: ParentInput.keyboardDevice, time: t(1), code: 1, pressed: true)), .frame(t(1)),
            ])
        events.removeAll()
        input.keyboardLeft(at: t(2), into: &events)
        #expect(events.first == .key(KeyState(device: ParentInput.keyboardDevice, time: t(2), code: 1, pressed: false)))
    }

    @Test("Positions outside the output are clamped, not trusted")
    func clamped() {
        var input = ParentInput(outputWidth: 100, outputHeight: 100)
        var events: [DeviceEvent] = []
        input.touchDown(id: 0, x: -50, y: 1e12, at: t(1), into: &events)
        guard case .contactBegan(let contact) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(contact.position.x == 0 && contact.position.y == 0.99)
        input.pointerEntered(x: .nan, y: 5, at: t(2), into: &events)
        #expect(input.cursor == (50, 50))
    }

    @Test("The parent's millisecond times land on our clock (across the 32-bit wrap); another clock's do not")
    func eventTimes() {
        let now = Timestamp(microseconds: 5_000_000_123)
        #expect(
            ParentInput.eventTime(parentMilliseconds: 4_999_990, now: now) == Timestamp(microseconds: 4_999_990_000))
        // 2^32 ms after the clock started, the parent's 32-bit time has wrapped.
        let late = Timestamp(microseconds: ((Int64(1) << 32) + 5) * 1000)
        #expect(
            ParentInput.eventTime(parentMilliseconds: 2, now: late)
                == Timestamp(microseconds: ((Int64(1) << 32) + 2) * 1000))
        #expect(
            ParentInput.eventTime(parentMilliseconds: UInt32.max - 1, now: late)
                == Timestamp(microseconds: ((Int64(1) << 32) - 2) * 1000))
        // A parent on another clock (or far behind): the event gets our time.
        #expect(ParentInput.eventTime(parentMilliseconds: 12, now: now) == now)
    }
}
