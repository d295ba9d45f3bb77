import InputEvents
import LibinputBackend
import PreviewEngine
import Testing
import UmockdevHarness

/// The umockdev inputs the harness writes: what libevdev asks must be in the table, exactly.
struct HarnessFilesTests {
    let pen = TestbedDevice(
        name: "Test Pen", id: .init(bus: 3, vendor: 0x56a, product: 0x333, version: 0x110),
        codes: [0: [0], 1: [320, 330], 3: [0, 1, 24]],
        absinfo: [
            0: .init(minimum: 400, maximum: 59152, fuzz: 4, resolution: 200), 1: .init(minimum: 0, maximum: 100),
            24: .init(minimum: 0, maximum: 2047),
        ],
        properties: [1], udevProperties: ["ID_INPUT=1", "ID_INPUT_TABLET=1"],
        events: [
            .init(time: 0, type: 1, code: 330, value: 1), .init(time: 0, type: 0, code: 0, value: 0),
            .init(time: 8000, type: 3, code: 24, value: 94), .init(time: 8000, type: 0, code: 0, value: 0),
        ])

    @Test func ioctlTableAnswersLibevdevsQuestions() {
        let lines = TestbedFiles.ioctlTable(pen).split(separator: "\n").map(String.init)
        #expect(lines.first == "@DEV /dev/input/event0")
        // Name: the return value is strlen + 1, the buffer libevdev passes is 255 bytes.
        let name = lines.first { $0.hasPrefix("EVIOCGNAME(0) ") }!.split(separator: " ")
        #expect(name[1] == "9" && name[2].count == 255 * 2)
        #expect(lines.contains("EVIOCGID 0 03006A0533031001"))
        #expect(lines.contains("EVIOCGPROP(0) 8 0200000000000000"))
        #expect(lines.contains("EVIOCGBIT(0) 8 0B00000000000000"))
        #expect(lines.contains { $0.hasPrefix("EVIOCGBIT(1) 96 ") && $0.count == "EVIOCGBIT(1) 96 ".count + 192 })
        #expect(lines.contains("EVIOCGBIT(3) 8 0300000100000000"))
        // ABS_X: value, min 400, max 59152, fuzz 4, flat 0, resolution 200, little-endian int32s.
        #expect(lines.contains("EVIOCGABS 0 900100009001000010E700000400000000000000C8000000"))
        #expect(lines.contains { $0.hasPrefix("EVIOCGABS(24) 0 ") })
    }

    @Test func udevDescriptionAndDatabaseCarryTheProperties() {
        let description = TestbedFiles.description(pen)
        #expect(description.contains("P: /devices/virtual/input/input0/event0\nN: input/event0\n"))
        #expect(description.contains("E: ID_INPUT_TABLET=1\n"))
        #expect(description.contains("A: dev=13:64\n"))
        let database = TestbedFiles.udevDatabase(pen, initializedAt: 42)
        #expect(database.hasPrefix("I:42\nE:ID_INPUT=1\nE:ID_INPUT_TABLET=1\n"))
    }

    @Test func scriptWaitsForATickBeforeEachFrame() {
        let script = TestbedScript.script(pen, base: 1_000_000)
        let lines = script.split(separator: 0x0a)
        #expect(lines.count == 4)
        #expect(Array(lines[0]) == Array("w 0 t".utf8))
        #expect(Array(lines[1].prefix(4)) == Array("r 0 ".utf8))
        // Two 24-byte input_events, escaped: no raw byte below 32 may appear.
        #expect(!lines[1].dropFirst(4).contains { $0 < 32 })
        #expect(TestbedScript.frameTimes(pen, base: 1_000_000) == [1_000_000, 1_008_000])
    }

