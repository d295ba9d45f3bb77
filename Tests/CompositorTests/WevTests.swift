import Foundation
import Testing

/// `wev` (a real client that prints every wl_pointer / wl_keyboard event) driven by the
/// hand-written mouse and keyboard recordings.
@Suite(.serialized) struct WevTests {
    @Test func mouseAndKeyboardRecordingsReachWev() throws {
        let directory = TestRuntime.temporaryDirectory("wev")
        let log = directory + "/wev.log"
        let recordings = ReplayRunTests.recordings
        // The replay starts when wev's window is mapped; we wait for wev to print the last event of
        // the keyboard recording (the release of "i"), then stop the compositor with SIGTERM.
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket",
                TestRuntime.uniqueSocket(),
                "--replay", recordings + "/handwritten-usb-mouse.yml", recordings + "/handwritten-usb-keyboard.yml",
                "--run", "stdbuf -oL wev > \(log) 2>&1",
            ], socket: "", environment: [:])
        let lastKey = "key: 31; state: 0 (released)"  // xkb keycode 31 = evdev KEY_I (23) + 8
        process.waitForText(in: log) { $0.contains(lastKey) }
        process.child.signal(SIGTERM)
        let run = process.finish(timeout: 20)
        #expect(run.status == 0 && !run.timedOut, "SIGTERM is a clean shutdown: \(run.output)")
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        // Pointer: enter, motion, the left button down and up, one wheel notch, frames.
        #expect(output.contains("wl_pointer] enter"), "\(output.suffix(2000))")
        #expect(output.contains("wl_pointer] motion"))
        #expect(output.contains("button: 272 (left), state: 1 (pressed)"))
        #expect(output.contains("button: 272 (left), state: 0 (released)"))
        #expect(output.contains("wl_pointer] axis"))
        #expect(output.contains("wl_pointer] frame"))
        // Keyboard: keymap, focus, "Hi" typed with shift.
        #expect(output.contains("wl_keyboard] keymap"))
        #expect(output.contains("wl_keyboard] enter"))
        #expect(output.contains("sym: H "), "shift + h gives H")
        #expect(output.contains("sym: i "))
        #expect(output.contains(lastKey), "\(output.suffix(2000))")
        #expect(output.contains("wl_keyboard] modifiers"))
    }

    @Test func libinputWithoutDevicesIsAOneLineError() throws {
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket",
                TestRuntime.uniqueSocket(), "--libinput",
            ],
            socket: "", environment: [:])
        let run = process.finish(timeout: 30)
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("preview-compositor: cannot use libinput: "), "\(run.output)")
        #expect(run.output.filter { $0 == "\n" }.count == 1, "\(run.output)")
    }
}
