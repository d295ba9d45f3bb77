import Foundation
import LibinputRecording
import PreviewEngine
import Testing

/// One bad file and the error it must give.
struct BadCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    /// The line the error must name (0: the file as a whole).
    var line: Int
    var kind: RecordingError.Kind
    var reason: String
    /// Whether --lenient reads the file anyway (skipping what is bad).
    var lenientReads: Bool

    var testDescription: String { name }
}

/// Reads and decodes everything: the error, if any, is the one a replay would hit.
func readAll(_ path: String, options: ReadOptions = ReadOptions()) throws(RecordingError) -> Int {
    let recording = try Recording.open(path, options: options)
    let frames = try recording.frames()
    var count = 0
    while try frames.nextFrame() != nil { count += 1 }
    return count
}

@Suite("Malformed recordings")
struct MalformedInputTests {
    static let eventLine = "- [  0,  20000,   3,  24,     800]"

    static let cases: [BadCase] = [
        BadCase(
            name: "not YAML at all", text: "\u{7f}ELF\u{2}\u{1}\u{1}binary junk\n", line: 1, kind: .syntax,
            reason: "not a libinput recording", lenientReads: false),
        BadCase(
            name: "YAML but not a recording", text: "- a\n- b\n", line: 1, kind: .syntax,
            reason: "not a libinput recording", lenientReads: false),
        BadCase(name: "empty file", text: "", line: 0, kind: .syntax, reason: "empty file", lenientReads: false),
        BadCase(
            name: "no devices", text: "version: 1\nndevices: 1\n", line: 1, kind: .missing,
            reason: "no 'devices' list", lenientReads: false),
        BadCase(
            name: "version 2", text: Template.replacing("version: 1", with: "version: 2"), line: 2,
            kind: .version, reason: "unsupported recording version 2", lenientReads: false),
        BadCase(
            name: "version is not a number", text: Template.replacing("version: 1", with: "version: one"), line: 2,
            kind: .type, reason: "version: expected an integer, found 'one'", lenientReads: false),
        BadCase(
            name: "devices is a string", text: "version: 1\ndevices: many\n", line: 2, kind: .type,
            reason: "devices: expected a list, found 'many'", lenientReads: false),
        BadCase(
            name: "name is a list", text: Template.replacing("name: \"Test \\\"Pen\\\"\"", with: "name: [1, 2]"),
            line: Template.line(of: "name: \"Test"), kind: .type,
            reason: "devices[0].evdev.name: expected a string, found a list", lenientReads: false),
        BadCase(
            name: "device without evdev",
            text: Template.replacing("  evdev:\n    # Name", with: "  evdevx:\n    # Name"),
            line: Template.line(of: "- node:"), kind: .missing, reason: "devices[0] has no 'evdev' description",
            lenientReads: false),
        BadCase(
            name: "absinfo with 4 numbers",
            text: Template.replacing("24: [0, 1000, 0, 0, 0]", with: "24: [0, 1000, 0, 0]"),
            line: Template.line(of: "24: [0, 1000, 0, 0, 0]"), kind: .arity,
            reason:
                "devices[0].evdev.absinfo.ABS_PRESSURE: expected [min, max, fuzz, flat, resolution], found 4 numbers",
            lenientReads: true),
        BadCase(
            name: "absinfo maximum below minimum",
            text: Template.replacing("24: [0, 1000, 0, 0, 0]", with: "24: [10, 5, 0, 0, 0]"),
            line: Template.line(of: "24: [0, 1000, 0, 0, 0]"), kind: .range,
            reason: "maximum 5 is below minimum 10", lenientReads: true),
        BadCase(
            name: "absinfo for a code beyond ABS_MAX",
            text: Template.replacing("24: [0, 1000, 0, 0, 0]", with: "99: [0, 1000, 0, 0, 0]"),
            line: Template.line(of: "24: [0, 1000, 0, 0, 0]"), kind: .range, reason: "'99' is not an ABS_* code",
            lenientReads: true),
        BadCase(
            name: "id with 3 numbers", text: Template.replacing("id: [3, 1386, 819, 272]", with: "id: [3, 1386, 819]"),
            line: Template.line(of: "id: [3"), kind: .arity,
            reason: "expected [bus, vendor, product, version], found 3",
            lenientReads: true),
        BadCase(
            name: "code beyond KEY_MAX", text: Template.replacing("1: [320, 330, 331]", with: "1: [320, 330, 70000]"),
            line: Template.line(of: "1: [320, 330, 331]"), kind: .range, reason: "70000 is out of range 0...767",
            lenientReads: false),
        BadCase(
            name: "tab in indentation", text: Template.replacing("    properties: [1]", with: "\tproperties: [1]"),
            line: Template.line(of: "properties: [1]"), kind: .syntax, reason: "tab in indentation", lenientReads: false
        ),
        BadCase(
            name: "unclosed flow list", text: "version: 1\ndevices: [\n  1, 2\n", line: 3, kind: .truncated,
            reason: "unclosed '[' or '{' (opened on line 2)", lenientReads: false),
        BadCase(
            name: "bad indentation", text: Template.replacing("    id: [3", with: "     id: [3"),
            line: Template.line(of: "id: [3"), kind: .syntax, reason: "unexpected indentation", lenientReads: false),
        BadCase(
            name: "event with 4 numbers", text: Template.replacing(eventLine, with: "- [  0,  20000,   3,  24]"),
            line: Template.line(of: eventLine), kind: .arity,
            reason: "an event has 5 numbers [sec, usec, type, code, value], this one has 4", lenientReads: true),
        BadCase(
            name: "event with 6 numbers", text: Template.replacing(eventLine, with: "- [0, 20000, 3, 24, 800, 1]"),
            line: Template.line(of: eventLine), kind: .arity, reason: "this one has 6", lenientReads: true),
        BadCase(
            name: "event with a word", text: Template.replacing(eventLine, with: "- [  0,  20000,   3,  ABS,     800]"),
            line: Template.line(of: eventLine), kind: .type, reason: "expected an integer, found 'ABS,     800",
            lenientReads: true),
        BadCase(
            name: "event line cut short",
            text: String(Template.text[..<Template.text.range(of: eventLine)!.lowerBound]) + "- [  0,  20000,   3,  2",
            line: Template.line(of: eventLine), kind: .truncated, reason: "unterminated '['", lenientReads: true),
        BadCase(
            name: "microseconds out of range",
            text: Template.replacing(eventLine, with: "- [  0, 1000000,   3,  24,     800]"),
            line: Template.line(of: eventLine), kind: .range, reason: "microseconds 1000000 out of range 0...999999",
            lenientReads: true),
        BadCase(
            name: "negative seconds", text: Template.replacing(eventLine, with: "- [ -1,  20000,   3,  24,     800]"),
            line: Template.line(of: eventLine), kind: .range, reason: "seconds -1 out of range", lenientReads: true),
        BadCase(
            name: "event type beyond EV_MAX",
            text: Template.replacing(eventLine, with: "- [  0,  20000,  40,  24,     800]"),
            line: Template.line(of: eventLine), kind: .range, reason: "event type 40 is not an evdev type",
            lenientReads: true),
        BadCase(
            name: "ABS code beyond ABS_MAX",
            text: Template.replacing(eventLine, with: "- [  0,  20000,   3,  64,     800]"),
            line: Template.line(of: eventLine), kind: .range, reason: "event code 64 out of range for EV_ABS (0...63)",
            lenientReads: true),
        BadCase(
            name: "value beyond 32 bits",
            text: Template.replacing(eventLine, with: "- [  0,  20000,   3,  24, 4294967296]"),
            line: Template.line(of: eventLine), kind: .range, reason: "event value 4294967296 does not fit in 32 bits",
            lenientReads: true),
        BadCase(
            name: "time goes backwards",
            text: Template.replacing(eventLine, with: "- [  0,   5000,   3,  24,     800]"),
            line: Template.line(of: eventLine), kind: .range, reason: "time goes backwards (0.005000 after 0.010000)",
            lenientReads: true),
        BadCase(
            name: "text that is not an event in a frame", text: Template.replacing(eventLine, with: "pressure: 800"),
            line: Template.line(of: eventLine), kind: .syntax,
            reason: "expected an event '- [sec, usec, type, code, value]'",
            lenientReads: true),
        BadCase(
            name: "a list item that is not a frame", text: Template.replacing("  - hid:", with: "  - 42"),
            line: Template.line(of: "  - hid:"), kind: .syntax, reason: "expected an event frame '- evdev:'",
            lenientReads: true),
        BadCase(
            name: "file truncated inside a frame",
            text: String(Template.text[..<Template.text.range(of: "    - [  0,  30000,   3,  24")!.lowerBound]),
            line: Template.line(of: "[  0,  30000,   1, 330"), kind: .truncated,
            reason: "truncated: 1 event(s) after the last SYN_REPORT (device 0)", lenientReads: true),
        BadCase(
            name: "device without events",
            text: String(Template.text[..<Template.text.range(of: "  # Current time")!.lowerBound]),
            line: Template.line(of: "  events:"), kind: .noEvents, reason: "device 0 'Test \"Pen\"' has no events",
            lenientReads: true),
        BadCase(
            name: "device with an empty event list",
            text: String(Template.text[..<Template.text.range(of: "  events:")!.lowerBound]) + "  events: []\n",
            line: Template.line(of: "- node:"), kind: .noEvents, reason: "has no events", lenientReads: true),
        BadCase(
            name: "events is a string",
            text: String(Template.text[..<Template.text.range(of: "  events:")!.lowerBound]) + "  events: none\n",
            line: Template.line(of: "  events:"), kind: .type,
            reason: "devices[0].events: expected a list of event frames, found 'none'",
            lenientReads: false),
        BadCase(
            name: "fewer devices than ndevices", text: Template.replacing("ndevices: 1", with: "ndevices: 2"),
            line: Template.line(of: "- node:"), kind: .truncated,
            reason: "ndevices says 2 but the file has 1 device(s)",
            lenientReads: true),
    ]

