import EvdevDecoder
import LibinputBackend
import Logging
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// `--libinput`: a real seat through udev, its events on the display's loop. Device events
/// carry libinput's CLOCK_MONOTONIC times, the engine's clock already.
final class LibinputSource: InputBackend {
    private let backend: LibinputBackend
    private var source: EventSource?
    /// The devices found when the seat was opened, named once the compositor is attached.
    private var initialDevices: [(DeviceID, String)] = []

    /// Fails with a one-line reason when libinput cannot open the seat or finds no device
    /// it may open (no /dev/input, or no permission on it).
    init(seat: String, logger: Logger, clock: MonotonicClock, haptics: HapticIntensity) throws(CompositorError) {
        guard let backend = LibinputBackend(source: .udev(seat: seat), haptics: haptics, logger: logger) else {
            throw .libinputUnavailable("cannot set up libinput on udev seat \(seat)")
        }
        self.backend = backend
        var devices: [(DeviceID, String)] = []
        backend.dispatch(now: Timestamp(microseconds: clock.microseconds())) { event in
            if case .deviceAdded(let device) = event { devices.append((device.id, device.name)) }
        }
        guard !devices.isEmpty else {
            throw .libinputUnavailable(
                "no input device on udev seat \(seat) could be opened (none present, or no permission on /dev/input/event*: join the input group or run under a seat manager)"
            )
        }
        initialDevices = devices
    }

    func attach(to compositor: Compositor) {
        for (id, name) in initialDevices { compositor.interaction.name(id, name) }
        initialDevices = []
        backend.onHaptic = { [unowned compositor] device, moment, time in
            compositor.interaction.haptic(moment, device: device, at: time)
        }
        source = compositor.display.eventLoop.addFD(backend.fileDescriptor, events: .readable) {
            [unowned self, unowned compositor] _ in
            backend.dispatch(now: Timestamp(microseconds: compositor.clock.microseconds())) { event in
                switch event {
                case .deviceAdded(let device):
                    compositor.interaction.name(device.id, device.name)
                    compositor.logger.info("input device added: \(device.name) (\(device.kind))")
                case .deviceRemoved(let id, let time):
                    compositor.interaction.deviceRemoved(id, at: time)
                case .input(let input):
                    compositor.interaction.handle(input)
                }
            }
        }
    }

    /// The commit's deep click, written before the phase event goes out to the client.
    func phaseChanged(_ event: PhaseEvent, _ update: PhaseUpdate) {
        backend.phaseChanged(event, device: update.contact.device, at: update.time)
    }

    func hasHaptics(device: DeviceID) -> Bool { backend.hasHaptics(device: device) }

    /// An app's effect: tick and snap are the pad's press, confirm the deep click (the CLICK
    /// waveform); the pad drops one too soon after the previous.
    func playRequestedHaptic(_ effect: AppHapticEffect, device: DeviceID, at time: Timestamp) {
        guard let moment = HapticMoment(appEffect: effect.rawValue) else { return }
        backend.playRequestedHaptic(moment, device: device, at: time)
    }

    /// No more events, and the pads' clicks go back to their firmware (effects erased).
    func stop() {
        source?.remove()
        backend.stopHaptics()
    }
}
