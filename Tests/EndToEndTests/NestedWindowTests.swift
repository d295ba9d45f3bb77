import DemoReport
import Foundation
import PreviewCompositor
import PreviewEngine
import SystemLayer
import Testing
import _FixtureTestSupport

/// The window itself: weston (headless, pixman) shows our frames pixel for pixel, at scale 1 and
/// at scale 2; a resize by the parent resizes our output; closing the window or losing the
/// parent ends the compositor the way it says.
@Suite("preview-compositor as a window: pixels in weston, resize, scale, close, parent gone")
struct NestedWindowTests {
    /// A private runtime directory per test: the parents' sockets and ours.
    static func runtime(_ name: String = #function) -> String {
        let directory = scratchDirectory("runtime-" + name)
        chmod(directory, 0o700)
        return directory
    }

    /// Waits until `path` exists (each change in its folder wakes the check), at most `seconds`.
    static func appears(_ path: String, within seconds: Double) -> Bool {
        FileWatch.wait(inDirectoryOf: path, timeout: seconds) { FileManager.default.fileExists(atPath: path) }
    }

    /// Waits until the log at `path` contains `text`, at most `seconds`.
    static func log(_ path: String, contains text: String, within seconds: Double) -> Bool {
        FileWatch.waitForText(in: path, timeout: seconds) { $0.contains(text) }.contains(text)
    }

    /// Repeats `attempt` (each one waits on the events it needs, never sleeps) until it succeeds
    /// or `seconds` have passed; returns whether it succeeded.
    static func retried(for seconds: Double, _ attempt: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        repeat {
            if attempt() { return true }
        } while ContinuousClock.now < deadline
        return false
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// weston headless with the pixman renderer and the debug protocol (weston-screenshooter).
    /// `panel` false: no panel (it appears a while after the socket, and a window maximized
    /// before it is not made smaller again, so a test of the window's size would race it).
    static func startWeston(
        runtime: String, scale: Int, width: Int = 1600, height: Int = 1000, panel: Bool = true
    ) throws -> ChildProcess {
        var arguments = [
            "/usr/bin/weston", "--backend=headless-backend.so", "--use-pixman", "--shell=desktop-shell.so",
            "--width=\(width)", "--height=\(height)", "--scale=\(scale)", "--socket=parent", "--idle-time=0", "--debug",
        ]
        if !panel {
            try "[shell]\npanel-position=none\n".write(
                toFile: runtime + "/weston.ini", atomically: true, encoding: .utf8)
            arguments.append("--config=" + runtime + "/weston.ini")
        }
        let weston = try ChildProcess(
            arguments, environment: ["XDG_RUNTIME_DIR": runtime], output: .file(runtime + "/weston.log"))
        _ = appears(runtime + "/parent", within: 20)
        return weston
    }

    static func end(_ child: ChildProcess) {
        child.stop()
    }

    /// Where `small` sits inside `large` pixel for pixel (the window's place on the parent's
    /// output, wherever its shell put it and whatever decorations surround it), or nil.
    static func offset(of small: Picture, in large: Picture) -> (x: Int, y: Int)? {
        guard small.width <= large.width, small.height <= large.height else { return nil }
        let probes = [(0, 0), (small.width - 1, 0), (small.width / 2, small.height / 2), (0, small.height - 1)]
        for y in 0...(large.height - small.height) {
            for x in 0...(large.width - small.width) {
                guard
                    probes.allSatisfy({
                        small.pixels[$0.1 * small.width + $0.0] == large.pixels[(y + $0.1) * large.width + x + $0.0]
                    })
                else { continue }
                if small.difference(from: large.cropped(x: x, y: y, width: small.width, height: small.height)) < 0.5 {
                    return (x, y)
                }
            }
        }
        return nil
    }

    @Test("weston shows our client's pixels as our own screenshot has them", arguments: [1, 2])
    func westonShowsOurPixels(scale: Int) throws {
        let runtime = Self.runtime("weston-\(scale)")
        let weston = try Self.startWeston(runtime: runtime, scale: scale)
        defer { Self.end(weston) }
        try #require(FileManager.default.fileExists(atPath: runtime + "/parent"), "weston did not start")

        let shots = runtime + "/shots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let nested = try ChildProcess(
            [
                tools.compositor, "--backend", "wayland", "--output", "600x400", "--screenshot-dir", shots, "-v",
                "--run", "exec \(shellQuote(tools.client))",
            ], environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "parent"],
            output: .file(runtime + "/nested.log"))
        defer { Self.end(nested) }

