import InputEvents
import PreviewEngine
import PreviewProtocolServer

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
        compositor.interaction.handle(event)
    }

    func hapticPlayed(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        compositor.interaction.haptic(moment, device: device, at: time)
    }

    func hapticPadAdded(_ device: DeviceID) {
        compositor.interaction.driver.hapticPadAdded(device, clicksFollow: .buttons)
    }

    func inputFinished() { compositor.inputFinished() }

    var cursor: Point { compositor.seat.cursor }

    var output: Rect { compositor.scene.output }

    func startReplay(_ options: ReplayPacer.Options) { compositor.interaction.driver.startReplay(options) }

    /// Read for every replayed event: no allocation.
    func pace(_ event: ReplayPacer.Event) -> ReplayPacer.Decision {
        compositor.interaction.driver.replayNext(event, hostCaughtUp: compositor.phaseScreenshots?.isIdle != false)
    }

    var paceNote: ReplayPacer.Note? { compositor.interaction.driver.replayNote }

    var windowMapped: Bool { compositor.scene.windows.contains { $0.role == .toplevel } }
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
