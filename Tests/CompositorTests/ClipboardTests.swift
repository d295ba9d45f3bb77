import Foundation
import InputEvents
import PreviewEngine
import Testing

/// The clipboard between real clients: Debian's `wl-copy`/`wl-paste`, and peek-client's "Copy"
/// quick action pasted with `wl-paste`.
@Suite(.serialized) struct ClipboardTests {
    @Test func wlCopyThenWlPasteRoundTrips() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let text = "copied through preview-compositor ✓"
        let copy = try startClient(["wl-copy", "--foreground", text], socket: compositor.socketName)
        defer { _ = copy.terminate() }
        // wl-copy sets the selection once its surface has the keyboard focus.
        let selected = compositor.wait(timeout: 20) {
            $0.selectionMimeTypes?.contains("text/plain;charset=utf-8") == true
        }
        #expect(selected, "wl-copy never set a selection: \(copy.output)")
        let paste = try runClient(["wl-paste", "--no-newline"], socket: compositor.socketName)
        #expect(paste.status == 0 && !paste.timedOut)
        #expect(paste.output == text, "\(paste.output)")
    }

    @Test func peekClientsCopyActionIsPastedByWlPaste() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let log = TestRuntime.temporaryDirectory("clipboard") + "/peek.log"
        let peek = try startClient(
            ["sh", "-c", "exec \(ReplayRunTests.binaries)/peek-client --log > \(log) 2>&1"],
            socket: compositor.socketName)
        defer { _ = peek.terminate() }
        #expect(compositor.wait(timeout: 20) { $0.windows.count == 1 })
        // The keyboard's way to the quick actions: Menu, down to "Copy" (Share, Love, Nope, Copy), Enter.
        for code: UInt16 in [127, 108, 108, 108, 108, 28] {
            compositor.sync { compositor in
                for pressed in [true, false] {
                    let now = TouchCommitTests.now()
                    compositor.inject(.key(KeyState(device: DeviceID(7), time: now, code: code, pressed: pressed)))
                }
            }
        }
        let output = peek.waitForText(in: log) { $0.contains("result=performed action=copy") }
        let title =
            output.split(separator: "\n").first { $0.contains("action=copy") }?
            .components(separatedBy: "title=\"").last?.dropLast() ?? ""
        #expect(!title.isEmpty, "\(output)")
        #expect(compositor.wait(timeout: 20) { $0.selectionMimeTypes?.contains("text/plain") == true })
        let paste = try runClient(["wl-paste", "--no-newline", "--type", "text/plain"], socket: compositor.socketName)
        #expect(paste.status == 0 && !paste.timedOut)
        #expect(paste.output == String(title), "\(paste.output) vs \(output)")
    }
}