    @Test("Each malformed recording fails with file:line: reason", arguments: cases)
    func malformed(bad: BadCase) throws {
        let path = try scratchFile(bad.text)
        defer { removeScratch(path) }
        do {
            let frames = try readAll(path)
            Issue.record("read \(frames) frames without an error")
        } catch {
            #expect(error.file == path)
            #expect(error.line == bad.line, "\(error)")
            #expect(error.kind == bad.kind, "\(error)")
            #expect(error.reason.contains(bad.reason), "\(error)")
            let prefix = bad.line > 0 ? "\(path):\(bad.line):" : "\(path): "
            #expect(error.description.hasPrefix(prefix), "\(error)")
        }
    }

    @Test("--lenient reads what it can and warns about the rest", arguments: cases)
    func lenient(bad: BadCase) throws {
        let path = try scratchFile(bad.text)
        defer { removeScratch(path) }
        let log = WarningLog()
        do {
            let frames = try readAll(path, options: log.options)
            #expect(bad.lenientReads, "lenient mode read \(frames) frames of a file it should refuse")
            #expect(log.all.contains { $0.line == bad.line && $0.reason.contains(bad.reason) }, "warnings: \(log.all)")
        } catch {
            #expect(!bad.lenientReads, "lenient mode failed: \(error)")
        }
    }

