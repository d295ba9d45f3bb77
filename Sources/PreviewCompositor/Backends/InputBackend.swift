import InputEvents
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// Where device events enter the compositor: everything an input backend may call. The
/// compositor implements it (`CompositorInputSink`); a backend never sees the compositor.
public protocol InputSink: AnyObject {
    /// A device appeared: its name in traces and logs.
    func deviceAdded(_ device: DeviceID, name: String)
    /// The device is gone: its interactions end (cancelled, as when it is unplugged).
    func deviceRemoved(_ device: DeviceID, at time: Timestamp)
    /// One decoded device event, timed on the compositor's clock.
    func handle(_ event: DeviceEvent)
    /// A haptic device played an effect (logged, and a line in the trace).
    func hapticPlayed(_ moment: HapticMoment, device: DeviceID, at time: Timestamp)
    /// The backend has played everything it had (a recording's end): --exit-when-done may stop.
    func inputFinished()
    /// Where the cursor is, in output coordinates (a host's pointer moves to a point from there).
    var cursor: Point { get }
    /// The output in logical coordinates (absolute devices map their range onto it).
    var output: Rect { get }
    /// What a recording paces itself by.
    var pacing: InputPacing { get }
}

/// What a recording paces itself by (the replay backend; other backends have no use for it):
/// one value, read for every replayed event, never kept. It says whether the compositor is
/// busy with a press and whether clients keep up, not how the engine or a client is doing it.
public struct InputPacing: Sendable {
    /// No press in progress: no contact down and nothing the engine still waits to do (a fast
    /// replay may skip the recording's idle time).
    public var idle: Bool
    /// A press waits for its client's should-begin answer (the replay pauses for it).
    public var awaitsAnswer: Bool
    /// Every client acknowledged its frames and no phase screenshot waits for a picture.
    public var clientsCaughtUp: Bool
    /// A client's toplevel is mapped (a recording waits for a window before it plays).
    public var windowMapped: Bool
    /// How long (µs) a pause may wait for a client that is slow but not gone.
    public var clientPatience: Int64
    /// The client whose surface the last stroke ended on has committed since: what the stroke's
    /// end changed there (a scroll, a new input region) is what the next stroke meets.
    public var strokeEndShown: Bool

    public init(
        idle: Bool, awaitsAnswer: Bool, clientsCaughtUp: Bool, windowMapped: Bool, clientPatience: Int64,
        strokeEndShown: Bool = true
    ) {
        self.idle = idle
        self.awaitsAnswer = awaitsAnswer
        self.clientsCaughtUp = clientsCaughtUp
        self.windowMapped = windowMapped
        self.clientPatience = clientPatience
        self.strokeEndShown = strokeEndShown
    }
}

/// A source of input: recordings, the real libinput, a window's seat, a host's fake devices.
/// Every backend turns its devices into the same `DeviceEvent`s, timed on the compositor's clock,
/// and hands them to its `InputSink`. A new kind of input is one folder under Backends/Input (the
/// backend and its `InputBackendDescriptor`) and one line in `BackendRegistry.standard`.
///
/// Life cycle: made before the socket opens (a file or device that cannot be used fails the
/// start with one line and leaves nothing behind), attached once the compositor is built,
/// started by `Compositor.start()`, stopped first in the teardown. Runs on the loop's thread.
public protocol InputBackend: AnyObject {
    /// The compositor is built: name the devices known so far, watch the backend's fds.
    func attach(to sink: InputSink, loop: EventLoop)
    /// `Compositor.start()`: the --run client was spawned; input may flow.
    func start()
    /// No more events (the teardown's first step).
    func stop()
}

extension InputBackend {
    public func start() {}
}

// MARK: optional capabilities (a backend conforms to those it has)

/// Told when a client's toplevel is mapped (a recording waits for a window before it plays; a
/// window shows its first frame with a client in it). Input and output backends alike.
public protocol WindowMapObserver: AnyObject {
    func windowMapped()
}

/// Input that ends (a recording): whether everything was played.
public protocol FiniteInput: InputBackend {
    var finished: Bool { get }
}

/// Input paced by its clients (a recording waits for acknowledgements and answers).
public protocol ClientPacedInput: InputBackend {
    /// Clients acknowledged frames, a phase screenshot was taken or a should-begin question was
    /// settled: something waiting for them may go on.
    func clientsMayHaveCaughtUp()
    /// A should-begin question went out, asked at `time` (the engine's time, however late the
    /// loop ran the input or timer that asked it).
    func questionAsked(at time: Timestamp)
}

/// Input whose events are timed before their turn on the event loop comes (a recording): the
/// engine's timer takes what is due before it handles its deadline, so a late loop cannot put a
/// deadline before an earlier event.
public protocol TimedInput: InputBackend {
    /// Hands the sink every event due by `time` (and what the backend's own pacing lets through).
    func deliverDue(by time: Timestamp)
}

/// Devices that bring their own keymap (a window: its parent's, in xkb text); without one, the
/// configured layout.
public protocol KeymapSource: InputBackend {
    var keymapText: String? { get }
}

/// Devices that play haptic effects (a pressure pad with FF_HAPTIC).
public protocol HapticInput: InputBackend {
    /// A haptic moment the host core decided for one of this backend's devices, as the phase
    /// that causes it is performed (the commit's deep click, in the same dispatch): played
    /// through the pad's own clicks, or dropped.
    func play(_ moment: HapticMoment, device: DeviceID, at time: Timestamp)
    /// Whether the device plays haptic effects.
    func hasHaptics(device: DeviceID) -> Bool
    /// A client's effect (play_haptic) for an interaction the device drives.
    func playRequestedHaptic(_ effect: AppHapticEffect, device: DeviceID, at time: Timestamp)
}
