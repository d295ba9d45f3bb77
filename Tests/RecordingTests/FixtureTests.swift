import EvdevDecoder
import InputEvents
import LibinputRecording
import PreviewEngine
import Testing
import _FixtureTestSupport

/// What each real recording must decode to. Contacts are what can start a preview: pen tips,
/// touchscreen fingers, touchpad clicks. Touches are fingers on a touch device.
struct FixturePin: Sendable, CustomTestStringConvertible {
    var file: String
    var kind: DeviceKind
    var frames: Int
    var eventLines: Int
    var contacts: Int
    /// Peak normalised force of the contacts (3 decimals; pens from libinput's lower threshold).
    var peakForce: Double
    var touches: Int
    var peakTouchPressure: Double

    var testDescription: String { file }
}

@Suite("Fixture recordings")
struct FixtureTests {
    static let pins: [FixturePin] = [
        // The bcm5974 made a pressure pad (NOTICE.md): the finger is the contact, five touches
        // (two light taps among them); force in grams over 600 g, saturating at 640 g.
        FixturePin(
            file: "apple-bcm5974-pressurepad.yml", kind: .touchpad, frames: 150, eventLines: 2588, contacts: 5,
            peakForce: 1, touches: 4, peakTouchPressure: 1),
        // Protocol A (SYN_MT_REPORT), three clicks of the pad; one ABS_PRESSURE for the pad.
        FixturePin(
            file: "apple-bcm5974-touchpad.yml", kind: .touchpad, frames: 150, eventLines: 2586, contacts: 3,
            peakForce: 0.996, touches: 4, peakTouchPressure: 0.996),
        // Semi-mt: one click (BTN_RIGHT on a clickpad) with two fingers.
        FixturePin(
            file: "cypress-trackpad.yml", kind: .touchpad, frames: 37, eventLines: 278, contacts: 1, peakForce: 0.431,
            touches: 1, peakTouchPressure: 0.431),
        // Two strokes: libinput's pressure thresholds lift the tip during the dip at 6.64 s.
        FixturePin(
            file: "dell-canvas-isdv4-pen.yml", kind: .pen, frames: 978, eventLines: 2839, contacts: 2, peakForce: 0.993,
            touches: 0, peakTouchPressure: 0),
        // Protocol B, two single-finger touches and no click: cursor motion only.
        FixturePin(
            file: "elantech-touchpad.yml", kind: .touchpad, frames: 297, eventLines: 1557, contacts: 0, peakForce: 0,
            touches: 2, peakTouchPressure: 0.063),
        // No BTN_TOOL_PEN: in proximity from the start (udev wrongly says touchscreen).
        FixturePin(
            file: "uclogic-wp5540u-pen.yml", kind: .pen, frames: 506, eventLines: 1458, contacts: 1, peakForce: 0.435,
            touches: 0, peakTouchPressure: 0),
        FixturePin(
            file: "wacom-cintiq12wx-pen.yml", kind: .pen, frames: 362, eventLines: 2260, contacts: 2, peakForce: 0.745,
            touches: 0, peakTouchPressure: 0),
        FixturePin(
            file: "wacom-cintiq13hd-pen.yml", kind: .pen, frames: 79, eventLines: 425, contacts: 2, peakForce: 0.615,
            touches: 0, peakTouchPressure: 0),
        FixturePin(
            file: "wacom-dth2242-pen.yml", kind: .pen, frames: 1200, eventLines: 5292, contacts: 7, peakForce: 0.693,
            touches: 0, peakTouchPressure: 0),
    ]

