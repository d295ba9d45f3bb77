import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// wayfire 0.7 (Debian 12's package) with examples/wayfire's plugin, run by
/// scripts/wayfire-headless: headless, as nobody, on Mesa's software device where there is no GPU.
enum Wayfire {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let script = checkout + "/scripts/wayfire-headless"

    /// Why wayfire cannot run here (nil: it can).
    static let skip: String? = {
        guard getuid() == 0 else {
            return "wayfire refuses root: scripts/wayfire-headless needs root to run it as nobody"
        }
        for tool in ["/usr/bin/wayfire", "/usr/bin/wayland-info", "/usr/bin/meson", "/usr/bin/setpriv"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "no \(tool) (scripts/install-deps)"
        }
        for header in ["/usr/include/wayfire/plugin.hpp", "/usr/include/glm/glm.hpp"]
        where !FileManager.default.fileExists(atPath: header) {
            return "no \(header): wayfire-dev and libglm-dev (scripts/install-deps)"
        }
        return nil
    }()

    static var available: Bool {
        if let why = skip {
            print("WayfireTests: skipping wayfire: \(why)")
            return false
        }
        return true
    }

    struct Run {
        var status: Int32?
        var client: String
        var log: String
        var trace: [TraceRecord] = []
        /// The screenshot directory (with `screenshots`): NNNN.png every 500 ms, and end.png.
        var shots = ""

        /// wayfire's libinput said it read the device late, or the client answered a deep click
        /// late (as `Sway.Run.starved`): such a run measures the machine's load, not wayfire.
        var starved: Bool {
            log.contains("your system is too slow")
                || !Sway.lateAnswers(client: client.split(separator: "\n").map(String.init), trace: trace).isEmpty
        }
    }

    /// Starts wayfire with the plugin and `client` as its client, to the client's exit; with
    /// `recordings` (of one device), to the end of their stream, played as a real device of
    /// wayfire's libinput once the client's window maps; with `screenshots`, pictures of the run.
    static func run(
        client: String, replay recordings: [String] = [], screenshots: Bool = false, name: String = #function
    ) throws -> Run {
        let folder = scratchDirectory(name)
        var command = [
            script, "--library", tools.directory, "--run", client, "--trace", folder + "/trace.jsonl",
            "--log", folder + "/wayfire.log",
        ]
        if screenshots { command += ["--screenshot-dir", folder + "/shots"] }
        if !recordings.isEmpty {
            command += ["--replay"] + recordings.map(ParityBuilds.recording)
            command += ["--should-begin-timeout", String(slowClientShouldBeginTimeout)]
        }
        let process = try ChildProcess(
            command, output: .file(folder + "/client.log"), errors: .file(folder + "/errors.log"))
        let status = process.wait(timeout: 300)
        let log = FileWatch.contents(of: folder + "/errors.log") + FileWatch.contents(of: folder + "/wayfire.log")
        let trace = (try? TraceReader.read(path: folder + "/trace.jsonl")) ?? []
        return Run(
            status: status, client: FileWatch.contents(of: folder + "/client.log"), log: log, trace: trace,
            shots: screenshots ? folder + "/shots" : "")
    }

    /// Why recordings cannot be replayed here (nil: they can): the umockdev testbed.
    static let replaySkip: String? = {
        if case .unavailable(let why) = LibinputTestbed.availability() { return why }
        return nil
    }()

    /// Menu held, Escape in its interaction's preview phase, then H (Tests/Fixtures/keyboard).
    static let menuHeldEscape = checkout + "/Tests/Fixtures/keyboard/menu-held-escape.yml"

    /// examples/peek-qt's build (scripts/build-qt).
    static let peekQt = checkout + "/.build/qt/peek-qt/peek-qt"

    static var canReplay: Bool {
        if let why = replaySkip {
            print("WayfireTests: skipping the replay: \(why)")
            return false
        }
        return true
    }

    /// `body`'s expectations, a known issue (not a failure) when the run was starved.
    static func unlessStarved(_ run: Run, body: () throws -> Void) rethrows {
        try withKnownIssue("the machine starved wayfire's libinput or the client", isIntermittent: true) {
            try body()
        } when: {
            run.starved
        }
    }
}

