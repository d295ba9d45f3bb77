import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import Testing
import _FixtureTestSupport

@Suite("Reading traces back")
struct TraceReaderTests {
    @Test("Every line preview-replay writes reads back as the same record", arguments: Fixtures.pens)
    func roundTrip(name: String) throws {
        let trace = try replayTrace(name)
        #expect(!trace.records.isEmpty)
        let read = try TraceReader.parse(trace.text, file: name)
        #expect(read == trace.records)
    }

    @Test("The compositor's extra fields (surface, client) read back")
    func compositorFields() throws {
        var record = try #require(try replayTrace("dell-canvas-isdv4-pen.yml").records.last)
        record.surface = SurfaceID(7)
        record.client = "peek-client \"a\""
        #expect(try TraceReader.record(record.jsonLine) == record)
    }

    @Test("A haptic pad's lines (\"event\":\"haptic\") are not phase records: skipped")
    func hapticLinesSkipped() throws {
        let trace = try replayTrace("dell-canvas-isdv4-pen.yml")
        let haptic = HapticRecord(
            device: "pad \"x\"", effect: "deep-click", waveform: 0x1003, time: Timestamp(microseconds: 5))
        let lines = trace.text.split(separator: "\n").map(String.init)
        let mixed = ([haptic.jsonLine] + lines.prefix(2) + [haptic.jsonLine] + lines.dropFirst(2)).joined(
            separator: "\n")
        #expect(try TraceReader.parse(mixed) == trace.records)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(haptic.jsonLine.utf8)) as? [String: Any])
        #expect(object["device"] as? String == "pad \"x\"" && object["waveform"] as? Int == 4099)
    }

    @Test("A line that is not a record is an error naming the file and line")
    func badLines() throws {
        let good = String(try #require(try replayTrace("dell-canvas-isdv4-pen.yml").text.split(separator: "\n").first))
        for (bad, reason) in [
            ("{\"time_us\":1", "not JSON"), ("[1,2]", "not a JSON object"),
            (good.replacingOccurrences(of: "\"preview\"", with: "\"peek\""), "unknown event \"peek\""),
            (
                good.replacingOccurrences(of: "\"source\":\"pen\"", with: "\"source\":3"),
                "\"source\" missing or not a string"
            ),
        ] {
            #expect(throws: TraceError(file: "t.jsonl", line: 3, reason: reason)) {
                try TraceReader.parse("\(good)\n\n\(bad)\n", file: "t.jsonl")
            }
        }
    }
}

@Suite("Interactions of a trace")
struct InteractionStoryTests {
    @Test("The Dell pen: a 47 ms stroke lifted at once, then the peek and pop: preview, commit, completed")
    func dellCompletes() throws {
        let stories = InteractionStory.stories(of: try replayTrace("dell-canvas-isdv4-pen.yml").records)
        #expect(stories.map(\.outcome) == [.cancelled(.lifted), .completed])
        // libinput's pressure thresholds lift the tip in the pressure dip at 6.64 s.
        let short = try #require(stories.first)
        #expect(short.phaseChanges.map(\.phaseAfter) == [.preview, .cancelled])
        #expect(short.commitStart == nil && short.peakPreview < 0.05)
        #expect(short.end.microseconds - short.start.microseconds < 50_000)
        let story = try #require(stories.last)
        #expect(story.source == .pen)
        #expect(story.phaseChanges.map(\.phaseAfter) == [.preview, .commit, .completed])
        let commitStart = try #require(story.commitStart)
        #expect(short.end < story.start && story.start < commitStart && commitStart < story.end)
        #expect(story.peakPreview == 1 && story.peakCommit == 1)
    }

    @Test("The UC-Logic pen peeks and lets go: preview, cancelled (lifted)")
    func uclogicCancels() throws {
        let stories = InteractionStory.stories(of: try replayTrace("uclogic-wp5540u-pen.yml").records)
        #expect(stories.map(\.outcome) == [.cancelled(.lifted)])
        #expect(stories[0].commitStart == nil)
        #expect(stories[0].phaseChanges.map(\.phaseAfter) == [.preview, .cancelled])
        #expect(stories[0].peakPreview > 0.5)
    }

    @Test("A trace cut short leaves its interaction unfinished")
    func cutShort() throws {
        let records = try replayTrace("dell-canvas-isdv4-pen.yml").records
        let stories = InteractionStory.stories(of: Array(records.prefix(records.count / 2)))
        #expect(stories.map(\.outcome) == [.cancelled(.lifted), .unfinished])
    }
}

@Suite struct TraceReaderLookUpLineTests {
    @Test func lookUpLinesAreSkippedLikeHapticOnes() throws {
        let lookup =
            #"{"answer_us":4815,"event":"lookup","interaction":2,"outcome":"found","word":"jumps"}"#
            + "\n" + #"{"event":"lookup-panel","first_frame_us":12266}"#
        #expect(try TraceReader.parse(lookup).isEmpty)
    }
}
