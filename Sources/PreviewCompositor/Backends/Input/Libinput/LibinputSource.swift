import InputEvents
import LibinputBackend
import Logging
import PreviewEngine
import PreviewLog
import PreviewLogging
import PreviewProtocolServer
import WaylandServer

extension CompositorConfiguration.InputSelection {
    /// A real seat through udev (the user's haptics from the configuration).
    public static func libinput(seat: String) -> Self {
        Self(name: "libinput") { context throws(CompositorError) in
            try LibinputSource(
                seat: seat, logger: context.logger, clock: context.clock, haptics: context.configuration.haptics)
        }
    }
}

extension LibinputSource {
    static let descriptor = InputBackendDescriptor(
        name: "libinput", help: "The real seat through libinput and udev.",
        options: [
            BackendOption("libinput", help: "Use the real seat through libinput and udev."),
            BackendOption("seat", value: .one("seat"), help: "The udev seat (default: seat0)."),
        ]
    ) { arguments throws(BackendUsageError) in
        .libinput(seat: arguments.value("seat") ?? "seat0")
    }
}

/// `--libinput`: a real seat through udev, its events on the display's loop. Device events
/// carry libinput's CLOCK_MONOTONIC times, the engine's clock already.
final class LibinputSource: InputBackend, HapticInput {
    private let backend: LibinputBackend
    private let logger: Logger
    private let clock: MonotonicClock
    private var source: EventSource?
    /// The devices found when the seat was opened, named once the compositor is attached.
    private var initialDevices: [(DeviceID, String)] = []

    /// Fails with a one-line reason when libinput cannot open the seat or finds no device
    /// it may open (no /dev/input, or no permission on it).
    init(seat: String, logger: Logger, clock: MonotonicClock, haptics: HapticIntensity) throws(CompositorError) {
        guard let backend = LibinputBackend(source: .udev(seat: seat), haptics: haptics, logger: Log(logger)) else {
            throw .backend(LibinputUnavailable(reason: "cannot set up libinput on udev seat \(seat)"))
        }
        self.backend = backend
        self.logger = logger
        self.clock = clock
        var devices: [(DeviceID, String)] = []
        backend.dispatch(now: Timestamp(microseconds: clock.microseconds())) { event in
            if case .deviceAdded(let device) = event { devices.append((device.id, device.name)) }
        }
        guard !devices.isEmpty else {
            throw .backend(
                LibinputUnavailable(
                    reason:
                        "no input device on udev seat \(seat) could be opened (none present, or no permission on /dev/input/event*: join the input group or run under a seat manager)"
                ))
        }
        initialDevices = devices
    }

    func attach(to sink: InputSink, loop: EventLoop) {
        for (id, name) in initialDevices { added(id, name: name, sink) }
        initialDevices = []
        backend.onHaptic = { [unowned sink] device, moment, time in
            sink.hapticPlayed(moment, device: device, at: time)
        }
        source = loop.addFD(backend.fileDescriptor, events: .readable) { [unowned self, unowned sink] _ in
            backend.dispatch(now: Timestamp(microseconds: clock.microseconds())) { event in
                switch event {
                case .deviceAdded(let device):
                    added(device.id, name: device.name, sink)
                    logger.info("input device added: \(device.name) (\(device.kind))")
                case .deviceRemoved(let id, let time):
                    sink.deviceRemoved(id, at: time)
                case .input(let input):
                    sink.handle(input)
                }
            }
        }
    }

    /// A device appeared; a haptic pad's clicks are the host core's to decide from its buttons.
    private func added(_ id: DeviceID, name: String, _ sink: InputSink) {
        sink.deviceAdded(id, name: name)
        if backend.hasHaptics(device: id) { sink.hapticPadAdded(id) }
    }

    /// A moment the host core decided (the press and release from the pad's buttons, the deep
    /// click at the commit, before the phase event goes out to the client).
    func play(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        backend.play(moment, device: device, at: time)
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

/// Why the libinput backend cannot start: one line, for the user.
public struct LibinputUnavailable: Error, CustomStringConvertible, Equatable, Sendable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { "cannot use libinput: \(reason)" }
}
