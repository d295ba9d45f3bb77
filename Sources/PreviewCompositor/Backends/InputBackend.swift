import LibinputBackend
import Logging
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// A source of input: recordings, the real libinput, a test's fake devices. Every backend turns
/// its devices into the same `DeviceEvent`s, timed on CLOCK_MONOTONIC, and hands them to the
/// compositor's input path (`Compositor.interaction`). A new kind of input is one more folder
/// under Backends/Input and one case in `CompositorConfiguration.InputSelection`.
///
/// Life cycle: made before the socket opens (a file or device that cannot be used fails the
/// start with one line and leaves nothing behind), attached once the compositor is built,
/// started by `Compositor.start()`, stopped first in the teardown. Runs on the loop's thread.
protocol InputBackend: AnyObject {
    /// The compositor is built: name the devices known so far, watch the backend's fds.
    func attach(to compositor: Compositor)
    /// `Compositor.start()`: the --run client was spawned; input may flow.
    func start()
    /// A toplevel was mapped (a recording waits for a window before it plays).
    func windowMapped()
    /// Clients acknowledged frames or a phase screenshot was taken.
    func clientsMayHaveCaughtUp()
    /// Whether everything was played: nil for live input, which never ends.
    var finished: Bool? { get }
    /// No more events (the teardown's first step).
    func stop()
    /// The keymap the devices type with, when the backend knows it (a window: its parent's,
    /// in xkb text); nil: the configured layout.
    var keymapText: String? { get }
    /// The engine's phase event for an interaction one of this backend's devices drives, as
    /// it is performed (a haptic pad clicks at the commit, in the same dispatch).
    func phaseChanged(_ event: PhaseEvent, _ update: PhaseUpdate)
    /// Whether one of this backend's devices plays haptic effects.
    func hasHaptics(device: DeviceID) -> Bool
    /// A client's effect (play_haptic) for an interaction the device drives.
    func playRequestedHaptic(_ effect: AppHapticEffect, device: DeviceID, at time: Timestamp)
}

extension InputBackend {
    func start() {}
    func windowMapped() {}
    func clientsMayHaveCaughtUp() {}
    var finished: Bool? { nil }
    var keymapText: String? { nil }
    func hasHaptics(device: DeviceID) -> Bool { false }
    func playRequestedHaptic(_ effect: AppHapticEffect, device: DeviceID, at time: Timestamp) {}
    func phaseChanged(_ event: PhaseEvent, _ update: PhaseUpdate) {}
}

extension CompositorConfiguration.InputSelection {
    /// The backend for this selection; nil for no input at all.
    func makeBackend(logger: Logger, clock: MonotonicClock, haptics: HapticIntensity = .off) throws(CompositorError)
        -> InputBackend?
    {
        switch self {
        case .none: nil
        case .replay(let paths): try ReplayDriver(paths: paths)
        case .libinput(let seat): try LibinputSource(seat: seat, logger: logger, clock: clock, haptics: haptics)
        case .injected: InjectedInput()
        }
    }
}
