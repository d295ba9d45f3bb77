import InputEvents
import PreviewEngine

/// The compositor as its input backends see it: where device events enter, and the little
/// state a recording paces itself by. Nothing else of the compositor reaches a backend.
final class CompositorInputSink: InputSink {
    private unowned let compositor: Compositor

    init(compositor: Compositor) { self.compositor = compositor }

    func deviceAdded(_ device: DeviceID, name: String) { compositor.interaction.name(device, name) }

    func deviceRemoved(_ device: DeviceID, at time: Timestamp) {
        compositor.interaction.deviceRemoved(device, at: time)
    }

    func handle(_ event: DeviceEvent) {
        compositor.hooks.onInputEvent?(event)
        let down = compositor.interaction.contactsDown > 0
        compositor.interaction.handle(event)
        if down && compositor.interaction.contactsDown == 0 { compositor.strokeEnded() }
    }

    func hapticPlayed(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        compositor.interaction.haptic(moment, device: device, at: time)
    }

    func inputFinished() { compositor.inputFinished() }

    var cursor: Point { compositor.seat.cursor }

    var output: Rect { compositor.scene.output }

    /// Read for every replayed event: no allocation.
    var pacing: InputPacing {
        let interaction = compositor.interaction!
        return InputPacing(
            idle: interaction.contactsDown == 0 && !interaction.timerPending,
            awaitsAnswer: interaction.awaitsAnswer, clientsCaughtUp: compositor.clientsCaughtUp,
            windowMapped: compositor.scene.windows.contains { $0.role == .toplevel },
            clientPatience: compositor.configuration.clientPatience, strokeEndShown: compositor.strokeEndShown)
    }
}

/// The compositor as its output backend sees it: frames are due, the mode changed, the output
/// ended.
final class CompositorPresentation: Presentation {
    private unowned let compositor: Compositor

    init(compositor: Compositor) { self.compositor = compositor }

    func frameDue() { compositor.frame() }

    func modeChanged(_ mode: OutputMode) { compositor.outputModeChanged(mode) }

    func ended(status: Int32, reason: String) {
        if status == 0 { compositor.logger.notice("\(reason)") } else { compositor.logger.error("\(reason)") }
        compositor.stop(status: status)
    }
}
