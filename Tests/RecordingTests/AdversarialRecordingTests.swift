import Foundation
import LibinputRecording
import Testing

/// Files made to hurt the reader: depth, width, size and bytes no recording has. Each must end
/// in one `file:line: reason` (or be read), with the stack and memory the file's size allows.
@Suite("Adversarial recordings")
struct AdversarialRecordingTests {
    /// Reads `text` as a recording and returns the error (nil if it was read).
    func error(of text: String) throws -> RecordingError? {
        let path = try scratchFile(text)
        defer { removeScratch(path) }
        do {
            _ = try readAll(path)
            return nil
        } catch {
            return error
        }
    }

    @Test("20,000 nested '[' on one line is a depth error, not a stack overflow")
    func deepFlowNesting() throws {
        for opener in ["[", "{a: ", "[{b: "] {
            let text = "version: 1\nndevices: " + String(repeating: opener, count: 20_000) + "\n"
            let failure = try #require(try error(of: text))
            #expect(failure.line == 2)
            #expect(failure.reason.contains("nested deeper than 64"), "\(failure)")
        }
    }

    @Test("A header line of 25,000 '- ' is a depth error, in memory linear in the line")
    func deepBlockNesting() throws {
        let text = "version: 1\ndevices:\n" + String(repeating: "- ", count: 25_000) + "x\n"
        let before = residentBytes()
        let failure = try #require(try error(of: text))
        #expect(failure.line == 3)
        #expect(failure.reason.contains("nested deeper than 64"), "\(failure)")
        // The quadratic reader copied the rest of the line at every level: 625 MB here.
        #expect(residentBytes() - before < 64 << 20)
    }

    @Test("Deep maps by indentation are a depth error")
    func deepIndentation() throws {
        var text = "version: 1\n"
        for level in 0..<200 { text += String(repeating: " ", count: level) + "k\(level):\n" }
        let failure = try #require(try error(of: text))
        #expect(failure.reason.contains("nested deeper than 64"), "\(failure)")
    }

    @Test("Nesting libinput writes (and a little more) still reads")
    func shallowNestingReads() throws {
        let nested = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        let text = Template.replacing("  hid: [", with: "  extra: \(nested)\n  hid: [")
        #expect(try error(of: text) == nil)
    }

    @Test("Wide flow lists and long lines read in linear time and memory")
    func wideFlow() throws {
        let wide = "[" + Array(repeating: "1", count: 200_000).joined(separator: ", ") + "]"
        let text = Template.replacing("  hid: [", with: "  extra: \(wide)\n  hid: [")
        let start = ContinuousClock.now
        #expect(try error(of: text) == nil)
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test("A header past 4 MiB is an error where it crosses the limit: nothing after it is read")
    func hugeHeader() throws {
        // 2,000 lines of about 3 KB in one flow list: 6 MB, all of it valid YAML.
        let row = "    " + Array(repeating: "1", count: 1_000).joined(separator: ", ") + ",\n"
        let wide = "[\n" + String(repeating: row, count: 2_000) + "    1]"
        let text = Template.replacing("  hid: [", with: "  extra: \(wide)\n  hid: [")
        let failure = try #require(try error(of: text))
        #expect(failure.reason.contains("header longer than 4 MiB"), "\(failure)")
        // The line that crossed 4 MiB, not the end of the list.
        let crossing = (4 << 20) / row.utf8.count
        #expect((crossing...crossing + 40).contains(failure.line), "\(failure)")
    }

    @Test("A frame of 20,000 events without a SYN_REPORT is an error: each replay step stays bounded")
    func hugeFrame() throws {
        let event = "- [  0,  20000,   3,  24,     800]"
        let text = Template.replacing(event, with: String(repeating: event + "\n    ", count: 20_000) + event)
        let failure = try #require(try error(of: text))
        #expect(failure.reason.contains("more than 10000 events before a SYN_REPORT"), "\(failure)")
    }

    @Test("Control bytes from the file are escaped in error messages")
    func controlBytesEscaped() throws {
        let failure = try #require(try error(of: "version: 1\nndevices: [1] \u{1b}[2J\u{7}junk\n"))
        #expect(!failure.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(failure.description.contains("\\u{1B}"), "\(failure)")
    }

    @Test("A file of lone CRs is reported as such, not as empty")
    func loneCarriageReturns() throws {
        let failure = try #require(try error(of: String(repeating: "version: 1\r", count: 50)))
        #expect(failure.line == 1)
        #expect(failure.reason.contains("carriage return"), "\(failure)")
        let onlyCRs = try #require(try error(of: String(repeating: "\r", count: 1000)))
        #expect(onlyCRs.reason.contains("carriage return"), "\(onlyCRs)")
    }
}

/// This process's resident set in bytes (from /proc/self/statm).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
