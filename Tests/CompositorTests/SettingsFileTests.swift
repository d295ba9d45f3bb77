import Foundation
import PreviewEngine
import PreviewProtocolServer
import Testing

@testable import PreviewCompositor

/// `--settings FILE`: the user's settings applied over the options at start and read again on
/// SIGHUP; `--completion` among the options.
@Suite struct SettingsFileTests {
    @Test func theFileOverridesTheOptionsAndALineRemovedGoesBackToThem() throws {
        let options = UserSettings(
            engine: EngineConfiguration(sensitivity: .light, longPress: .slow, completion: .onRelease))
        let read = try SettingsFile.parse(
            "# mine\nsensitivity = firm   # firmer\n\ncompletion=on-force\n", path: "s", over: options)
        #expect(read.engine == EngineConfiguration(sensitivity: .firm, longPress: .slow, completion: .onForce))
        #expect(read.previewKeys == PreviewKeyBinding.defaults)
        #expect(try SettingsFile.parse("", path: "s", over: options) == options)
    }

    @Test func lookUpIsOnOrOffAndALongPressLooksUpOnlyWhenTheUserSaysSo() throws {
        let options = UserSettings(lookup: LookupSettings(enabled: true))
        let read = try SettingsFile.parse("lookup = off\nlookup-long-press = on\n", path: "s", over: options)
        #expect(read.lookup == LookupSettings(enabled: false, longPress: true))
        #expect(try SettingsFile.parse("", path: "s", over: options).lookup == LookupSettings(enabled: true))
        #expect(throws: CompositorError.settings("s:1: lookup must be on or off, not maybe")) {
            try SettingsFile.parse("lookup = maybe", path: "s", over: options)
        }
    }

    @Test func lookUpsDeadlineIsTheUsersWithinItsRange() throws {
        let options = UserSettings(lookup: LookupSettings(enabled: true))
        #expect(try SettingsFile.parse("", path: "s", over: options).lookup.deadlineMilliseconds == 500)
        let read = try SettingsFile.parse("lookup-deadline = 1200\n", path: "s", over: options)
        #expect(read.lookup == LookupSettings(enabled: true, deadlineMilliseconds: 1200))
        for value in ["99", "5001", "-1", "fast"] {
            #expect(throws: CompositorError.settings("s:1: lookup-deadline must be 100...5000 ms, not \(value)")) {
                try SettingsFile.parse("lookup-deadline = \(value)", path: "s", over: options)
            }
        }
    }

    @Test func thePreviewKeysOfTheFileReplaceTheOptions() throws {
        let options = UserSettings(previewKeys: [try PreviewKeyBinding(parsing: "Ctrl+m")])
        let keys = { (text: String) in
            try SettingsFile.parse(text, path: "s", over: options).previewKeys.map(\.name)
        }
        let two = "preview-key = Shift+F10\npreview-key = ctrl+alt+k, Menu\n"
        #expect(try keys(two) == ["Shift+F10", "Ctrl+Alt+k", "Menu"])
        #expect(try keys("preview-key = none") == [])
        #expect(try keys("sensitivity = firm") == ["Ctrl+m"])
    }

    @Test(arguments: [
        ("sensitivity = hard", "s:1: sensitivity must be light, medium or firm, not hard"),
        ("\nlong-press", "s:2: expected name = value"),
        (
            "haptics = off",
            "s:1: unknown setting haptics (sensitivity, long-press, completion, preview-key, lookup, lookup-long-press, lookup-deadline)"
        ),
        (
            "preview-key = Menu\npreview-key = Hyper+x",
            "s:2: preview-key: unknown modifier 'Hyper' in 'Hyper+x' (Shift, Ctrl, Alt, Super)"
        ),
        ("preview-key = Menu\npreview-key = none", "s:2: preview-key none (no key) cannot be combined with keys"),
        ("preview-key = none\npreview-key = Menu", "s:2: preview-key none (no key) cannot be combined with keys"),
    ])
    func aWrongLineIsNamedWithItsReason(_ text: String, _ reason: String) {
        #expect(throws: CompositorError.settings(reason)) {
            try SettingsFile.parse(text, path: "s", over: UserSettings())
        }
    }

    func compositor(_ arguments: [String]) throws -> ClientProcess {
        try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket",
                TestRuntime.uniqueSocket(),
            ]
                + arguments, socket: "", environment: [:])
    }

    @Test func aWrongFileStopsTheStartWithFileLineAndReason() throws {
        let path = TestRuntime.temporaryDirectory("settings") + "/settings"
        try "sensitivity = firm\ncompletion = later\n".write(toFile: path, atomically: true, encoding: .utf8)
        let run = try compositor(["--settings", path]).finish(timeout: 60)
        #expect(run.status == 1 && !run.timedOut, "\(run.output)")
        #expect(run.output.contains("\(path):2: completion must be on-force or on-release, not later"), "\(run.output)")
    }

    @Test func sighupReadsTheFileAgainAndAWrongOneKeepsTheSettings() throws {
        let path = TestRuntime.temporaryDirectory("settings") + "/settings"
        try "sensitivity = firm\n".write(toFile: path, atomically: true, encoding: .utf8)
        let process = try compositor(["--settings", path, "--completion", "on-release"])
        defer { _ = process.terminate() }
        #expect(process.waitForOutput("listening on", timeout: 60), "\(process.output)")

        try "long-press = slow\n".write(toFile: path, atomically: true, encoding: .utf8)
        process.child.signal(SIGHUP)
        #expect(
            process.waitForOutput(
                "read: sensitivity medium, long-press slow, completion on-release, preview keys Menu Shift+F10"),
            "the file over the options: \(process.output)")

        try "long-press = slower\n".write(toFile: path, atomically: true, encoding: .utf8)
        process.child.signal(SIGHUP)
        #expect(
            process.waitForOutput(
                "\(path):1: long-press must be fast, default or slow, not slower; keeping the current settings"),
            "\(process.output)")
        #expect(process.isRunning)
    }

    /// What a version 2 client hears: the settings group at bind with the configured values,
    /// and again, changed, after the file changed and the compositor got SIGHUP.
    @Test func aClientHearsTheSettingsAndTheirChange() throws {
        let path = TestRuntime.temporaryDirectory("settings") + "/settings"
        try "sensitivity = firm\n".write(toFile: path, atomically: true, encoding: .utf8)
        let socket = TestRuntime.uniqueSocket()
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket", socket,
                "--settings", path, "--completion", "on-release", "--haptics", "light",
            ], socket: "", environment: [:])
        defer { _ = process.terminate() }
        #expect(process.waitForOutput("listening on", timeout: 60), "\(process.output)")
        let client = try startClient(
            ["/usr/bin/python3", KeyboardPreviewTests.client, "--settings-groups", "2"], socket: socket)
        defer { _ = client.terminate() }
        #expect(client.waitForOutput("settings_done", timeout: 60), "\(client.output)")

        try "sensitivity = light\nlong-press = slow\n".write(toFile: path, atomically: true, encoding: .utf8)
        kill(process.pid, SIGHUP)
        let run = client.finish(timeout: 60)
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        let groups = lines.split(separator: "settings_done").map { Array($0.filter { $0.hasPrefix("settings ") }) }
        try #require(groups.count >= 2, "\(lines)")
        // firm: begin 0.18, commit 0.68, complete 0.93 (wl_fixed: 1/256 steps).
        #expect(
            groups[0] == [
                "settings sensitivity 3", "settings thresholds 0.1796875 0.6796875 0.9296875",
                "settings long_press_duration 500", "settings haptics 1", "settings completion 2",
            ], "\(lines)")
        // light, slow; completion still the command line's, haptics the user's.
        #expect(
            groups[1] == [
                "settings sensitivity 1", "settings thresholds 0.078125 0.3984375 0.75",
                "settings long_press_duration 800", "settings haptics 1", "settings completion 2",
            ], "\(lines)")
    }
}
