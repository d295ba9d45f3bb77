import LibinputRecording
@_exported import RecordingReplay
import UmockdevHarness

/// `preview-replay`'s files: each one through the decoder, or through the real libinput on an
/// umockdev testbed (`--via-libinput`).
extension Replay {
    /// Replays `files` one after another (each with a fresh engine and its own clock).
    /// Returns the process exit status: 0 on success, 1 when a file is not a usable recording
    /// (after writing a one-line error to `error`).
    @discardableResult
    public static func run(
        files: [String], options: ReplayOptions, output: (String) -> Void, error: @escaping @Sendable (String) -> Void
    ) -> Int32 {
        for (index, file) in files.enumerated() {
            if files.count > 1 && options.format == .human {
                if index > 0 { output("") }
                output("# \(file)")
            }
            do throws(RecordingError) {
                let summary = try replay(file: file, options: options, output: output, warning: error)
                if options.format == .human { output(describe(summary)) }
            } catch let problem {
                error("preview-replay: \(problem)")
                return 1
            }
        }
        return 0
    }

    /// One recording, virtual or real time.
    public static func replay(
        file: String, options: ReplayOptions, output: (String) -> Void,
        warning: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(RecordingError) -> ReplaySummary {
        let readOptions = ReadOptions(
            lenient: options.lenient, onWarning: { problem in warning("preview-replay: warning: \(problem)") })
        if options.viaLibinput {
            // The testbed already ran in real time; its events replay like the decoder's.
            var testbed = LibinputTestbed.Options()
            testbed.haptics = options.haptics
            let input = try LibinputTestbedInput(path: file, options: readOptions, testbed: testbed)
            if options.verbose {
                for line in input.log.split(separator: "\n") { warning("libinput testbed: \(line)") }
            }
            return try replay(input: input, clock: VirtualClock(), options: options, output: output)
        }
        let input = try RecordingInput(path: file, options: readOptions)
        for device in input.recording.devices {
            guard let why = device.description.libinputRejection else { continue }
            // A compositor on libinput would never see this device: say so next to the answer.
            let line =
                "\(file): device \(device.index) '\(device.name)': libinput would reject it (\(why)); the decoder replays it anyway"
            if options.format == .human { output("# " + line) } else { warning("preview-replay: warning: " + line) }
        }
        if options.realtime {
            return try replay(input: input, clock: RealtimeClock(), options: options, output: output)
        }
        return try replay(input: input, clock: VirtualClock(), options: options, output: output)
    }
}
