import ArgumentParser
import LibinputBackend
import LibinputRecording
import PreviewEngine
import PreviewTrace
import ToolOptions

extension TraceFormat: ExpressibleByArgument {}

/// `preview-replay`: what `libinput debug-events` is to libinput, for preview interactions.
public struct PreviewReplayCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "preview-replay",
        abstract: "Replay `libinput record` files through the preview-interaction engine.",
        discussion: """
            Each FILE is a recording made with `libinput record` (YAML, version 1). Its evdev \
            frames are decoded into contacts (pen tips, touchscreen fingers, touchpad clicks, \
            mouse buttons) with their force normalised by the device's absinfo, and fed to the \
            engine on a virtual clock: as fast as possible and deterministic, unless --realtime. \
            Every interaction is accepted at once (should-begin answers yes); the engine's timers \
            fire in replay time. Devices without a pressure axis use the long-press fallback \
            (simulated force, marked "sim").

            A FILE of - is standard input, read as it arrives: `libinput record | preview-replay -` \
            prints each phase as the recording reaches it (pipes, FIFOs and <(...) work the same). \
            libinput's own layout is streamed; other valid YAML (the same recording re-saved by \
            another tool) is read whole by a general YAML reader.

            One line is printed per engine output:
              preview  progress 0...1 while pressing ("-> commit": the commit begins)
              commit   progress 0...1 of the commit phase ("completed" at the end)
              cancel   ended without completing, with the reason (lifted, moved,
                       desynchronised, system = the recording ended...)
              stage    an accelerator's level (--behaviour accelerator:N)
            A closing "#" line sums up contacts, interactions and outcomes.
            Positions are in logical pixels of a virtual 1920x1080 output covered by one \
            surface: tablets and touchscreens map onto it, touchpads and mice move a cursor \
            that starts in the middle.

            --format json prints one object per line with time_us, device, source, simulated, \
            interaction, event (preview|commit|cancel; should-begin with --verbose), progress, \
            ended, x, y, reason (on cancel) and stage (on stage). A commit with "ended": true means \
            completed.

            --completion on-release pops when the contact lifts in the commit phase instead of at \
            full force (easing off below the commit threshold first cancels). --behaviour tries what \
            a client may declare for an area: generic (no interaction however hard the press) or \
            accelerator:N (stage levels that follow the force). Both are described in \
            docs/state-machine.md.

            A device with FF_HAPTIC (a haptic pressure pad) also gets a HAPTIC line for each \
            click a compositor would play on it in host mode: press (its button goes down), \
            deep-click (the commit), release (button up or lift); in JSON \
            {"time_us", "device", "event": "haptic", "effect", "waveform"}.

            Live: --device /dev/input/eventN (as `libinput debug-events --device`) or --udev (every \
            device of --seat) reads your own device through the real libinput and prints the \
            phases as you press, until Ctrl-C; then the closing line. Reading /dev/input needs \
            root or the input group.

            Exit status: 0 on success; 1 with a one-line `file:line: reason` error when a file \
            is not a usable recording (--lenient skips bad lines with warnings instead), or a \
            one-line reason when a live device is missing, not readable or not an input device.
            """,
        version: ToolVersion.current)

    @Argument(
        help: ArgumentHelp(
            "Recordings to replay, one after another; - is standard input (`libinput record | preview-replay -`).",
            valueName: "file"))
    public var files: [String] = []

    @Option(
        name: .customLong("device"),
        help: ArgumentHelp(
            "Live: read this input device through libinput until Ctrl-C, as `libinput debug-events --device` (repeatable).",
            valueName: "path"))
    public var devices: [String] = []

    @Flag(help: "Live: every input device of the udev seat (--seat) through libinput, with hotplug, until Ctrl-C.")
    public var udev = false

    @Option(help: "The udev seat for --udev.")
    public var seat = "seat0"

    @Option(help: "Output format: human (aligned columns) or json (JSON lines).")
    public var format: TraceFormat = .human

    @Flag(help: "Replay at recorded speed instead of as fast as possible.")
    public var realtime = false

    @OptionGroup public var engine: EngineSettings

    @Option(
        help: ArgumentHelp(
            "When the commit phase completes: on-force (pressing to full force) or on-release (lifting in the commit phase).",
            valueName: "completion"))
    public var completion: Completion = .onForce

    @Option(
        name: .customLong("behaviour"),
        help: ArgumentHelp(
            "What force means on the replayed surface: deep-click (preview and commit), generic (no interaction) or accelerator:N (stage levels 1 to N, N from 2 to 5).",
            valueName: "behaviour"))
    public var behaviour: PressureBehaviour = .deepClick

    @Flag(help: "Skip malformed event lines with a warning instead of failing.")
    public var lenient = false

    @Flag(name: .shortAndLong, help: "Also print contacts, proximity and should-begin transitions.")
    public var verbose = false

    @Flag(
        name: .customLong("via-libinput"),
        help: """
            Replay through the real libinput instead of the decoder: the recording's first device \
            becomes an umockdev testbed (needs umockdev-run and unshare -m; see docs/testing.md) \
            and runs in real time. Same trace format.
            """)
    public var viaLibinput = false

    @Option(
        help: ArgumentHelp(
            """
            With --via-libinput: the real backend plays host-mode clicks on a pad with FF_HAPTIC             at this intensity (the testbed answers and logs the force-feedback calls; -v shows             the log, with each effect's latency).
            """, valueName: "off|light|medium|strong"))
    public var haptics: HapticIntensity?

    @Flag(
        help: """
            Print the decoded device events instead (one line each: devices, contacts with \
            normalised position and force, tool proximity and motion, buttons, keys), for a \
            compositor that drives its own input from a recording.
            """)
    public var events = false

    public init() {}

    public func validate() throws {
        if !devices.isEmpty || udev {
            guard files.isEmpty, !viaLibinput, !realtime else {
                throw ValidationError("--device and --udev read live devices: no files, --via-libinput or --realtime")
            }
            guard devices.isEmpty || !udev else { throw ValidationError("give --device or --udev, not both") }
            return
        }
        guard !files.isEmpty else {
            throw ValidationError("give at least one recording file (- for standard input), or --device / --udev")
        }
        guard files.filter({ $0 == "-" }).count <= 1 else {
            throw ValidationError("standard input (-) can be read once")
        }
        if haptics != nil && !viaLibinput { throw ValidationError("--haptics needs --via-libinput") }
    }

    public func run() throws {
        if events {
            do throws(RecordingError) {
                try DeviceEventLines.run(files: files, options: ReadOptions(lenient: lenient)) { print($0) }
            } catch {
                StandardError.write("preview-replay: \(error)")
                throw ExitCode(1)
            }
            return
        }
        var options = ReplayOptions()
        options.format = format
        options.realtime = realtime
        options.configuration = engine.configuration
        options.configuration.completion = completion
        options.behaviour = behaviour
        options.lenient = lenient
        options.verbose = verbose
        options.viaLibinput = viaLibinput
        options.haptics = haptics
        if !devices.isEmpty || udev {
            let status = Live.run(
                udev ? .seat(seat) : .devices(devices), options: options, output: StandardOutput.write,
                error: { line in StandardError.write(line) })
            if status != 0 { throw ExitCode(status) }
            return
        }
        let status = Replay.run(
            files: files, options: options, output: StandardOutput.write,
            error: { line in StandardError.write(line) })
        if status != 0 { throw ExitCode(status) }
    }
}

extension HapticIntensity: ExpressibleByArgument {}
