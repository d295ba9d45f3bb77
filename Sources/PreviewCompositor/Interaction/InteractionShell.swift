import Foundation
import InputEvents
import Logging
import PreviewEngine
import PreviewLog
import PreviewProtocolServer
import PreviewTrace
import WaylandServer

/// What the host core asks of the compositor (`InteractionDriverHandler`): core input taken
/// away from and given back to the seat, haptics played by the input backend, a replay's
/// pacing, surfaces and regions resolved; and what it performs, written to the trace and turned
/// into phase screenshot moments. The driver holds it unowned: `InteractionHost` keeps it.
final class InteractionShell: InteractionDriverHandler {
    private let surfaces: SurfaceRegistry
    private let seat: Seat
    private let input: CompositorInput
    private let clock: MonotonicClock
    private let logger: Logger
    /// -v: should-begin questions go to the trace too.
    private let verbose: Bool
    private let trace: FileHandle?
    private let phaseScreenshots: PhaseScreenshots?
    /// The interaction host, told when a waiting replay may go on (it owns the driver).
    weak var observer: CatchUpObserver?
    private var deviceNames: [DeviceID: String] = [:]
    /// Interactions whose preview / commit progress has reached one half (a screenshot moment each).
    private var halfway: [InteractionID: (preview: Bool, commit: Bool)] = [:]

    init(
        surfaces: SurfaceRegistry, seat: Seat, input: CompositorInput, clock: MonotonicClock, logger: Logger,
        verbose: Bool, trace: FileHandle?, phaseScreenshots: PhaseScreenshots?
    ) {
        self.surfaces = surfaces
        (self.seat, self.input, self.clock, self.logger, self.verbose) = (seat, input, clock, logger, verbose)
        (self.trace, self.phaseScreenshots) = (trace, phaseScreenshots)
    }

    func name(_ device: DeviceID, _ name: String) { deviceNames[device] = name }

    func closeTrace() { try? trace?.close() }

    func frameSent(surface: SurfaceID, interaction: InteractionID, serial: UInt32) {
        phaseScreenshots?.frameSent(surface: surface, interaction: interaction, serial: serial)
    }

    func frameAcknowledged(surface: SurfaceID, serial: UInt32) {
        phaseScreenshots?.acknowledged(surface: surface, serial: serial)
        observer?.clientsMayHaveCaughtUp()
    }

    /// A haptic pad played an effect: logged, and a `"event":"haptic"` line in the trace.
    func haptic(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        let record = HapticRecord(
            device: deviceNames[device] ?? device.description, effect: moment.rawValue, waveform: moment.waveform,
            time: time)
        logger.info("\(record.humanLine(nameWidth: 0))")
        trace?.write(Data((record.jsonLine + "\n").utf8))
    }

    /// A trace is being written (other parts build their records only then).
    var isTracing: Bool { trace != nil }

    /// A line of another part's (Look Up) in the trace.
    func writeTraceLine(_ json: Data) { trace?.write(json + Data("\n".utf8)) }

    func takeAway(_ contact: RoutedContact, surface: SurfaceID) {
        logger.debug("core input of \(contact.key) taken away (commit phase)")
        // A tablet tool leaves the surface (up, proximity_out) like a drag-and-drop grab.
        // A touch point gets wl_touch.cancel (the client's touch points all end).
        // Any other contact is the pointer (a pen without tablet-v2, a touchpad, a
        // mouse): wl_pointer.leave, and nothing re-enters while it is away.
        switch contact.delivery {
        case .tabletTool: seat.tabletProximityOut(time: clock.eventTime())
        case .touch: seat.touchCancel(id: contact.key.contact)
        case .pointer: seat.takePointerAway()
        }
    }

    func giveBack(_ contact: RoutedContact, surface: SurfaceID, stillDown: Bool) {
        logger.debug("core input of \(contact.key) given back")
        switch contact.delivery {
        case .pointer:
            // The pointer enters the surface under the cursor again (wl_pointer.enter, no button).
            seat.givePointerBack()
        case .tabletTool where stillDown:
            // The tool enters the surface under it again: proximity_in, no down.
            seat.tabletTool(
                at: contact.position, pressure: nil, axes: nil, tip: .unchanged, time: clock.eventTime())
        case .tabletTool, .touch:
            break  // a tool lifting leaves silently; a cancelled touch point is over
        }
    }

