import ArgumentParser
import Foundation
import LibinputBackend
import Logging
import PreviewCompositor
import PreviewEngine
import PreviewProtocolServer
import SystemLayer
import ToolOptions

/// Thin shell over the PreviewCompositor library: parse, configure, run, exit.
@main
struct PreviewCompositorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview-compositor",
        abstract: "A small Wayland compositor serving the preview-interaction protocol.",
        discussion: """
            Inside a Wayland session (WAYLAND_DISPLAY or WAYLAND_SOCKET set) it opens a window \
            there and takes that session's pointer, keyboard, touch and pen (--backend wayland); \
            otherwise it is headless: an off-screen output, no input (--backend headless). Input \
            can also come from recordings (--replay) or a real seat (--libinput). Exit status is \
            non-zero with a one-line reason when it cannot start or its parent compositor goes away.

            \(BackendRegistry.standard.helpText)
            """,
        version: ToolVersion.current)

    @Option(
        help: ArgumentHelp(
            "The output: \(BackendRegistry.standard.outputs.map(\.name).joined(separator: ", ")) (below).",
            valueName: "backend"))
    var backend: String?

    @Option(
        help: ArgumentHelp(
            "The input: \(BackendRegistry.standard.inputs.map(\.name).joined(separator: ", ")) (below); "
                + "default: none, or the window's seat.",
            valueName: "input"))
    var input: String?

    /// The backends' own options (`BackendRegistry`: --replay, --fast, --libinput, --seat, ...).
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var backendOptions: [String] = []

    @Option(name: .customLong("socket"), help: "Wayland socket name (default: first free wayland-N).")
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "Clicks felt on haptic touchpads (--libinput): their intensity, or off (the pad keeps its own clicks).",
            valueName: "off|light|medium|strong"))
    var haptics: HapticIntensity = .medium

    @Option(help: ArgumentHelp("Write PNG screenshots here (on SIGUSR1 and at each phase change).", valueName: "dir"))
    var screenshotDir: String?

    @Option(help: ArgumentHelp("Write the JSON-lines trace here.", valueName: "file"))
    var trace: String?

    @Flag(help: "Exit once the replay has ended (or the --run client exited) and clients settled.")
    var exitWhenDone = false

    @Option(
        name: .customLong("run"),
        help: ArgumentHelp("Start this shell command with WAYLAND_DISPLAY set.", valueName: "command"))
    var runCommand: String?

    @Option(
        help: ArgumentHelp(
            "Output size in pixels (default 1280x800; with --backend wayland, smaller when the parent's output is).",
            valueName: "WxH"))
    var output: String?

    @Option(help: "Output refresh rate in Hz.")
    var refresh: Double = 60

    @OptionGroup var engine: EngineSettings

    @Option(
        help: ArgumentHelp(
            "When the commit phase completes: on-force (pressing to the completion force) or on-release (lifting after the commit).",
            valueName: "on-force|on-release"))
    var completion: Completion = .onForce

    @Option(
        name: .customLong("preview-key"),
        help: ArgumentHelp(
            "A key that begins a preview when held on the focused window: an xkb key name with optional modifiers (Shift, Ctrl, Alt, Super) such as Menu or Shift+F10. Repeat for more keys, or give none for no key. Default: Menu and Shift+F10.",
            valueName: "key"))
    var previewKeys: [String] = []

    @Option(
        help: ArgumentHelp(
            "A settings file (sensitivity, long-press, completion, preview-key as name = value lines) applied over the options at start and read again on SIGHUP.",
            valueName: "file"))
    var settings: String?

    @Option(
        help: ArgumentHelp(
            "How long a client may take to answer should-begin before it counts as a decline (\(Self.shouldBeginRange.lowerBound)...\(Self.shouldBeginRange.upperBound)).",
            valueName: "ms"))
    var shouldBeginTimeout = 150

    @Option(
        help: ArgumentHelp(
            "Look Up: a firm press on a word or link in an app without the preview protocol shows its definition or address (through the app's accessibility tree). Default: on when an accessibility bus is there.",
            valueName: "on|off"))
    var lookup: LookupSwitch?

    enum LookupSwitch: String, ExpressibleByArgument {
        case on, off
    }

    /// Below 1 ms no client can answer; above 10 s a press would hang with no feedback.
    static let shouldBeginRange = 1...10_000

    @Flag(name: .shortAndLong, help: "Log every interaction transition and client event.")
    var verbose = false

    /// The backends and their options, from the one registry.
    func backends() throws -> BackendRegistry.Selections {
        do {
            return try BackendRegistry.standard.select(
                output: backend, input: input, arguments: backendOptions,
                environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        _ = try backends()
        if let output, parseSize(output) == nil { throw ValidationError("--output must look like 1280x800") }
        guard refresh >= 1 && refresh <= 1000 else { throw ValidationError("--refresh must be within 1...1000 Hz") }
        do {
            _ = try PreviewKeyBinding.list(parsing: previewKeys)
        } catch {
            throw ValidationError("--preview-key: \(error)")
        }
        guard Self.shouldBeginRange.contains(shouldBeginTimeout) else {
            throw ValidationError(
                "--should-begin-timeout must be within \(Self.shouldBeginRange.lowerBound)...\(Self.shouldBeginRange.upperBound) ms, got \(shouldBeginTimeout)"
            )
        }
    }

    func run() throws {
        let level: Logger.Level = verbose ? .debug : .notice
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = CompositorConfiguration()
        configuration.socketName = socket
        (configuration.input, configuration.output) = try backends()
        configuration.haptics = haptics
        configuration.verbose = verbose
        configuration.screenshotDirectory = screenshotDir
        configuration.tracePath = trace
        configuration.exitWhenDone = exitWhenDone
        configuration.runCommand = runCommand
        if let size = output.flatMap(parseSize) {
            configuration.outputWidth = size.width
            configuration.outputHeight = size.height
            configuration.windowFitsParentOutput = false
        }
        configuration.refreshMilliHertz = Int32((refresh * 1000).rounded())
        configuration.engine.sensitivity = engine.configuration.sensitivity
        configuration.engine.longPress = engine.configuration.longPress
        configuration.engine.completion = completion
        if !previewKeys.isEmpty, let keys = try? PreviewKeyBinding.list(parsing: previewKeys) {
            configuration.previewKeys = keys
        }
        configuration.settingsPath = settings
        if let lookup { configuration.lookup.enabled = lookup == .on }
        configuration.engine.shouldBeginTimeout = .milliseconds(Int64(shouldBeginTimeout))

        let logger = Logger(label: "preview-compositor")
        let compositor: Compositor
        do {
            compositor = try Compositor(configuration: configuration, logger: logger)
        } catch {
            // One line, no usage text: the user's command was fine, the world was not.
            printError("preview-compositor: \(error)")
            throw ExitCode(1)
        }
        let status = compositor.run()
        if status != 0 { throw ExitCode(status) }
    }
}

private func parseSize(_ text: String) -> (width: Int32, height: Int32)? {
    let parts = text.split(separator: "x")
    guard parts.count == 2, let w = Int32(parts[0]), let h = Int32(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384
    else { return nil }
    return (w, h)
}

private func printError(_ line: String) {
    StandardStreams.writeError(line + "\n")
}

extension HapticIntensity: ExpressibleByArgument {}
