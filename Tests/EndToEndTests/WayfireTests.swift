import DemoReport
import Foundation
import SystemLayer
import Testing
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
    }

    /// Starts wayfire with the plugin and `client` as its client, to the client's exit.
    static func run(client: String, name: String = #function) throws -> Run {
        let folder = scratchDirectory(name)
        let command = [
            script, "--library", tools.directory, "--run", client, "--trace", folder + "/trace.jsonl",
            "--log", folder + "/wayfire.log",
        ]
        let process = try ChildProcess(
            command, output: .file(folder + "/client.log"), errors: .file(folder + "/errors.log"))
        let status = process.wait(timeout: 300)
        let log = FileWatch.contents(of: folder + "/errors.log") + FileWatch.contents(of: folder + "/wayfire.log")
        return Run(status: status, client: FileWatch.contents(of: folder + "/client.log"), log: log)
    }
}

@Suite(.serialized, .enabled(if: Wayfire.available, "needs root, wayfire 0.7, wayfire-dev, glm and wayland-info"))
struct WayfireTests {
    @Test("wayfire loads the plugin from one line of wayfire.ini and advertises the protocol's global")
    func pluginAdvertisesTheGlobal() throws {
        let run = try Wayfire.run(client: "exec wayland-info")
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(run.client.contains("'spi_preview_interaction_manager_v1'"), "\(run.client)")
        #expect(run.log.contains("preview-interaction 1.4"), "the plugin's start line")
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
        // Built by the first test's run, or by this one's.
        let plugin = Wayfire.checkout + "/.build/wayfire/plugin/libpreview-interaction.so"
        if !FileManager.default.fileExists(atPath: plugin) { _ = try Wayfire.run(client: "true") }
        let result = try runTool(["/usr/bin/nm", "-D", "--defined-only", plugin])
        #expect(result.status == 0, "\(result.output)")
        let symbols = result.output.split(separator: "\n").compactMap { $0.split(separator: " ").last }.map(String.init)
        #expect(symbols.sorted() == ["getWayfireVersion", "newInstance"], "\(result.output)")
    }
}