    @Test("The template itself is valid and decodes to one pen stroke")
    func templateIsValid() throws {
        let path = try scratchFile(Template.text)
        defer { removeScratch(path) }
        let log = WarningLog()
        let stats = try decodeAll(path, options: log.strictOptions)
        #expect(log.all.isEmpty)
        #expect(stats.frames == 5, "the frame split across two items is one frame")
        #expect(stats.kinds == [.pen])
        #expect(stats.contacts == 1)
        #expect(stats.peakForce == 790.0 / 990, "800 of 0...1000, from libinput's lower threshold (10)")
        let recording = try Recording.open(path)
        let device = try #require(recording.devices.first)
        #expect(device.name == "Test \"Pen\"")
        #expect(device.hidReportDescriptor == [0x05, 0x0d, 0x09, 0x02, 0xa1, 0x01])
        #expect(device.quirks == ["ModelWacomISDV4Pen=1"])
        #expect(device.libinputCapabilities == ["tablet"])
        #expect(recording.system["os"] == "debian:12")
    }

    @Test("A bad event line skipped by --lenient loses only that event")
    func lenientKeepsTheRest() throws {
        let path = try scratchFile(Template.replacing(Self.eventLine, with: "- [  0,  20000,   3,  24]"))
        defer { removeScratch(path) }
        let log = WarningLog()
        let stats = try decodeAll(path, options: log.options)
        #expect(log.all.count == 1)
        #expect(stats.frames == 5)
        #expect(stats.contacts == 1)
        #expect(stats.peakForce == 390.0 / 990, "the 800 was on the skipped line")
    }
}
