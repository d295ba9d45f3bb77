import Testing

@testable import PreviewProtocolServer

/// The private channel's frames, as preview-lookup writes them (lookup.h): whole frames out of
/// any chunking, a frame over the limit ends the channel, a malformed body is no message.
@Suite struct LookupChannelTests {
    static func answerBody(word: String) -> [UInt8] {
        var body: [UInt8] = []
        func u32(_ value: UInt32) { withUnsafeBytes(of: value) { body.append(contentsOf: $0) } }
        func string(_ text: String) {
            withUnsafeBytes(of: UInt16(text.utf8.count)) { body.append(contentsOf: $0) }
            body.append(contentsOf: text.utf8)
        }
        for value: UInt32 in [101, 7, 1, 10, 20, 30, 12, 4_800] { u32(value) }
        for text in ["gtk 3.24.38", word, "", "verb: move forward by leaps and bounds"] { string(text) }
        return body
    }

    static func frame(_ body: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt32(body.count)) { Array($0) } + body
    }

    @Test func anAnswerSplitAnywhereIsReadWhole() throws {
        let bytes = Self.frame(Self.answerBody(word: "jumps")) + Self.frame([103, 0, 0, 0, 7, 0, 0, 0])
        for split in 1..<bytes.count {
            var reader = LookupChannel.FrameReader()
            var messages: [LookupChannel.Message] = []
            for part in [bytes[..<split], bytes[split...]] {
                Array(part).withUnsafeBytes { reader.append($0) }
                while let body = reader.next() { messages.append(try #require(LookupChannel.decode(body))) }
            }
            let answer = LookupChannel.Answer(
                id: 7, kind: .word, extents: LookupRect(x: 10, y: 20, width: 30, height: 12), microseconds: 4_800,
                toolkit: "gtk 3.24.38", word: "jumps", link: "", definition: "verb: move forward by leaps and bounds")
            #expect(messages == [.answer(answer), .dismiss(id: 7)], "split at \(split)")
        }
    }

    @Test func aFrameOverTheLimitEndsTheChannelAndABrokenBodyIsNoMessage() {
        var reader = LookupChannel.FrameReader()
        Self.frame([UInt8](repeating: 0, count: LookupChannel.frameLimit + 1)).withUnsafeBytes { reader.append($0) }
        #expect(reader.next() == nil)
        #expect(reader.overrun)
        let truncated = Array(Self.answerBody(word: "jumps").dropLast(5))
        #expect(LookupChannel.decode(truncated[...]) == nil)
        #expect(LookupChannel.decode([200, 0, 0, 0][...]) == nil, "a newer message is skipped")
    }

    @Test func aRequestIsOneFrameEndingWithTheDeadline() {
        let bytes = LookupChannel.encode(
            .lookUp(id: 3, pid: 42, x: -5, y: 9, geometryX: 1, geometryY: 2, deadline: 2000))
        #expect(bytes.count == 4 + 8 * 4)
        #expect(Array(bytes[0..<8]) == [32, 0, 0, 0, 1, 0, 0, 0])
        #expect(
            Array(bytes[32...]) == [0xd0, 0x07, 0, 0], "the deadline, 2000 ms, last (preview-lookup reads 7 words)")
        let caret = LookupChannel.encode(
            .lookUpCaret(id: 3, pid: 42, x: -5, y: 9, geometryX: 1, geometryY: 2, deadline: 2000))
        #expect(Array(caret[0..<8]) == [32, 0, 0, 0, 3, 0, 0, 0], "the caret request is type 3")
        #expect(caret[8...] == bytes[8...], "with the same body")
    }

    @Test func anyHostCoordinateBecomesAPixelWithoutATrap() {
        #expect(LookupDriver.pixel(12.7) == 12 && LookupDriver.pixel(-0.5) == -1)
        #expect(LookupDriver.pixel(1e300) == 1_048_576 && LookupDriver.pixel(-1e300) == -1_048_576)
        #expect(LookupDriver.pixel(.nan) == 0 && LookupDriver.pixel(.infinity) == 0)
    }
}
