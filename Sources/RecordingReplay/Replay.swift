import InputEvents
import LibinputRecording
import PreviewEngine
import PreviewTrace

/// Everything `preview-replay` can be asked to do, independent of its command line.
public struct ReplayOptions: Sendable {
    public var format: TraceFormat = .human
    public var realtime = false
    public var configuration = EngineConfiguration()
    /// What force means on the replay's one surface (the client's declaration, for trying one).
    public var behaviour: PressureBehaviour = .deepClick
    public var lenient = false
    public var verbose = false
    /// The virtual output absolute devices map onto, in logical pixels.
    public var outputSize: (width: Double, height: Double) = (1920, 1080)
    /// Replay through the real libinput on an umockdev testbed instead of the decoder
    /// (`LibinputTestbedInput`; takes the recording's duration).
    public var viaLibinput = false
    /// With `viaLibinput`: the backend plays haptics at this intensity on the testbed.
    public var haptics: HapticIntensity?

    public init() {}
}

/// Runs recordings through the decoder and the host core and writes the trace: the replay library (the
/// demo and the tests run it in-process with captured output). Files, the real libinput on a
/// testbed and the command line are `preview-replay`'s (`ReplayTool`).
public enum Replay {
    /// Any input, any clock: the seam for other input sources (the real libinput).
    public static func replay<Input: ReplayInput, Clock: ReplayClock>(
        input: Input, clock: Clock, options: ReplayOptions, output: (String) -> Void
    ) throws(RecordingError) -> ReplaySummary {
        var input = input
        let format = options.format
        let verbose = options.verbose
        let width = TraceColumns.nameWidth(for: input.devices.map(\.name))
        return try withoutActuallyEscaping(output) { (output) throws(RecordingError) -> ReplaySummary in
            let session = try hostCore { () throws(ReplaySessionError) in
                try ReplaySession(
                    configuration: options.configuration, devices: input.devices, outputSize: options.outputSize,
                    clock: clock, verbose: verbose, emit: { output(format.format($0, nameWidth: width)) },
                    note: { if format == .human { output($0) } },
                    played: { output(format == .human ? $0.humanLine(nameWidth: width) : $0.jsonLine) })
            }
            session.behaviour = options.behaviour
            try drive(&input, session)
            if verbose && format == .human {
                for line in whyNothing(
                    session.summary, devices: input.devices, touchPeaks: input.touchPeaks,
                    configuration: options.configuration)
                {
                    output(line)
                }
            }
            return session.summary
        }
    }

    /// The trace records of one input, for comparisons in tests (the direct decoder against the
    /// real libinput): should-begin records included when `options.verbose`.
    public static func records<Input: ReplayInput>(input: Input, options: ReplayOptions) throws(RecordingError)
        -> (records: [TraceRecord], summary: ReplaySummary)
    {
        var input = input
        var records: [TraceRecord] = []
        let session = try hostCore { () throws(ReplaySessionError) -> ReplaySession<VirtualClock> in
            try ReplaySession(
                configuration: options.configuration, devices: input.devices, outputSize: options.outputSize,
                clock: VirtualClock(), verbose: options.verbose, emit: { records.append($0) }, note: { _ in })
        }
        session.behaviour = options.behaviour
        try drive(&input, session)
        return (records, session.summary)
    }

    /// The session, or the reason the host core could not start, as the replay's error.
    private static func hostCore<Clock: ReplayClock>(
        _ make: () throws(ReplaySessionError) -> ReplaySession<Clock>
    ) throws(RecordingError) -> ReplaySession<Clock> {
        do {
            return try make()
        } catch {
            throw RecordingError(file: "preview-replay", line: 0, kind: .io, reason: error.description)
        }
    }

    /// Feeds the whole input to the session; at the end, contacts still down end (`.system`)
    /// and the engine's last timers fire.
    private static func drive<Input: ReplayInput, Clock: ReplayClock>(
        _ input: inout Input, _ session: ReplaySession<Clock>
    ) throws(RecordingError) {
        var events: [DeviceEvent] = []
        events.reserveCapacity(64)
        var last = Timestamp(microseconds: 0)
        while try input.next(into: &events) {
            for event in events {
                session.handle(event)
                last = max(last, event.time)
            }
            events.removeAll(keepingCapacity: true)
        }
        session.advance(to: last)
        input.finish(at: last, into: &events)
        for event in events { session.handle(event) }
        session.finish(at: last)
    }

    /// The closing `#` line of a human trace.
    public static func describe(_ summary: ReplaySummary) -> String {
        var parts = [
            "\(summary.contacts) contact(s)", "\(summary.interactions) interaction(s)",
            "\(summary.completed) completed",
        ]
        for reason in CancelReason.allCases {
            if let count = summary.cancelled[reason] { parts.append("\(count) cancelled (\(reason))") }
        }
        parts.append("peak force \(Fixed.format(summary.peakForce, digits: 3))")
        parts.append("\(Fixed.format(Double(summary.lastTime.microseconds) / 1_000_000, digits: 3))s")
        return "# " + parts.joined(separator: ", ")
    }
}
