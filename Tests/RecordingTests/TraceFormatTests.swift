import Foundation
import PreviewEngine
import PreviewTrace
import Testing

@Suite("Trace formats")
struct TraceFormatTests {
    static let record = TraceRecord(
        time: Timestamp(microseconds: 1_234_567), device: "Pen \"Pro\" \\ 2\n\t\u{1}é✓", source: .pen, simulated: false,
        interaction: InteractionID(3), phase: .cancelled(.desynchronised), progress: 0.25,
        location: Point(x: 10.5, y: 20),
        surface: SurfaceID(7), client: "peek-client[42]")

    @Test("JSON lines: fixed key order, escaping, optional fields, parseable")
    func json() throws {
        let line = Self.record.jsonLine
        #expect(
            line
                == #"{"time_us":1234567,"device":"Pen \"Pro\" \\ 2\n\t\u0001é✓","source":"pen","simulated":false,"interaction":3,"event":"cancel","progress":0.25,"ended":false,"phase":"cancelled","x":10.5,"y":20,"reason":"desynchronised","surface":7,"client":"peek-client[42]"}"#
        )
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["device"] as? String == Self.record.device)
        var plain = Self.record
        plain.surface = nil
        plain.client = nil
        plain.phase = .previewProgress
        #expect(
            !plain.jsonLine.contains("reason") && !plain.jsonLine.contains("surface")
                && !plain.jsonLine.contains("client"))
    }

    @Test("Numbers JSON can't spell become null")
    func nonFinite() throws {
        var record = Self.record
        record.progress = .nan
        record.location = Point(x: .infinity, y: -0.000001)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.jsonLine.utf8)) as? [String: Any])
        #expect(object["progress"] is NSNull && object["x"] is NSNull)
        #expect(object["y"] as? Double == -0.000001)
    }

    @Test("Human lines: aligned columns, seconds with milliseconds, outcome words")
    func human() {
        var record = Self.record
        record.device = "Wacom Intuos Pro M Pen with a very long name"
        record.surface = nil
        record.client = nil
        #expect(
            record.humanLine
                == "Wacom Intuos Pro M Pen with a very long name CANCEL          +1.235s  #3  pen               progress 0.250  at (10.5, 20.0)  desynchronised",
            "a long name is never cut; it pushes the columns of its own line only")
        #expect(
            record.humanLine(nameWidth: 50)
                == "Wacom Intuos Pro M Pen with a very long name       CANCEL          +1.235s  #3  pen               progress 0.250  at (10.5, 20.0)  desynchronised"
        )
        record.phase = .completed
        #expect(record.humanLine.hasSuffix("completed"))
        #expect(
            TraceFormat.human.format(record) == record.humanLine && TraceFormat.json.format(record) == record.jsonLine)
    }

    @Test("Engine actions become records; timers don't")
    func fromActions() {
        let update = PhaseUpdate(
            interaction: InteractionID(1), surface: SurfaceID(2), contact: ContactKey(device: DeviceID(0)),
            time: Timestamp(milliseconds: 5), progress: 1, location: .zero, source: .touchpad,
            simulated: true)
        let completed = TraceRecord(.phase(.completed, update), device: "pad")
        #expect(completed?.isFinal == true && completed?.event == .commit && completed?.ended == true)
        let peek = TraceRecord(.phase(.previewEnded, update), device: "pad")
        #expect(peek?.event == .preview && peek?.ended == true && peek?.phaseAfter == .commit)
        #expect(TraceRecord(.phase(.previewBegan, update), device: "pad")?.ended == false)
        #expect(TraceRecord(.askShouldBegin(update), device: "pad")?.event == .shouldBegin)
        #expect(TraceRecord(.phase(.cancelled(.moved), update), device: "pad")?.reason == .moved)
        #expect(TraceRecord(.scheduleTimer(nil), device: "pad") == nil)
    }
}
