import InputEvents
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// The input concern's state: the backend input comes from (nil: none), its optional
/// capabilities looked up once (haptic pads, a recording's pacing and timing, a finite input),
/// and what is told when a window maps. Backends reach the compositor only through `sink`.
final class CompositorInput {
    private let backend: InputBackend?
    private let haptic: HapticInput?
    private let paced: ClientPacedInput?
    private let timed: TimedInput?
    /// Told when a client's toplevel is mapped (a recording starts; a window output shows it).
    private let windowObservers: [WindowMapObserver]
    /// What the backend calls (it holds it unowned).
    private var sink: CompositorInputSink?

    init(backend: InputBackend?, outputObserver: WindowMapObserver?) {
        self.backend = backend
        haptic = backend as? HapticInput
        paced = backend as? ClientPacedInput
        timed = backend as? TimedInput
        windowObservers = [backend as? WindowMapObserver, outputObserver].compactMap { $0 }
    }

    /// There is input at all.
    var exists: Bool { backend != nil }
    /// The keymap the devices bring (a window's parent's), if any.
    var keymapText: String? { (backend as? KeymapSource)?.keymapText }
    /// Whether the input has played everything (nil for live input or none).
    var finished: Bool? { (backend as? FiniteInput)?.finished }
    /// The backend, when it is of that kind (a host driving injected devices itself).
    func backend<Kind: InputBackend>(as kind: Kind.Type) -> Kind? { backend as? Kind }

    func attach(_ sink: CompositorInputSink, loop: EventLoop) {
        self.sink = sink
        backend?.attach(to: sink, loop: loop)
    }

    func start() { backend?.start() }

    /// No more events (the teardown's first step).
    func stop() { backend?.stop() }

    func windowMapped() { for observer in windowObservers { observer.windowMapped() } }

    // MARK: what the host core asks of the input

    func play(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        haptic?.play(moment, device: device, at: time)
    }

    func hasHaptics(device: DeviceID) -> Bool { haptic?.hasHaptics(device: device) ?? false }

    func playRequestedHaptic(_ effect: AppHapticEffect, device: DeviceID, at time: Timestamp) {
        haptic?.playRequestedHaptic(effect, device: device, at: time)
    }

    /// A replay's wait may end.
    func replayMayGoOn() { paced?.replayMayGoOn() }

    /// The engine's timer is about to handle `time`: a recording's events due by then go first.
    func deliverDue(by time: Timestamp) { timed?.deliverDue(by: time) }
}
