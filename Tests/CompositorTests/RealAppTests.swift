import Foundation
import InputEvents
import PreviewCompositor
import PreviewEngine
import Testing
import _FixtureTestSupport

/// Apps people run, in the headless compositor: GTK 4's widget factory maps a window that
/// shows its widgets, and foot shows (and its shell reads) what is typed on the keyboard.
@Suite(.serialized) struct RealAppTests {
    /// How many distinct colours a grid of samples over the window finds: a blank window has one
    /// or two, a window of widgets and text many.
    static func coloursShown(_ compositor: Compositor) -> Int {
        guard let window = compositor.windows.first?.rect else { return 0 }
        let framebuffer = compositor.framebuffer  // painted at every output frame
        var colours = Set<UInt32>()
        for row in 0..<40 {
            for column in 0..<40 {
                let x = window.x + window.width * Int32(column) / 40
                let y = window.y + window.height * Int32(row) / 40
                guard x >= 0, y >= 0, x < framebuffer.width, y < framebuffer.height else { continue }
                colours.insert(framebuffer.pixel(x: x, y: y))
            }
        }
        return colours.count
    }

    /// Pixels of the window's top-left 64×24 (a terminal's first characters) that differ from
    /// its bottom-right corner (its background).
    static func inkAtTopLeft(_ compositor: Compositor) -> Int {
        guard let window = compositor.windows.first?.rect, window.width > 64, window.height > 24 else { return 0 }
        let framebuffer = compositor.framebuffer
        let background = framebuffer.pixel(x: window.x + window.width - 2, y: window.y + window.height - 2)
        var ink = 0
        for y in window.y..<(window.y + 24) {
            for x in window.x..<(window.x + 64) where framebuffer.pixel(x: x, y: y) != background { ink += 1 }
        }
        return ink
    }

    static let quietGTK = ["GSK_RENDERER": "cairo", "GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none"]

    @Test func gtk4WidgetFactoryShowsItsWidgets() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let app = try startClient(["gtk4-widget-factory"], socket: compositor.socketName, environment: Self.quietGTK)
        defer { _ = app.terminate() }
        let shown = compositor.wait(timeout: 60) { $0.windows.count == 1 && Self.coloursShown($0) >= 12 }
        let path = TestRuntime.temporaryDirectory("gtk4") + "/gtk4-widget-factory.png"
        compositor.sync { try? $0.writeScreenshot(to: path) }
        #expect(shown, "gtk4-widget-factory drew no widgets (see \(path)): \(app.output)")
    }

    /// A click on the widget factory's drop-down opens its list as a popover: an xdg_popup,
    /// mapped above the window and drawn; a click outside it closes it.
    @Test func gtk4DropDownOpensAsAPopup() throws {
        let compositor = try startCompositor { $0.input = .injected }
        defer { compositor.stop() }
        let app = try startClient(["gtk4-widget-factory"], socket: compositor.socketName, environment: Self.quietGTK)
        defer { _ = app.terminate() }
        #expect(compositor.wait(timeout: 60) { $0.windows.count == 1 && Self.coloursShown($0) >= 12 }, "\(app.output)")
        // A mouse clicks the "Andrea" drop-down of page 1; each event in a frame of its own.
        compositor.sync { compositor in
            guard let mouse = compositor.injectedInput else { return }
            let device = mouse.addDevice(named: "test mouse")
            mouse.pointer(device, movedTo: Point(x: 505, y: 250))
            compositor.inject(.frame(TouchCommitTests.now()))
            mouse.pointer(device, button: 0x110, pressed: true)
            compositor.inject(.frame(TouchCommitTests.now()))
            mouse.pointer(device, button: 0x110, pressed: false)
            compositor.inject(.frame(TouchCommitTests.now()))
        }
        let opened = compositor.wait(timeout: 20) { compositor in
            compositor.popups.contains { $0.rect.width > 40 && $0.rect.height > 40 }
        }
        let path = TestRuntime.temporaryDirectory("gtk4-popup") + "/drop-down.png"
        compositor.sync { try? $0.writeScreenshot(to: path) }
        #expect(opened, "no popover opened (see \(path)): \(app.output)")
        // A click outside the grabbing popover dismisses it (popup_done).
        compositor.sync { compositor in
            guard let mouse = compositor.injectedInput else { return }
            let device = mouse.addDevice(named: "second test mouse")
            mouse.pointer(device, movedTo: Point(x: 1040, y: 500))
            mouse.pointer(device, button: 0x110, pressed: true)
            mouse.pointer(device, button: 0x110, pressed: false)
            compositor.inject(.frame(TouchCommitTests.now()))
        }
        #expect(compositor.wait(timeout: 20) { $0.popups.isEmpty }, "the popover stayed open: \(app.output)")
    }

    /// GTK 3 sizes a window to its content: a long wrapped label gives a buffer far taller than
    /// any limit on a buffer's side (here above 8192), which the compositor serves, showing its top.
    @Test func gtk3WindowTallerThanTheOutputIsServed() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let fixture =
            String(Fixtures.directory.dropLast("Sources/BundledRecordings/recordings".count))
            + "Tests/Fixtures/lookup/gtk3-text.py"
        let app = try startClient(
            ["/usr/bin/python3", fixture, "--long"], socket: compositor.socketName,
            environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"])
        defer { _ = app.terminate() }
        let shown = compositor.wait(timeout: 60) { compositor in
            compositor.windows.first.map { $0.rect.height > 8192 } == true
                && Self.coloursShown(compositor) >= 3
        }
        let path = TestRuntime.temporaryDirectory("gtk3-tall") + "/gtk3-tall.png"
        compositor.sync { try? $0.writeScreenshot(to: path) }
        let window = compositor.sync { $0.windows.first?.rect }
        #expect(shown, "no tall GTK 3 window shown (see \(path)), window \(String(describing: window)): \(app.output)")
        #expect(app.isRunning, "the app was disconnected: \(app.output)")
    }

    @Test func footShowsAndReadsWhatIsTyped() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let directory = TestRuntime.temporaryDirectory("foot")
        let (ready, typed) = (directory + "/ready", directory + "/typed")
        // The shell reads two characters as they are typed (no Enter), then keeps the window open.
        let script = "stty -icanon; echo ready > \(ready); head -c 2 > \(typed); cat"
        let foot = try startClient(
            ["foot", "--override=font=DejaVu Sans Mono:size=12", "sh", "-c", script], socket: compositor.socketName,
            environment: ["LC_ALL": "C.UTF-8"])
        defer { _ = foot.terminate() }
        _ = foot.waitForText(in: ready) { $0.contains("ready") }
        #expect(compositor.wait(timeout: 20) { $0.windows.count == 1 })
        // Shift+H, i.
        let keys: [(UInt16, Bool)] = [(42, true), (35, true), (35, false), (42, false), (23, true), (23, false)]
        compositor.sync { compositor in
            for (code, pressed) in keys {
                compositor.inject(
                    .key(KeyState(device: DeviceID(7), time: TouchCommitTests.now(), code: code, pressed: pressed)))
            }
        }
        let text = foot.waitForText(in: typed, timeout: 20) { $0.count >= 2 }
        #expect(text == "Hi", "\(foot.output)")
        // "Hi" and the cursor block: a few hundred pixels of ink.
        let drawn = compositor.wait(timeout: 20) { Self.inkAtTopLeft($0) >= 100 }
        compositor.sync { try? $0.writeScreenshot(to: directory + "/foot.png") }
        #expect(drawn, "foot's window shows nothing (see \(directory)/foot.png)")
    }
}
