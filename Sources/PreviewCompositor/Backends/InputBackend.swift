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
    /// A device is a haptic pad in host mode: the host core decides its clicks (press and
    /// release from its buttons, the deep click at the commit), the backend plays them.
    func hapticPadAdded(_ device: DeviceID)
    /// The backend has played everything it had (a recording's end): --exit-when-done may stop.
    func inputFinished()
    /// Where the cursor is, in output coordinates (a host's pointer moves to a point from there).
    var cursor: Point { get }
    /// The output in logical coordinates (absolute devices map their range onto it).
    var output: Rect { get }
    /// A recording begins: the host core paces it (the same in every host) with these options.
    func startReplay(_ options: ReplayPacer.Options)
    /// Whether a recording's next event goes now (the host core's pacing, with what the
    /// compositor itself waits for: phase screenshots).
    func pace(_ event: ReplayPacer.Event) -> ReplayPacer.Decision
    /// What the last `pace` would have the backend log.
    var paceNote: ReplayPacer.Note? { get }
    /// A client's toplevel is mapped (a recording waits for a window before it plays).
    var windowMapped: Bool { get }
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
    /// The host core says a wait may end (acknowledgements, an answer, a commit, a phase
    /// screenshot taken): offer the held event again.
    func replayMayGoOn()
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
    /// A haptic moment the host core decided for one of this backend's devices (in the same
    /// dispatch as the event or phase that causes it): played on its pad, or dropped.
    func play(_ moment: HapticMoment, device: DeviceID, at time: Timestamp)
    /// Whether the device plays haptic effects.
    func hasHaptics(device: DeviceID) -> Bool
    /// A client's effect (play_haptic) for an interaction the device drives.
    func playRequestedHaptic(_ effect: AppHapticEffect, device: DeviceID, at time: Timestamp)
}
