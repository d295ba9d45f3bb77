import InputEvents
import Logging
import PreviewEngine
import PreviewProtocolServer

/// The compositor as its input backends see it: where device events enter (the host core's
/// side here), and the little state a recording paces itself by. Nothing else of the compositor
/// reaches a backend.
final class CompositorInputSink: InputSink {
    /// Unowned: the input holds this sink, and the host core's side holds the input.
    private unowned let interaction: InteractionHost
    private let seat: Seat
    private let scene: Scene
    /// The tests' hook, read at each event (they set it at any time).
    private let observe: (DeviceEvent) -> Void
    private let finished: () -> Void

    init(
        interaction: InteractionHost, seat: Seat, scene: Scene, observe: @escaping (DeviceEvent) -> Void,
        finished: @escaping () -> Void
    ) {
        (self.interaction, self.seat, self.scene) = (interaction, seat, scene)
        (self.observe, self.finished) = (observe, finished)
    }

    func deviceAdded(_ device: DeviceID, name: String) { interaction.name(device, name) }

    func deviceRemoved(_ device: DeviceID, at time: Timestamp) { interaction.deviceRemoved(device, at: time) }

    func handle(_ event: DeviceEvent) {
        observe(event)
        interaction.handle(event)
    }

    func hapticPlayed(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        interaction.haptic(moment, device: device, at: time)
    }

    func hapticPadAdded(_ device: DeviceID) { interaction.hapticPadAdded(device) }

    func inputFinished() { finished() }

    var cursor: Point { seat.cursor }

    var output: Rect { scene.output }

    func startReplay(_ options: ReplayPacer.Options) { interaction.startReplay(options) }

    /// Read for every replayed event: no allocation.
    func pace(_ event: ReplayPacer.Event) -> ReplayPacer.Decision { interaction.pace(event) }

    var paceNote: ReplayPacer.Note? { interaction.replayNote }

    var windowMapped: Bool { scene.windows.contains { $0.role == .toplevel } }
}

/// The compositor as its output backend sees it: frames are due, the mode changed, the output
/// ended.
final class CompositorPresentation: Presentation {
    private unowned let compositor: Compositor
    private let logger: Logger

    init(compositor: Compositor, logger: Logger) { (self.compositor, self.logger) = (compositor, logger) }

    func frameDue() { compositor.frame() }

    func modeChanged(_ mode: OutputMode) { compositor.outputModeChanged(mode) }

    func ended(status: Int32, reason: String) {
        if status == 0 { logger.notice("\(reason)") } else { logger.error("\(reason)") }
        compositor.stop(status: status)
    }
}