    @Test("Every fixture decodes to its pinned devices, frames, contacts and peak pressure", arguments: pins)
    func fixture(pin: FixturePin) throws {
        let stats = try decodeAll(Fixtures.path(pin.file))
        #expect(stats.devices == 1)
        #expect(stats.kinds == [pin.kind])
        #expect(stats.frames == pin.frames)
        #expect(stats.eventLines == pin.eventLines)
        #expect(stats.contacts == pin.contacts)
        #expect(
            stats.ended == (pin.contacts == 0 ? [:] : [.lifted: pin.contacts]), "every contact lifts before the end")
        #expect(abs(stats.peakForce - pin.peakForce) < 0.0005, "peak force \(stats.peakForce)")
        #expect(stats.touches == pin.touches)
        #expect(abs(stats.peakTouchPressure - pin.peakTouchPressure) < 0.0005, "peak touch \(stats.peakTouchPressure)")
    }

    @Test("Every pinned fixture is one of the checked-in files")
    func pinsCoverFixtures() {
        #expect(Self.pins.map(\.file).sorted() == Fixtures.all.sorted())
    }

    @Test("The header is read: name, identity, absinfo, udev, converted-file metadata")
    func header() throws {
        let recording = try Recording.open(Fixtures.path("wacom-cintiq13hd-pen.yml"))
        #expect(recording.version == 1)
        #expect(recording.declaredDeviceCount == 1)
        #expect(recording.libinputVersion == "converted-from-evemu")
        #expect(recording.system["kernel"] == "unknown")
        let device = try #require(recording.devices.first)
        #expect(device.node == "/dev/input/event0")
        #expect(device.name == "Wacom Cintiq 13HD touch Pen")
        #expect(device.description.identity == DeviceIdentity(bus: 3, vendor: 0x56a, product: 0x333, version: 272))
        #expect(device.description.absinfo[AbsCode.pressure] == AbsInfo(minimum: 0, maximum: 2047))
        #expect(
            device.description.absinfo[AbsCode.x] == AbsInfo(minimum: 400, maximum: 59152, fuzz: 4, resolution: 200))
        #expect(device.description.has(type: EventType.key, code: KeyCode.btnToolPen))
        #expect(device.description.properties == [InputProperty.direct])
        #expect(device.description.udevProperties["ID_INPUT_TABLET"] == "1")
        #expect(device.quirks.isEmpty)
    }

    @Test("The UC-Logic pen is in proximity before its first tip event")
    func ucLogicStartsInProximity() throws {
        let stats = try decodeAll(Fixtures.path("uclogic-wp5540u-pen.yml"))
        guard case .toolProximity(_, inProximity: true)? = stats.events.first else {
            Issue.record("first event is \(String(describing: stats.events.first))")
            return
        }
        let began = stats.events.firstIndex { if case .contactBegan = $0 { true } else { false } }
        let firstHover = stats.events.firstIndex { if case .toolMotion = $0 { true } else { false } }
        #expect(firstHover != nil && began != nil && firstHover! < began!, "hover before the tip touches")
    }

    @Test("Touchpad clicks are contacts at the cursor with the pad's pressure")
    func touchpadClick() throws {
        let stats = try decodeAll(Fixtures.path("apple-bcm5974-touchpad.yml"))
        let began = stats.events.compactMap { if case .contactBegan(let contact) = $0 { contact } else { nil } }
        #expect(began.count == 3)
        #expect(began.allSatisfy { $0.positioning == .cursor && $0.source == .touchpad && $0.hasForce })
        #expect(began.allSatisfy { $0.key.contact == 0 })
        // Each click is preceded in its frame by the BTN_LEFT press.
        for (index, event) in stats.events.enumerated() {
            guard case .contactBegan = event else { continue }
            guard case .button(let key) = stats.events[index - 1] else {
                Issue.record("no button before the click contact")
                continue
            }
            #expect(key.code == KeyCode.btnLeft && key.pressed)
        }
    }
}

@Suite("A clickpad's right click")
struct ClickpadButtonTests {
    /// The cypress firmware reports its two-finger click as BTN_RIGHT on a buttonpad. The
    /// decoder makes it the click contact (the pad is one switch); it must not also pass the
    /// button on, or the compositor delivers one physical click as two presses.
    @Test("is the click contact and nothing else")
    func rightClickIsOnlyTheContact() throws {
        let stats = try decodeAll(Fixtures.path("cypress-trackpad.yml"))
        let buttons = stats.events.compactMap { event -> UInt16? in
            if case .button(let key) = event { key.code } else { nil }
        }
        #expect(!buttons.contains(KeyCode.btnRight), "\(buttons)")
        let began = stats.events.filter { if case .contactBegan = $0 { true } else { false } }
        #expect(began.count == 1)
    }
}
