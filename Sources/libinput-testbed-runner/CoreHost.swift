import InputEvents
import LibinputBackend
import Logging
import PreviewEngine
import PreviewLog
import PreviewLogging
import PreviewProtocolServer
import WaylandServer

/// `--haptics`: the host core as a compositor runs it, over one surface of its own (every
/// press accepted at once, with the `--behaviour` given): the backend's events go in, and the
/// haptic moments the core decides (a pad's press and release from its buttons, the commit's
/// deep click) are played on the backend's pad, as preview-compositor's libinput does. The
/// engine's timers are run from the runner's loop (`runDueTimers`), on the real clock.
final class CoreHost: InteractionDriverHandler {
    static let surface = SurfaceID(1)
    let display: Display
    private(set) var driver: InteractionDriver!
    private let backend: LibinputBackend
    /// A phase about to go out (where a compositor sends it to its client).
    var onPhase: ((PhaseEvent, PhaseUpdate) -> Void)?

    init(backend: LibinputBackend, behaviour: PressureBehaviour, logger: Logger) throws {
        self.backend = backend
        display = try Display()
        driver = try InteractionDriver(
            display: display, configuration: EngineConfiguration(), handler: self, logger: Log(logger))
        driver.ownSurface(Self.surface, behaviour: behaviour)
    }

    /// One of the backend's events.
    func handle(_ event: BackendEvent) {
        switch event {
        case .deviceAdded(let device):
            if backend.hasHaptics(device: device.id) { driver.hapticPadAdded(device.id, clicksFollow: .buttons) }
        case .deviceRemoved(let device, let time):
            driver.deviceRemoved(device, at: time)
        case .input(.contactBegan(let contact)):
            _ = try? driver.contactBegan(
                contact.key, source: contact.source, at: Point(x: 0, y: 0), over: SurfaceHit(surface: Self.surface),
                force: contact.hasForce ? contact.force : nil, time: contact.time)
        case .input(.contactChanged(let contact)):
            _ = try? driver.contactMoved(contact.key, to: nil, force: contact.force, at: contact.time)
        case .input(.contactEnded(let key, let time, let reason)):
            _ = try? driver.contactEnded(key, at: time, reason: reason)
        case .input(.button(let key)):
            driver.buttonChanged(key)
        case .input:
            break
        }
    }

    /// When the engine's next timer is due (the runner's poll wakes for it).
    var nextDeadline: Timestamp? { driver.nextDeadline }

    func runDueTimers() { driver.runDueTimers() }

    /// The run is over: running interactions end (system), the global goes.
    func close() {
        driver.endAllContacts(at: driver.now(), reason: .system)
        driver.close(hearingClients: false)
    }

    // MARK: InteractionDriverHandler

    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? { nil }
    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? { nil }

    func willPerform(_ action: Action) {
        if case .phase(let event, let update) = action { onPhase?(event, update) }
    }

    func hasHaptics(_ contact: ContactKey) -> Bool { backend.hasHaptics(device: contact.device) }

    func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp) {
        backend.play(moment, device: device, at: time)
    }
}
