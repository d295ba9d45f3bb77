import Foundation
import SystemLayer
import Testing
import UmockdevHarness

/// The testbed's shim gives libinput whole events, as the kernel's evdev does, even when the
/// pty hands out part of one: libevdev takes such a read for an error, and libinput then stops
/// reading the device for good (the stream seems to stop mid-stroke).
@Test(.enabled(if: FileManager.default.fileExists(atPath: LibinputTestbed.shim.path), "the shim is not built"))
func aReadNeverEndsInsideAnEvent() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let testbed = NSTemporaryDirectory() + "shim-whole-events-\(getpid())"
    try FileManager.default.createDirectory(atPath: testbed, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: testbed) }
    let run = try ChildProcess.run(
        ["/usr/bin/python3", root.appendingPathComponent("Tests/python/evdev_partial_read.py").path],
        environment: ["LD_PRELOAD": LibinputTestbed.shim.path, "UMOCKDEV_DIR": testbed], timeout: 60)
    #expect(run.status == 0, "\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
        lines == [
            "short buffer: Invalid argument",
            "part of an event: EAGAIN",
            "its rest: 3:24:94 0:0:0 3:24:95 0:0:0",
            "blocking: 3:24:96 0:0:0",
        ], "\(run.output)\(run.errors)")
}

/// In a noop session the compositor's libinput and the embedded library each read the node;
/// umockdev has one pty, so the shim hands the library's read-only descriptor a copy of what
/// libinput read (the kernel gives every descriptor its own), and a SYN_DROPPED when the copies
/// overflowed the kernel's buffer.
@Test(.enabled(if: FileManager.default.fileExists(atPath: LibinputTestbed.shim.path), "the shim is not built"))
func aSecondReaderReadsItsOwnCopy() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let testbed = NSTemporaryDirectory() + "shim-second-reader-\(getpid())"
    try FileManager.default.createDirectory(atPath: testbed, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: testbed) }
    let run = try ChildProcess.run(
        ["/usr/bin/python3", root.appendingPathComponent("Tests/python/evdev_second_reader.py").path],
        environment: ["LD_PRELOAD": LibinputTestbed.shim.path, "UMOCKDEV_DIR": testbed, "LIBSEAT_BACKEND": "noop"],
        timeout: 60)
    #expect(run.status == 0, "\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
        lines == [
            "before any event: EAGAIN",
            "libinput: 3:24:94 0:0:0 3:24:95 0:0:0",
            "second: 3:24:94 0:0:0 3:24:95 0:0:0",
            "then: EAGAIN",
            // The 1025th event found the buffer full: SYN_DROPPED, then it (frame 512's pressure).
            "overflowed: 0:3:0 3:24:612 0:0:0",
        ], "\(run.output)\(run.errors)")
}