@Suite(.serialized, .enabled(if: Wayfire.available, "needs root, wayfire 0.7, wayfire-dev, glm and wayland-info"))
struct WayfireTests {
    @Test("wayfire loads the plugin from one line of wayfire.ini and advertises the protocol's global")
    func pluginAdvertisesTheGlobal() throws {
        let run = try Wayfire.run(client: "exec wayland-info")
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.client.contains("'spi_preview_interaction_manager_v1'"), "\(run.client)")
        let startLine = #"preview-interaction 1\.[0-9]+\.[0-9]+ on wayfire's display"#
        #expect(
            run.log.range(of: startLine, options: .regularExpression) != nil,
            "the plugin's start line: the library it loaded, major version 1")
        // The protocol's global next to wayfire's own: the plugin's display is wayfire's.
        #expect(run.client.contains("'zwf_shell_manager_v2'"))
    }

    @Test("A version 2 client binds the manager on wayfire's display, gets the user's settings and maps its window")
    func clientGetsTheSettings() throws {
        let script = Wayfire.checkout + "/Tests/python/v2_client.py"
        let run = try Wayfire.run(client: "exec /usr/bin/python3 \(shellQuote(script)) --settings-groups 1")
        #expect(run.status == 0, "\(run.client)\n\(run.log.suffix(3000))")
        let lines = run.client.split(separator: "\n").map(String.init)
        #expect(lines.contains("settings sensitivity 2") && lines.contains("settings_done"), "\(run.client)")
        #expect(lines.contains { $0.hasPrefix("mapped ") }, "wayfire's xdg-shell mapped the window: \(run.client)")
        #expect(lines.last == "v2_client: settings", "\(run.client)")
    }

    @Test("Taking the plugin out of wayfire.ini unloads it and removes the global; putting it back restores it")
    func pluginUnloadsAndLoadsAgain() throws {
        // wayfire reloads its plugins when wayfire.ini changes; the client waits for the global's
        // absence, then its return (wayfire's own file watch has no signal a client can hear).
        let client = """
            has() { wayland-info | grep -q "'spi_preview_interaction_manager_v1'"; }
            wait_for() { for i in $(seq 1500); do if [ "$(has && echo yes || echo no)" = "$1" ]; then return 0; fi; \
                sleep 0.02; done; return 1; }
            has || { echo "no global at the start"; exit 3; }
            printf '[core]\\nplugins = \\n' > "$HOME/wayfire.ini"
            wait_for no || { echo "the global stayed after the unload"; exit 4; }
            echo unloaded
            printf '[core]\\nplugins = preview-interaction\\n' > "$HOME/wayfire.ini"
            wait_for yes || { echo "the global did not come back"; exit 5; }
            echo loaded-again
            """
        let run = try Wayfire.run(client: client)
        #expect(run.status == 0, "\(run.client)\n\(run.log.suffix(3000))")
        #expect(run.client.contains("unloaded") && run.client.contains("loaded-again"), "\(run.client)")
        #expect(!run.log.contains("Fatal error"), "\(run.log.suffix(3000))")
    }

    @Test("The plugin exports only wayfire's two entry points (wayfire loads it RTLD_GLOBAL)")
    func pluginExportsOnlyItsEntryPoints() throws {
        // Every build of it (one per library directory), this test's run's among them.
        _ = try Wayfire.run(client: "true")
        let folder = Wayfire.checkout + "/.build/wayfire"
        let plugins = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("plugin-") }
            .map { folder + "/" + $0 + "/meson/libpreview-interaction.so" }
            .filter { FileManager.default.fileExists(atPath: $0) }
        #expect(!plugins.isEmpty, "no plugin built under \(folder)")
        for plugin in plugins {
            let result = try runTool(["/usr/bin/nm", "-D", "--defined-only", plugin])
            #expect(result.status == 0, "\(result.output)")
            let symbols = result.output.split(separator: "\n").compactMap { $0.split(separator: " ").last }
                .map(String.init)
            #expect(symbols.sorted() == ["getWayfireVersion", "newInstance"], "\(plugin): \(result.output)")
        }
    }

    @Test(
        "A recorded pen press over peek-client pops in wayfire, through wayfire's own libinput and seat",
        .enabled(if: Wayfire.canReplay, "needs the umockdev testbed"))
    func penPressCompletes() throws {
        let run = try Wayfire.run(client: Sway.peek(), replay: ["dell-canvas-isdv4-pen.yml"])
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        #expect(run.log.contains("Added Wacom ISD-V4 Pen"), "a device of wayfire's libinput: \(run.log.suffix(3000))")
        Wayfire.unlessStarved(run) {
            let phases = run.trace.compactMap(\.phase)
            #expect(phases.first == .previewBegan && phases.contains(.previewEnded), "\(run.trace)")
            #expect(phases.last == .completed, "\(run.trace)\n\(run.client)\n\(run.log.suffix(3000))")
            #expect(run.client.contains("result=opened"), "\(run.client)")
        }
        #expect(run.trace.allSatisfy { $0.source == .pen && !$0.simulated && $0.device == "Wacom ISD-V4 Pen" })
    }

    @Test(
        "Screenshots of a pen press over peek-client in wayfire: its grid during the replay, the opened photo after",
        .enabled(if: Wayfire.canReplay, "needs the umockdev testbed"))
    func penPressScreenshots() throws {
        let run = try Wayfire.run(client: Sway.peek(), replay: ["dell-canvas-isdv4-pen.yml"], screenshots: true)
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: run.shots)) ?? []).sorted()
        let end = try #require(Picture(path: run.shots + "/end.png"), "no end.png in \(names): \(run.log.suffix(2000))")
        #expect(end.width == 1280 && end.height == 800)
        #expect(Set(end.pixels).count > 16, "the screenshot shows peek-client's page")
        // What wayfire composited while the stream played: peek-client's grid of photos (many
        // colours, not wayfire's plain background), a picture other than the end's.
        let numbered = names.filter { $0.range(of: #"^[0-9]{4}\.png$"#, options: .regularExpression) != nil }
        let pages = numbered.compactMap { Picture(path: run.shots + "/" + $0) }.filter { Set($0.pixels).count > 16 }
        #expect(!pages.isEmpty, "no numbered screenshot shows the client: \(names)")
        #expect(pages.contains { $0 != end }, "every picture is the end's: \(names)")
        Wayfire.unlessStarved(run) {
            #expect(run.trace.compactMap(\.phase).last == .completed, "\(run.trace)")
            #expect(run.client.contains("result=opened"), "the end's picture is of the opened item: \(run.client)")
        }
    }

    @Test(
        "A recorded Menu key held over a version 2 client: a keyboard interaction, the key kept from the client",
        .enabled(if: Wayfire.canReplay, "needs the umockdev testbed"))
    func heldMenuKey() throws {
        let run = try Wayfire.run(
            client: Sway.python("v2_client.py", "--keyboard"), replay: ["handwritten-usb-keyboard-menu-hold.yml"])
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        Wayfire.unlessStarved(run) {
            let lines = run.client.split(separator: "\n").map(String.init)
            #expect(lines.contains("should_begin 1 5 2"), "source keyboard, force simulated: \(run.client)")
            #expect(lines.last == "v2_client: completed", "\(run.client)\n\(run.log.suffix(3000))")
            #expect(run.trace.last?.phase == .completed, "\(run.trace)")
            // The Menu key the interaction took reaches the client neither pressed nor released
            // (NO_CLIENT on wayfire's keyboard_key signal).
            #expect(!lines.contains { $0.hasPrefix("key ") }, "\(run.client)")
        }
        #expect(
            !run.trace.isEmpty
                && run.trace.allSatisfy { $0.source == .keyboard && $0.device == "Hand-written USB Keyboard" },
            "the keys' device as wayfire's libinput added it: \(run.trace)")
    }

    @Test(
        "A tapped Menu key reaches the client, press and release; a held one released early is taken and cancelled",
        .enabled(if: Wayfire.canReplay, "needs the umockdev testbed"))
    func tappedMenuKeyIsDelivered() throws {
        // Menu tapped (90 ms: the library withholds the press, then gives it back with the
        // release), then held 560 ms and released before the interaction completes.
        let run = try Wayfire.run(
            client: Sway.python("v2_client.py", "--keyboard"), replay: ["handwritten-usb-keyboard-menu-release.yml"])
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        Wayfire.unlessStarved(run) {
            let lines = run.client.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("key ") } == ["key 127 1", "key 127 0"], "\(run.client)")
            #expect(lines.contains("should_begin 1 5 2"), "\(run.client)")
            #expect(run.trace.last?.phase == .cancelled(.lifted), "\(run.trace)\n\(run.client)")
        }
    }

    @Test(
        "Escape while a held Menu key's interaction runs cancels it (dismissed); neither key reaches the client",
        .enabled(if: Wayfire.canReplay, "needs the umockdev testbed"))
    func escapeDismissesAHeldMenuKey() throws {
        // Menu held from 200 ms, Escape at 775 ms (the preview phase of the interaction the long
        // press began at 700 ms), Menu up at 1700 ms, then H: the client leaves at its first key,
        // which is H unless wayfire delivered Escape or Menu (the plugin marks them NO_CLIENT).
        let run = try Wayfire.run(
            client: Sway.python("v2_client.py", "--keyboard --keys 1"), replay: [Wayfire.menuHeldEscape])
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        Wayfire.unlessStarved(run) {
            let lines = run.client.split(separator: "\n").map(String.init)
            #expect(lines.contains("should_begin 1 5 2"), "source keyboard, force simulated: \(run.client)")
            #expect(lines.filter { $0.hasPrefix("key ") } == ["key 35 1"], "\(run.client)")
            #expect(lines.last == "v2_client: cancelled", "\(run.client)\n\(run.log.suffix(3000))")
            let phases = run.trace.compactMap(\.phase).filter { $0 != .previewProgress }
            #expect(phases == [.previewBegan, .cancelled(.dismissed)], "\(run.trace)\n\(run.client)")
        }
        #expect(
            !run.trace.isEmpty
                && run.trace.allSatisfy { $0.source == .keyboard && $0.device == "Hand-written USB Keyboard" },
            "the keys' device as wayfire's libinput added it: \(run.trace)")
    }

    @Test(
        "A recorded pen press over peek-gtk (GTK 4 through the adapter's typelib) pops in wayfire",
        .enabled(
            if: Wayfire.canReplay && FileManager.default.fileExists(atPath: ParityBuilds.gtkAdapter),
            "needs the umockdev testbed and the GTK adapter (scripts/build-gtk)"))
    func peekGTKPressCompletes() throws {
        let client =
            "GSK_RENDERER=cairo NO_AT_BRIDGE=1 GDK_BACKEND=wayland GTK_A11Y=none exec /usr/bin/python3 "
            + shellQuote(Wayfire.checkout + "/examples/peek-gtk/peek-gtk") + " --log"
        try Self.penPressOpensAPhoto(client: client)
    }

    @Test(
        "A recorded pen press over peek-qt (Qt 6 through the adapter's QML module) pops in wayfire",
        .enabled(
            if: Wayfire.canReplay && FileManager.default.isExecutableFile(atPath: Wayfire.peekQt),
            "needs the umockdev testbed and peek-qt (scripts/build-qt)"))
    func peekQtPressCompletes() throws {
        // Qt Quick's software renderer: on Mesa's software GL (llvmpipe) the app drew slowly
        // enough that once its pop's end came after wayfire stopped at the stream's end.
        let client =
            "QT_QPA_PLATFORM=wayland QT_WAYLAND_DISABLE_WINDOWDECORATION=1 QT_QUICK_BACKEND=software exec "
            + shellQuote(Wayfire.checkout + "/examples/peek-qt/peek-qt") + " --log"
        try Self.penPressOpensAPhoto(client: client)
    }

    /// The Dell pen over a photo app's grid: its firm press completes, through wayfire's
    /// libinput, and the app opens the photo it pressed (its `--log` line `open TITLE`).
    private static func penPressOpensAPhoto(client: String, name: String = #function) throws {
        let run = try Wayfire.run(client: client, replay: ["dell-canvas-isdv4-pen.yml"], name: name)
        #expect(run.status == 0, "\(run.log.suffix(4000))")
        Wayfire.unlessStarved(run) {
            // A firm press may pass the preview phase before the app's answer comes (the stream
            // is real time and does not wait for it): its interaction begins at preview-ended.
            let phases = run.trace.compactMap(\.phase)
            #expect(phases.contains(.previewEnded), "\(run.trace)")
            #expect(phases.last == .completed, "\(run.trace)\n\(run.client)\n\(run.log.suffix(3000))")
            let lines = run.client.split(separator: "\n").map(String.init)
            #expect(lines.contains("available True"), "the adapter found the global: \(run.client)")
            #expect(lines.contains { $0.hasPrefix("open ") }, "\(run.client)")
        }
        #expect(run.trace.allSatisfy { $0.source == .pen && $0.device == "Wacom ISD-V4 Pen" }, "\(run.trace)")
    }

    @Test(
        "wayfire's trace of a recorded pen press is sway's: the same interactions, phases and places",
        .enabled(if: Wayfire.canReplay && Sway.available, "needs the umockdev testbed and sway 1.7's source"))
    func penTraceIsSways() throws {
        // The same recording through the same libinput (the testbed) into two wlroots 0.15
        // compositors, peek-client's window on the whole 1280x800 output in both.
        let recording = ["dell-canvas-isdv4-pen.yml"]
        let wayfire = try Wayfire.run(client: Sway.peek(), replay: recording)
        let sway = try Sway.run(recording, client: Sway.peek())
        #expect(wayfire.status == 0 && sway.status == 0, "\(wayfire.log.suffix(2000))\n\(sway.log.suffix(2000))")
        withKnownIssue("the machine starved a compositor's libinput", isIntermittent: true) {
            let expected = ParityInteraction.all(sway.trace, stages: false)
            let got = ParityInteraction.all(wayfire.trace, stages: false)
            #expect(!expected.isEmpty && got == expected, "sway: \(expected)\nwayfire: \(got)")
            for (x, y) in zip(expected, got) {
                let distance = ((x.end.x - y.end.x) * (x.end.x - y.end.x) + (x.end.y - y.end.y) * (x.end.y - y.end.y))
                    .squareRoot()
                #expect(distance <= ParityScenario.locationTolerance, "\(x): sway at \(x.end), wayfire at \(y.end)")
            }
        } when: {
            wayfire.starved || sway.starved
        }
    }
}