        // Our output is 600×400 points: at scale 2 its pixels are 1200×800, shown 1:1.
        let shown = Self.shownByWeston(nested: nested, runtime: runtime, shots: shots) {
            $0.width == 600 * scale && $0.height == 400 * scale
        }
        #expect(
            shown.found,
            "weston never showed our frame (\(shown.sizes))\n\(Self.text(runtime + "/nested.log").suffix(3000))")
        // The picture is peek-client's, not an empty output.
        if let last = shown.ours {
            #expect(last.count(near: 0x20_2020) < last.width * last.height / 2, "peek-client's window fills our output")
        }
        #expect(Self.text(runtime + "/nested.log").contains("scale \(scale)") || scale == 1)
        // weston offers no xdg-decoration: libdecor decorates the window with its cairo plugin.
        #expect(
            Self.text(runtime + "/nested.log").contains("decorations: client-side (libdecor, libdecor-cairo.so)"),
            "\(Self.text(runtime + "/nested.log").suffix(3000))")
    }

    /// Takes our own picture (SIGUSR1) and weston's (its screenshooter) until ours is as
    /// `expected` and found in weston's pixel for pixel: the first frames differ while
    /// peek-client starts up and the window maps. Returns whether it was, our last picture,
    /// and the sizes seen.
    static func shownByWeston(
        nested: ChildProcess, runtime: String, shots: String, expected: (Picture) -> Bool
    ) -> (found: Bool, ours: Picture?, sizes: String) {
        var taken = 0
        var found: (x: Int, y: Int)?
        var sizes = ""
        var ours: Picture?
        // SIGUSR1 before the compositor handles it would end it: wait until it listens.
        guard Self.log(runtime + "/nested.log", contains: "listening on", within: 30) else { return (false, nil, "") }
        _ = Self.retried(for: 60) {
            nested.signal(SIGUSR1)
            taken += 1
            let path = shots + String(format: "/%04d-on-demand.png", taken)
            guard Self.appears(path, within: 10), let picture = Picture(path: path)
            else { return false }
            ours = picture
            let screenshot = runtime + "/weston-\(taken)"
            try? FileManager.default.createDirectory(atPath: screenshot, withIntermediateDirectories: true)
            let environment = ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "parent"]
            guard (try? runIn(screenshot, ["/usr/bin/weston-screenshooter"], environment: environment)) == 0,
                let file = try? FileManager.default.contentsOfDirectory(atPath: screenshot).first(where: {
                    $0.hasSuffix(".png")
                }),
                let westonPicture = Picture(path: screenshot + "/" + file)
            else { return false }
            sizes = "ours \(picture.width)x\(picture.height), weston's \(westonPicture.width)x\(westonPicture.height)"
            guard expected(picture) else { return false }
            found = offset(of: picture, in: westonPicture)
            return found != nil
        }
        return (found != nil, ours, sizes)
    }

    @Test(
        "On a 1024x640 parent output the window fits, title bar and all: maximized by the parent, as decorated as it says",
        arguments: [true, false])
    func fitsASmallParentOutput(withPlugin: Bool) throws {
        let runtime = Self.runtime("small-\(withPlugin)")
        let weston = try Self.startWeston(runtime: runtime, scale: 1, width: 1024, height: 640, panel: false)
        defer { Self.end(weston) }
        try #require(FileManager.default.fileExists(atPath: runtime + "/parent"), "weston did not start")
        let shots = runtime + "/shots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        // Without a plugin (an empty plugin folder) libdecor draws nothing, and we say so.
        let emptyPlugins = runtime + "/no-plugins"
        try FileManager.default.createDirectory(atPath: emptyPlugins, withIntermediateDirectories: true)
        var environment = ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "parent"]
        if !withPlugin { environment["LIBDECOR_PLUGIN_DIR"] = emptyPlugins }
        let log = runtime + "/nested.log"
        let nested = try ChildProcess(
            [
                tools.compositor, "--backend", "wayland", "--screenshot-dir", shots, "--run",
                "exec \(shellQuote(tools.client))",
            ], environment: environment, output: .file(log))
        defer { Self.end(nested) }

        // Smaller than the default 1280x800: the output's size, less the title bar when there is one.
        let shown = Self.shownByWeston(nested: nested, runtime: runtime, shots: shots) {
            $0.width == 1024 && (withPlugin ? $0.height < 640 : $0.height == 640)
        }
        #expect(shown.found, "weston never showed all of our frame (\(shown.sizes))\n\(Self.text(log).suffix(3000))")
        #expect(Self.text(log).contains("window on the parent compositor: 1024x"), "\(Self.text(log).suffix(3000))")
        let decorations =
            withPlugin
            ? "decorations: client-side (libdecor, libdecor-cairo.so)" : "decorations: none (libdecor found no plugin"
        #expect(Self.text(log).contains(decorations), "\(Self.text(log).suffix(3000))")
    }

    /// Our compositor in-process as the parent, and the executable `--backend wayland` with
    /// `extra` and peek-client in it, its window mapped in the parent (the log is runtime/nested.log).
    static func nestedInParent(runtime: String, _ extra: [String], name: String = #function) throws -> (
        CompositorThread, ChildProcess, [String: String]
    ) {
        _ = TestRuntimeDirectory.path  // the in-process parent opens its socket there
        var configuration = CompositorConfiguration()
        configuration.socketName = "parent-\(getpid())-\(name.prefix { $0.isLetter })"
        let parent = try CompositorThread(configuration: configuration)
        let environment = ["XDG_RUNTIME_DIR": TestRuntimeDirectory.path, "WAYLAND_DISPLAY": parent.socketName]
        let nested = try ChildProcess(
            [tools.compositor, "--backend", "wayland"] + extra + ["--run", "exec \(shellQuote(tools.client))"],
            environment: environment, output: .file(runtime + "/nested.log"))
        #expect(parent.wait(timeout: 30) { $0.windows.count == 1 }, "the nested window never mapped")
        return (parent, nested, environment)
    }

    @Test("The parent makes the window narrower: our output, its wl_output mode and our client follow")
    func resize() throws {
        let runtime = Self.runtime()
        let socket = "nested-\(getpid())-resize"
        let shots = runtime + "/shots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let (parent, nested, environment) = try Self.nestedInParent(
            runtime: runtime, ["--socket", socket, "--screenshot-dir", shots, "-v"])
        defer {
            Self.end(nested)
            parent.stop()
        }

        // A second window in the parent: the tiling gives each half the width.
        let other = try ChildProcess(
            ["/usr/bin/weston-simple-shm"], environment: environment, output: .file(runtime + "/shm.log"))
        defer { Self.end(other) }
        #expect(parent.wait(timeout: 30) { $0.windows.count == 2 })
        #expect(
            Self.log(runtime + "/nested.log", contains: "output mode 640x800 scale 1", within: 30),
            "\(Self.text(runtime + "/nested.log").suffix(2000))")

        // Clients of the nested compositor see the new mode (wayland-info, a third-party client).
        let info = try ChildProcess.run(
            ["/usr/bin/wayland-info"], environment: environment.merging(["WAYLAND_DISPLAY": socket]) { $1 },
            errors: .discard
        ).output
        #expect(info.contains("width: 640 px, height: 800 px"), "\(info.prefix(3000))")
        // And peek-client redraws at the new width: our next frame is 640 wide and full.
        var width = 0
        var taken = 0
        #expect(
            Self.retried(for: 30) {
                nested.signal(SIGUSR1)
                taken += 1
                let path = shots + String(format: "/%04d-on-demand.png", taken)
                guard Self.appears(path, within: 10), let shot = Picture(path: path)
                else { return false }
                width = shot.width
                return shot.width == 640 && shot.count(near: 0x20_2020) < shot.width * shot.height / 10
            }, "last shot \(width) wide")
    }

    @Test("Closing the window stops the compositor cleanly (status 0)")
    func closed() throws {
        let runtime = Self.runtime()
        let (parent, nested, _) = try Self.nestedInParent(runtime: runtime, [])
        defer {
            Self.end(nested)
            parent.stop()
        }
        let window = try #require(parent.sync { $0.windows.first?.surface })
        parent.sync { $0.requestClose(window) }
        let status = nested.wait(timeout: 30)
        #expect(status == 0, "\(Self.text(runtime + "/nested.log"))")
        #expect(Self.text(runtime + "/nested.log").contains("the window was closed"))
        #expect(parent.wait(timeout: 10) { $0.windows.isEmpty }, "the window is gone from the parent")
    }

    @Test("The parent going away ends the compositor with one line and status 1")
    func parentKilled() throws {
        let runtime = Self.runtime()
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let parent = try ChildProcess(
            [tools.compositor, "--backend", "headless", "--socket", "parent"], environment: environment,
            output: .file(runtime + "/parent.log"))
        defer { Self.end(parent) }
        try #require(Self.appears(runtime + "/parent", within: 20))
        let log = runtime + "/nested.log"
        let nested = try ChildProcess(
            [tools.compositor, "--backend", "wayland", "--socket", "nested"],
            environment: environment.merging(["WAYLAND_DISPLAY": "parent"]) { $1 },
            output: .file(log))
        defer { Self.end(nested) }
        #expect(Self.log(log, contains: "listening on nested", within: 30), "\(Self.text(log))")
        kill(parent.pid, SIGKILL)
        let status = nested.wait(timeout: 30)
        #expect(status == 1, "\(Self.text(log))")
        let errors = Self.text(log).split(separator: "\n").filter { $0.contains(" error ") || $0.contains("critical") }
        #expect(errors.count == 1 && errors.first?.contains("parent compositor") == true, "\(Self.text(log))")
    }
}

extension Picture {
    /// A rectangle of the picture.
    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Picture {
        var copy = self
        copy.width = w
        copy.height = h
        copy.pixels = (y..<(y + h)).flatMap { row in pixels[(row * width + x)..<(row * width + x + w)] }
        return copy
    }
}

/// Runs a tool in `directory` (weston-screenshooter writes its file there); returns its status.
func runIn(_ directory: String, _ arguments: [String], environment: [String: String]) throws -> Int32 {
    try ChildProcess.run(arguments, environment: environment, directory: directory, output: .discard, errors: .discard)
        .status
}