    func hasHaptics(_ contact: ContactKey) -> Bool { input.hasHaptics(device: contact.device) }

    func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp) {
        input.playRequestedHaptic(effect, device: contact.device, at: time)
    }

    /// The commit's deep click on the device driving the interaction, in this dispatch, before
    /// the client hears of it: the backend plays it through the pad's own clicks.
    func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp) {
        input.play(moment, device: device, at: time)
    }

    func willPerform(_ action: Action) { record(action) }

    /// A replay's wait may end (the host core paces it).
    func replayMayGoOn() { input.replayMayGoOn() }

    func client(of surface: SurfaceID) -> Client? { surfaces[surface]?.client }

    /// Keys reach a client that bound a keyboard.
    func deliversKeys(to surface: SurfaceID) -> Bool {
        guard let focus = surfaces[surface] else { return false }
        return !seat.keyboards(of: focus).isEmpty
    }

    /// A should-begin may have been settled (answered, timed out): a waiting replay goes on.
    func interactionsChanged() { observer?.clientsMayHaveCaughtUp() }

    func deliverInput(dueBy time: Timestamp) { input.deliverDue(by: time) }

    /// The trace and the screenshot moments, before the frame that carries the action is sent.
    private func record(_ action: Action) {
        let update: PhaseUpdate
        let event: PhaseEvent?
        switch action {
        case .askShouldBegin(let value): (update, event) = (value, nil)
        case .phase(let phase, let value): (update, event) = (value, phase)
        case .scheduleTimer: return
        }
        // The record (names, strings) is made only for someone who reads it: this runs for
        // every progress sample.
        let traced = trace != nil || logger.logLevel <= .debug
        if traced, let record = traceRecord(of: action, update) {
            logger.debug("\(record.humanLine)")
            if let trace, record.event != .shouldBegin || verbose {
                trace.write(Data((record.jsonLine + "\n").utf8))
            }
        }
        guard let event, let phaseScreenshots else { return }
        for moment in moments(of: event, update) {
            phaseScreenshots.occurred(moment, interaction: update.interaction, surface: update.surface)
        }
    }

    private func traceRecord(of action: Action, _ update: PhaseUpdate) -> TraceRecord? {
        let client = surfaces.clientName(of: update.surface)
        let device = deviceNames[update.contact.device] ?? update.contact.device.description
        return TraceRecord(action, device: device, surface: update.surface, client: client)
    }

    /// The screenshot moments an action is (docs/compositor.md): phase changes, and the first
    /// time each phase's progress reaches one half.
    private func moments(of event: PhaseEvent, _ update: PhaseUpdate) -> [ScreenshotMoments.Moment] {
        switch event {
        case .previewEnded:
            halfway[update.interaction] = nil
            return [.commit]
        case .previewBegan, .previewProgress:
            var moments: [ScreenshotMoments.Moment] = event == .previewBegan ? [.preview] : []
            if update.progress >= 0.5, halfway[update.interaction]?.preview != true {
                halfway[update.interaction, default: (false, false)].preview = true
                moments.append(.previewHalf)
            }
            return moments
        case .completed:
            halfway[update.interaction] = nil
            return [.completed]
        case .commitProgress:
            guard update.progress >= 0.5, halfway[update.interaction]?.commit != true else { return [] }
            halfway[update.interaction, default: (false, false)].commit = true
            return [.commitHalf]
        case .cancelled:
            halfway[update.interaction] = nil
            return [.cancelled]
        case .stage:
            return []  // accelerators: not declared through this compositor yet
        }
    }

    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? {
        ResourceObject.owner(of: resource, as: Surface.self)?.node.id
    }

    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? {
        guard let region = ResourceObject.owner(of: resource, as: RegionResource.self)?.region else { return nil }
        return PreviewRegion(
            operations: region.operations.map {
                switch $0 {
                case .add(let r): .add(.init(x: r.x, y: r.y, width: r.width, height: r.height))
                case .subtract(let r): .subtract(.init(x: r.x, y: r.y, width: r.width, height: r.height))
                }
            })
    }
}
