import Foundation
import LibinputRecording
import Synchronization
import Testing
import _FixtureTestSupport

/// A pipe the test writes into from another thread, read as `/dev/fd/N` (what `-`, a shell's
/// `<(libinput record …)` and a FIFO all are: a stream without offsets).
final class WrittenPipe: @unchecked Sendable {
    let path: String
    private let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        // A child another test starts meanwhile must not inherit the write end: the reader
        // would see the end of the stream only when that child exits.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readEnd = fds[0]
        writeEnd = fds[1]
        path = "/dev/fd/\(readEnd)"
    }

    func write(_ text: some StringProtocol) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(writeEnd, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    func closeWriting() { close(writeEnd) }

    deinit {
        close(readEnd)
    }
}

@Suite("Streams: standard input, pipes, FIFOs")
struct StreamInputTests {
    @Test("A pipe is read as it arrives: the first frame is decoded before the rest is written")
    func streaming() throws {
        let text = try String(contentsOfFile: Fixtures.path("wacom-cintiq13hd-pen.yml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstEvents = try #require(lines.firstIndex { $0.contains("- evdev:") }) + 40
        let stream = try WrittenPipe()
        let firstFrameRead = DispatchSemaphore(value: 0)
        let writerWaited = Mutex(false)
        let writer = Thread {
            stream.write(lines[..<firstEvents].joined(separator: "\n") + "\n")
            // Blocks until the reader has a frame; a reader that waits for the end never signals.
            let answered = firstFrameRead.wait(timeout: .now() + 60) == .success
            writerWaited.withLock { $0 = answered }
            stream.write(lines[firstEvents...].joined(separator: "\n"))
            stream.closeWriting()
        }
        writer.start()
        let recording = try Recording.open(stream.path)
        #expect(recording.path == stream.path)
        let frames = try recording.frames()
        var count = 0
        while try frames.nextFrame() != nil {
            if count == 0 { firstFrameRead.signal() }
            count += 1
        }
        #expect(writerWaited.withLock { $0 }, "the first frame came before the rest of the stream was written")
        #expect(count == (try decodeAll(Fixtures.path("wacom-cintiq13hd-pen.yml"))).frames)
    }

    @Test("Several devices through a pipe: the same merged frames as from the file")
    func multiDevice() throws {
        let path = try scratchFile(RobustnessTests.twoDevices)
        defer { removeScratch(path) }
        let stream = try WrittenPipe()
        let writer = Thread {
            stream.write(RobustnessTests.twoDevices)
            stream.closeWriting()
        }
        writer.start()
        let piped = try decodeAll(stream.path)
        let file = try decodeAll(path)
        #expect(piped.devices == 2)
        #expect(piped.events == file.events)
        #expect(piped.frames == file.frames)
    }

    @Test("A re-saved recording through a pipe: the general reader reads the whole stream")
    func otherLayout() throws {
        let text = try pyyamlResave(Fixtures.path("wacom-cintiq13hd-pen.yml"))
        let stream = try WrittenPipe()
        let writer = Thread {
            stream.write(text)
            stream.closeWriting()
        }
        writer.start()
        let piped = try decodeAll(stream.path)
        #expect(piped.events == (try decodeAll(Fixtures.path("wacom-cintiq13hd-pen.yml"))).events)
    }

    @Test("A pipe that ends early: the same line-numbered error as the file")
    func truncated() throws {
        // Cut inside a frame, after an event and before its SYN_REPORT.
        let text =
            Template.text.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(Template.line(of: "[  0,  30000,   1, 330")).joined(separator: "\n") + "\n"
        let path = try scratchFile(text)
        defer { removeScratch(path) }
        let stream = try WrittenPipe()
        let writer = Thread {
            stream.write(text)
            stream.closeWriting()
        }
        writer.start()
        var fromFile: RecordingError?
        var fromPipe: RecordingError?
        do { _ = try decodeAll(path) } catch let error as RecordingError { fromFile = error }
        do { _ = try decodeAll(stream.path) } catch let error as RecordingError { fromPipe = error }
        #expect(fromFile != nil)
        #expect(fromPipe?.line == fromFile?.line)
        #expect(fromPipe?.reason == fromFile?.reason)
    }
}