    /// umockdev drops the leading spaces of a script line's data, and a frame starts with the
    /// low byte of its seconds: in a second whose low byte is 0x20 (here 288 s = 0x120) the frame
    /// must start otherwise and still carry the same instant, and every other byte must survive.
    @Test func aFrameInASecondEndingIn0x20KeepsItsFirstByte() {
        let base: Int64 = 288_000_000 + 250_000
        let lines = TestbedScript.script(pen, base: base).split(separator: 0x0a)
        let frames = [lines[1], lines[3]].map { Self.umockdevDecoded(Array($0.dropFirst("r 0 ".count))) }
        for (frame, due) in zip(frames, TestbedScript.frameTimes(pen, base: base)) {
            #expect(frame.count == 48, "a byte was dropped: \(frame.count) bytes")
            let seconds = frame[0..<8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
            let microseconds = frame[8..<16].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
            #expect(frame[0] != 0x20)
            #expect(seconds * 1_000_000 + microseconds == due, "the same instant")
            #expect(frame[16..<18] == [1, 0] || frame[16..<18] == [3, 0], "the type follows the time")
        }
    }

    /// What umockdev's script runner makes of an `r` line's data: leading spaces dropped, `^x`
    /// is x - 64, "^`" is '^'.
    static func umockdevDecoded(_ quoted: [UInt8]) -> [UInt8] {
        var bytes = [UInt8]()
        var index = quoted.firstIndex { $0 != 0x20 } ?? quoted.endIndex
        while index < quoted.endIndex {
            if quoted[index] == 0x5e, index + 1 < quoted.endIndex {
                bytes.append(quoted[index + 1] == 0x60 ? 0x5e : quoted[index + 1] - 64)
                index += 2
            } else {
                bytes.append(quoted[index])
                index += 1
            }
        }
        return bytes
    }

    @Test func tabletsWithoutResolutionGetOneAndTouchpadFuzzMovesToUdev() {
        var tablet = pen
        tablet.absinfo[1]?.resolution = 0
        let notes = tablet.adaptForLibinput()
        #expect(tablet.absinfo[1]?.resolution == TestbedDevice.fallbackTabletResolution)
        #expect(tablet.absinfo[0]?.resolution == 200)
        #expect(notes.count == 1)

        var pad = pen
        pad.udevProperties = ["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1"]
        _ = pad.adaptForLibinput()
        #expect(pad.udevProperties.contains("LIBINPUT_FUZZ_00=4"))
        #expect(pad.absinfo[0]?.fuzz == 0)
    }

    @Test func linesRoundTripEveryEventTheBackendEmits() {
        let key = ContactKey(device: DeviceID(2), contact: 3)
        let pen = PenAxes(tool: .eraser, distance: nil, tiltX: 12.5, tiltY: -3)
        let events: [BackendEvent] = [
            .deviceAdded(
                BackendDevice(
                    id: DeviceID(2), name: "A 100% pad", kind: .touchpad, hasForce: true,
                    forceOrigin: "evdev ABS_MT_PRESSURE 0...255")),
            .input(
                .contactBegan(
                    DeviceContact(
                        key: key, time: .init(microseconds: 5), force: 0.1 + 0.2, hasForce: true,
                        position: .init(x: 0.25, y: 1), positioning: .absolute, source: .pen, pen: pen))),
            .input(
                .contactChanged(
                    DeviceContact(
                        key: key, time: .init(microseconds: 6), force: 1, hasForce: false, position: .centre,
                        positioning: .cursor, source: .touchpad))),
            .input(.contactEnded(key, time: .init(microseconds: 7), reason: .deviceRemoved)),
            .input(
                .toolProximity(
                    ToolState(
                        device: DeviceID(2), time: .init(microseconds: 8), position: .centre, pressure: nil, axes: pen),
                    inProximity: true)),
            .input(
                .toolMotion(
                    ToolState(
                        device: DeviceID(2), time: .init(microseconds: 9), position: .centre, pressure: 0.5, axes: pen))
            ),
            .input(.pointerMotion(RelativeMotion(device: DeviceID(2), time: .init(microseconds: 10), dx: -1.5, dy: 2))),
            .input(
                .scroll(
                    ScrollMotion(
                        device: DeviceID(2), time: .init(microseconds: 11), vertical120: -120, horizontal120: 0))),
            .input(.button(KeyState(device: DeviceID(2), time: .init(microseconds: 12), code: 0x110, pressed: true))),
            .input(.key(KeyState(device: DeviceID(2), time: .init(microseconds: 13), code: 30, pressed: false))),
            .input(.frame(.init(microseconds: 14))),
            .deviceRemoved(DeviceID(2), at: .init(microseconds: 15)),
        ]
        for event in events {
            let line = TestbedLine.format(event)
            #expect(TestbedLine.parse(Substring(line)) == event, "\(line)")
        }
        #expect(TestbedLine.parse("began 1 2") == nil)
        #expect(TestbedLine.parse("nonsense") == nil)
    }
}
