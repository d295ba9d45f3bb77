import Foundation
import LibinputRecording
import PreviewEngine
import Testing
import _FixtureTestSupport

@Suite("Robustness")
struct RobustnessTests {
    /// Random truncations and byte/line mutations of real files: every outcome is a decoded
    /// recording or a RecordingError naming a line; nothing traps.
    @Test(
        "Mutated and truncated recordings never crash the reader or the decoder",
        arguments: [
            "wacom-cintiq13hd-pen.yml", "cypress-trackpad.yml", "template",
        ])
    func fuzz(source: String) throws {
        let original =
            source == "template"
            ? Array(Template.text.utf8) : Array(try String(contentsOfFile: Fixtures.path(source), encoding: .utf8).utf8)
        var generator = SplitMix64(seed: UInt64(source.utf8.count))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mutant.yml").path
        var outcomes = [String: Int]()
        for round in 0..<150 {
            var bytes = original
            switch round % 5 {
            case 0:  // truncate anywhere
                bytes.removeSubrange(Int(generator.next() % UInt64(bytes.count))...)
            case 1:  // overwrite a few bytes with anything
                for _ in 0..<1 + Int(generator.next() % 4) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            case 2:  // overwrite with YAML-significant characters
                let specials = Array(" -:[]{},#\"'\t\n0123456789".utf8)
                for _ in 0..<1 + Int(generator.next() % 4) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] =
                        specials[Int(generator.next() % UInt64(specials.count))]
                }
            case 3:  // delete or duplicate a line
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                let index = Int(generator.next() % UInt64(lines.count))
                if generator.next() % 2 == 0 { lines.remove(at: index) } else { lines.insert(lines[index], at: index) }
                bytes = Array(lines.joined(separator: [0x0A]))
            default:  // swap two lines (times go backwards, keys move)
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                let a = Int(generator.next() % UInt64(lines.count))
                let b = Int(generator.next() % UInt64(lines.count))
                lines.swapAt(a, b)
                bytes = Array(lines.joined(separator: [0x0A]))
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            for lenient in [false, true] {
                do {
                    _ = try decodeAll(path, options: ReadOptions(lenient: lenient))
                    outcomes["ok", default: 0] += 1
                } catch let error as RecordingError {
                    #expect(error.line >= 0)
                    #expect(error.description.hasPrefix(path))
                    outcomes["\(error.kind)", default: 0] += 1
                }
            }
        }
        #expect(outcomes["ok", default: 0] > 0, "\(outcomes)")
        #expect(outcomes.count > 2, "mutations hit several kinds of errors: \(outcomes)")
    }

    static let twoDevices = """
        version: 1
        ndevices: 2
        libinput:
          version: "1.25.0"
        devices:
        - node: /dev/input/event3
          evdev:
            name: "Touch"
            codes:
              1: [330]
              3: [0, 1, 47, 53, 54, 57, 58]
            absinfo:
              0: [0, 100, 0, 0, 0]
              1: [0, 100, 0, 0, 0]
              47: [0, 4, 0, 0, 0]
              53: [0, 100, 0, 0, 0]
              54: [0, 100, 0, 0, 0]
              57: [0, 65535, 0, 0, 0]
              58: [0, 10, 0, 0, 0]
            properties: [1]
          events:
          - evdev:
            - [  0,  1000,   3,  57,    1]
            - [  0,  1000,   3,  58,    5]
            - [  0,  1000,   0,   0,    0]
          - evdev:
            - [  0,  3000,   3,  57,   -1]
            - [  0,  3000,   0,   0,    0]
        - node: /dev/input/event4
          evdev:
            name: "Keyboard"
            codes:
              1: [30, 31]
          events:
          - evdev:
            - [  0,     0,   1,  30,    1]
            - [  0,     0,   0,   0,    0]
          - evdev:
            - [  0,  2000,   1,  30,    0]
            - [  0,  2000,   0,   0,    0]

        """

    @Test("Several devices: per-device event lists merged in time order", arguments: [true, false])
    func multiDevice(declared: Bool) throws {
        let text = declared ? Self.twoDevices : Self.twoDevices.replacingOccurrences(of: "ndevices: 2\n", with: "")
        let path = try scratchFile(text)
        defer { removeScratch(path) }
        let recording = try Recording.open(path)
        #expect(recording.devices.map(\.name) == ["Touch", "Keyboard"])
        #expect(recording.devices.map(\.description.kind) == [.touchscreen, .keyboard])
        let frames = try recording.frames()
        var order: [String] = []
        while let frame = try frames.nextFrame() { order.append("\(frame.device)@\(frame.time.microseconds)") }
        #expect(order == ["1@0", "0@1000", "1@2000", "0@3000"])
        let stats = try decodeAll(path)
        #expect(stats.contacts == 1 && stats.peakForce == 0.5)
        #expect(stats.events.filter { if case .key = $0 { true } else { false } }.count == 2)
    }

    @Test("A device beyond ndevices is ignored with a warning")
    func moreDevicesThanDeclared() throws {
        let path = try scratchFile(Self.twoDevices.replacingOccurrences(of: "ndevices: 2", with: "ndevices: 1"))
        defer { removeScratch(path) }
        let log = WarningLog()
        let stats = try decodeAll(path, options: log.strictOptions)
        #expect(stats.devices == 1 && stats.frames == 2)
        #expect(
            log.all.map(\.reason) == ["another device after the last of ndevices: it is ignored (is ndevices wrong?)"])
        #expect(log.all.first?.line == Template.line(of: "- node: /dev/input/event4", in: Self.twoDevices))
    }

    @Test("A multi-device file with one idle device warns instead of failing")
    func idleDevice() throws {
        let idle =
            Self.twoDevices.components(separatedBy: "- node: /dev/input/event4")[0] + """
                - node: /dev/input/event4
                  evdev:
                    name: "Idle"
                  events:

                """
        let path = try scratchFile(idle)
        defer { removeScratch(path) }
        let log = WarningLog()
        let stats = try decodeAll(path, options: log.strictOptions)
        #expect(stats.devices == 2 && stats.contacts == 1)
        #expect(log.all.map(\.kind) == [.noEvents])
    }

    @Test("CRLF line ends, comments everywhere, document markers, missing optional keys")
    func tolerantSyntax() throws {
        let text = """
            --- # a document marker
            # comment
            version: 1   # trailing comment
            devices:
              # comment inside a list
              - evdev:
                  name: 'It''s a pen'   # single-quoted
                  codes: {1: [330], 3: [0, 1, 24]}
                  absinfo: {0: [0, 10, 0, 0, 0], 1: [0, 10, 0, 0, 0], 24: [0, 4, 0, 0, 0]}
                udev: ~
                quirks: null
                events:
                  - evdev:
                      - [0, 0, 1, 330, 1]   # BTN_TOUCH
                      - [0, 0, 3, 24, 2]
                      - [0, 0, 0, 0, 0]
                  - evdev:
                      - [0, 10, 1, 330, 0]
                      - [0, 10, 0, 0, 0]
            ...
            """.replacingOccurrences(of: "\n", with: "\r\n")
        let path = try scratchFile(text)
        defer { removeScratch(path) }
        let recording = try Recording.open(path)
        #expect(recording.devices.first?.name == "It's a pen")
        #expect(recording.declaredDeviceCount == nil)
        let stats = try decodeAll(path)
        #expect(stats.frames == 2)
        #expect(stats.kinds == [.touchscreen], "BTN_TOUCH and ABS_X/Y without finger tools or stylus buttons")
        #expect(stats.contacts == 1 && stats.peakForce == 0.5)
    }
}
