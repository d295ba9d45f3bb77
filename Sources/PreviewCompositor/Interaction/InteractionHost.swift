import Foundation
import InputEvents
import Logging
import PreviewEngine
import PreviewLog
import PreviewLogging
import PreviewProtocolServer
import PreviewTrace
import SystemLayer
import WaylandServer

/// The compositor's shell over the host core: the shared `InteractionDriver` (engine, timer,
/// protocol server, core-input gate, the contact table, routing, preview keys, haptic moments)
/// decides; this shell translates device events into its calls (output positions, the surface
/// under them, xkb's keys), performs what it says on the seat (core input delivered, taken
/// away, given back, swallowed), and keeps the trace and the phase screenshots. Decoded device
/// events come in through `handle(_:)`; everything runs on the display's thread.
final class InteractionHost: InteractionDriverHandler {
    unowned let compositor: Compositor
    private(set) var driver: InteractionDriver!
    /// The engine asked for a timer that has not fired yet.
    var timerPending: Bool { driver.timerPending }
    /// A client owes the acknowledgement of a frame.
    var awaitsAcknowledgement: Bool { driver.awaitsAcknowledgement }
    private let trace: FileHandle?
    private var deviceNames: [DeviceID: String] = [:]
    /// Interactions whose preview / commit progress has reached one half (a screenshot moment each).
    private var halfway: [InteractionID: (preview: Bool, commit: Bool)] = [:]
    /// Contacts down right now (the replay compresses only gaps where none is).
    var contactsDown: Int { driver.contacts.count }
    /// An interaction waits for its client's should-begin answer (the replay waits with it).
    var awaitsAnswer: Bool { driver.awaitingAnswerCount > 0 }

    init(compositor: Compositor) throws(CompositorError) {
        self.compositor = compositor
        if let path = compositor.configuration.tracePath {
            // open(2), not FileManager: the path may be a FIFO someone reads (the demo's live view).
            do {
                let file = try Descriptor(opening: path, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
                trace = FileHandle(fileDescriptor: file.release(), closeOnDealloc: true)
            } catch {
                throw .trace(path, error.description)
            }
        } else {
            trace = nil
        }
    }

    /// Second phase of init: the driver needs `self`.
    func attach(display: Display) throws(CompositorError) {
        do {
            driver = try InteractionDriver(
                display: display, configuration: compositor.configuration.engine,
                haptics: compositor.configuration.haptics,
                advertising: compositor.configuration.previewProtocolVersion, handler: self,
                logger: Log(compositor.logger))
        } catch {
            throw .socketFailed(compositor.socketName ?? "-", "\(error)")
        }
        driver.logsTransitions = compositor.configuration.verbose
        driver.previewKeyBindings = compositor.configuration.previewKeys
    }

    func frameSent(surface: SurfaceID, interaction: InteractionID, serial: UInt32) {
        compositor.phaseScreenshots?.frameSent(surface: surface, interaction: interaction, serial: serial)
    }

    func frameAcknowledged(surface: SurfaceID, serial: UInt32) {
        compositor.phaseScreenshots?.acknowledged(surface: surface, serial: serial)
        compositor.clientsMayHaveCaughtUp()
    }

    /// The user's settings changed (`Compositor.reloadSettings`): the engine's, and the preview keys.
    func reload(_ engine: EngineConfiguration, previewKeys: [PreviewKeyBinding]) {
        driver.configure(engine)
        driver.previewKeyBindings = previewKeys
    }

    /// A surface's commit was applied (its preview region and behaviours take effect).
    func surfaceCommitted(_ surface: SurfaceID) { driver.surfaceCommitted(surface) }

    /// A surface went away: its interactions and lookups end.
    func surfaceDestroyed(_ surface: SurfaceID) { driver.surfaceDestroyed(surface, at: driver.now()) }

    /// How flow control treated progress values this run (-v; scripts/measure-holds reads it).
    func logFlowStatistics() {
        let statistics = driver.flowStatistics
        guard statistics.values > 0 else { return }
        compositor.logger.info(
            "flow control: \(statistics.summary); sent at once \(statistics.sentAtOnce); holds µs \(statistics.histogramText)"
        )
    }

    func close() {
        driver?.close()
        try? trace?.close()
    }

    func name(_ device: DeviceID, _ name: String) { deviceNames[device] = name }

    /// A haptic pad played an effect: logged, and a `"event":"haptic"` line in the trace.
    func haptic(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        let record = HapticRecord(
            device: deviceNames[device] ?? device.description, effect: moment.rawValue, waveform: moment.waveform,
            time: time)
        compositor.logger.info("\(record.humanLine(nameWidth: 0))")
        trace?.write(Data((record.jsonLine + "\n").utf8))
    }

    /// A trace is being written (other parts build their records only then).
    var isTracing: Bool { trace != nil }

    /// A line of another part's (Look Up) in the trace.
    func writeTraceLine(_ json: Data) { trace?.write(json + Data("\n".utf8)) }

    func deviceRemoved(_ device: DeviceID, at time: Timestamp) {
        driver.deviceRemoved(device, at: time)
    }

    // MARK: device events (already re-timed onto the monotonic clock)

    func handle(_ event: DeviceEvent) {
        let seat = compositor.seat
        let time = UInt32(truncatingIfNeeded: event.time.microseconds / 1000)
        switch event {
        case .contactBegan(let contact):
            let point = outputPoint(contact)
            let hit = compositor.scene.surface(at: point).map {
                let origin = $0.surface.outputOrigin
                return SurfaceHit(surface: $0.surface.id, origin: Point(x: Double(origin.x), y: Double(origin.y)))
            }
            do {
                let routed = try driver.contactBegan(
                    contact.key, source: contact.source, at: point, over: hit,
                    force: contact.hasForce ? contact.force : nil, time: contact.time)
                compositor.logger.debug(
                    "contact \(contact.key) began at \(point) on \(routed.surface.map { "\($0)" } ?? "no interactive surface")"
                )
            } catch {
                compositor.logger.debug("contact \(contact.key) began again, or one too many: \(error)")
            }
            if coreBegan(contact, at: point, time: time, seat: seat) {
                try? driver.deliver(contact.key, as: .tabletTool)
            }
        case .contactChanged(let contact):
            let point = outputPoint(contact)
            let moved = try? driver.contactMoved(contact.key, to: point, force: contact.force, at: contact.time)
            if !driver.isTakenAway(contact.key) {
                coreMoved(contact, to: point, tablet: moved?.delivery == .tabletTool, time: time, seat: seat)
            }
        case .contactEnded(let key, let endTime, let reason):
            // The protocol's order: the interaction ends before the core release.
            let ended = try? driver.contactEnded(key, at: endTime, reason: reason)
            let swallow = ended?.swallow ?? false
            if let contact = ended?.contact, contact.delivery == .tabletTool {
                if swallow {
                    seat.tabletTipReleasedSilently()
                } else {
                    seat.tabletTool(at: contact.position, pressure: 0, axes: nil, tip: .up, time: time)
                }
            } else {
                coreEnded(key, source: ended?.contact.source, time: time, seat: seat, swallow: swallow)
            }
        case .pointerMotion(let motion):
            seat.pointerMoved(dx: motion.dx, dy: motion.dy, time: time)
        case .scroll(let scroll):
            if scroll.vertical120 != 0 {
                seat.pointerAxis(
                    vertical: true, value: scroll.vertical * 15, discrete: scroll.vertical120 / 120, time: time)
            }
            if scroll.horizontal120 != 0 {
                seat.pointerAxis(
                    vertical: false, value: scroll.horizontal * 15, discrete: scroll.horizontal120 / 120, time: time)
            }
        case .button(let key):
            driver.buttonChanged(key)  // a haptic pad's click is the host core's to play
            // Primary buttons are also contacts; their press/release is delivered with the contact.
            // A pen's barrel buttons go with the tool when it is on a tablet client.
            if isContactButton(key) { break }
            if key.device == tabletPen, seat.tabletButton(UInt32(key.code), pressed: key.pressed, time: time) { break }
            seat.pointerButton(UInt32(key.code), pressed: key.pressed, time: time)
        case .key(let key):
            previewKey(key, seat: seat, time: time)
        case .toolProximity(let state, false):
            if tabletPen == state.device {
                seat.tabletProximityOut(time: time)
                tabletPen = nil
            }
        case .toolProximity(let state, true), .toolMotion(let state):
            // tablet-v2 for a client that bound a tablet seat, else a hovering pen moves the cursor.
            let point = outputPoint(state.position)
            if seat.tabletTool(at: point, pressure: state.pressure, axes: state.axes, tip: .unchanged, time: time) {
                tabletPen = state.device
            } else {
                seat.pointerWarped(to: point, time: time)
            }
        case .frame:
            seat.touchFrame()
        }
    }

    /// The pen device whose tool is in proximity over tablet-v2 (its barrel buttons go there).
    private var tabletPen: DeviceID?

    /// BTN_LEFT (and a touchpad's click, also BTN_LEFT) arrive both as a contact and a button.
    private func isContactButton(_ key: KeyState) -> Bool { key.code == EventCode.buttonLeft }

    /// What a contact is to wl_pointer: the primary button.
    private static let primary = UInt32(EventCode.buttonLeft)

    /// The core press. Returns true when a pen went down over tablet-v2.
    private func coreBegan(_ contact: DeviceContact, at point: Point, time: UInt32, seat: Seat) -> Bool {
        switch contact.source {
        case .touchscreen:
            seat.touchDown(id: contact.key.contact, at: point, time: time)
        case .pen:
            let pressure = contact.hasForce ? contact.force : nil
            if seat.tabletTool(at: point, pressure: pressure, axes: contact.pen, tip: .down, time: time) {
                tabletPen = contact.key.device
                return true
            }
            seat.pointerWarped(to: point, time: time)
            seat.pointerButton(Self.primary, pressed: true, time: time)
        case .touchpad, .pointer:
            seat.pointerButton(Self.primary, pressed: true, time: time)
        case .keyboard:
            break  // the decoder makes no keyboard contacts: keys are `.key` events
        }
        return false
    }

    private func coreMoved(_ contact: DeviceContact, to point: Point, tablet: Bool, time: UInt32, seat: Seat) {
        switch contact.source {
        case .touchscreen: seat.touchMotion(id: contact.key.contact, to: point, time: time)
        case .pen where tablet:
            let pressure = contact.hasForce ? contact.force : nil
            seat.tabletTool(at: point, pressure: pressure, axes: contact.pen, tip: .unchanged, time: time)
        case .pen: seat.pointerWarped(to: point, time: time)
        case .touchpad, .pointer, .keyboard: break
        }
    }

    /// The core release (`source` nil: a contact that never began here).
    private func coreEnded(_ key: ContactKey, source: InputSource?, time: UInt32, seat: Seat, swallow: Bool) {
        switch source {
        case .touchscreen?:
            // A swallowed touch point was cancelled when it was taken away.
            if !swallow { seat.touchUp(id: key.contact, time: time) }
        case .pen?, .touchpad?, .pointer?:
            seat.pointerButton(Self.primary, pressed: false, time: time, deliver: !swallow)
        case .keyboard?:
            break  // no keyboard contacts (see coreBegan)
        case nil:
            if seat.isTouchDown(id: key.contact) {
                seat.touchUp(id: key.contact, time: time)
            } else {
                seat.pointerButton(Self.primary, pressed: false, time: time, deliver: !swallow)
            }
        }
    }

    private func outputPoint(_ contact: DeviceContact) -> Point {
        switch contact.positioning {
        case .absolute: outputPoint(contact.position)
        case .cursor: compositor.seat.cursor
        }
    }

    private func outputPoint(_ position: NormalisedPoint) -> Point {
        let output = compositor.scene.output
        return Point(x: position.x * Double(output.width), y: position.y * Double(output.height))
    }

    // MARK: InteractionDriverHandler

    func takeAway(_ contact: RoutedContact, surface: SurfaceID) {
        compositor.logger.debug("core input of \(contact.key) taken away (commit phase)")
        // A tablet tool leaves the surface (up, proximity_out) like a drag-and-drop grab.
        // A touch point gets wl_touch.cancel (the client's touch points all end).
        // Any other contact is the pointer (a pen without tablet-v2, a touchpad, a
        // mouse): wl_pointer.leave, and nothing re-enters while it is away.
        switch contact.delivery {
        case .tabletTool: compositor.seat.tabletProximityOut(time: compositor.clock.eventTime())
        case .touch: compositor.seat.touchCancel(id: contact.key.contact)
        case .pointer: compositor.seat.takePointerAway()
        }
    }

    func giveBack(_ contact: RoutedContact, surface: SurfaceID, stillDown: Bool) {
        compositor.logger.debug("core input of \(contact.key) given back")
        switch contact.delivery {
        case .pointer:
            // The pointer enters the surface under the cursor again (wl_pointer.enter, no button).
            compositor.seat.givePointerBack()
        case .tabletTool where stillDown:
            // The tool enters the surface under it again: proximity_in, no down.
            compositor.seat.tabletTool(
                at: contact.position, pressure: nil, axes: nil, tip: .unchanged, time: compositor.clock.eventTime())
        case .tabletTool, .touch:
            break  // a tool lifting leaves silently; a cancelled touch point is over
        }
    }

    /// Keyboard focus moved: the host core ends the keyboard interaction (`system`) and drops
    /// the withheld press, as the XML says.
    func keyboardFocusChanged() { driver.keyboardFocusLost(at: driver.now()) }

    /// A key, through the preview keys' rules (`PreviewKeys`) before wl_keyboard.
    private func previewKey(_ key: KeyState, seat: Seat, time: UInt32) {
        let keymap = compositor.keymap
        var focus: KeyboardFocus?
        if let surface = seat.keyboardFocus, surface.isAlive {
            let size = surface.node.size
            focus = KeyboardFocus(surface: surface.node.id, size: Point(x: Double(size.width), y: Double(size.height)))
        }
        let input = PreviewKeys.Key(
            key, symbols: keymap.symbols(evdevKey: UInt32(key.code)), held: keymap.heldModifiers)
        switch driver.key(input, device: key.device, focus: focus) {
        case .deliver: seat.key(UInt32(key.code), pressed: key.pressed, time: time)
        case .withhold: break
        case .deliverTap(let pressedAt):
            seat.key(UInt32(key.code), pressed: true, time: UInt32(truncatingIfNeeded: pressedAt.microseconds / 1000))
            seat.key(UInt32(key.code), pressed: false, time: time)
        }
    }

    func hasHaptics(_ contact: ContactKey) -> Bool { compositor.input.hasHaptics(device: contact.device) }

    func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp) {
        compositor.input.playRequestedHaptic(effect, device: contact.device, at: time)
    }

    /// The commit's deep click on the device driving the interaction, in this dispatch, before
    /// the client hears of it: the backend plays it through the pad's own clicks.
    func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp) {
        compositor.input.play(moment, device: device, at: time)
    }

    func willPerform(_ action: Action) { record(action) }

    /// A replay's wait may end (the host core paces it).
    func replayMayGoOn() { compositor.replayMayGoOn() }

    func client(of surface: SurfaceID) -> Client? { compositor.surfaces[surface]?.client }

    /// Keys reach a client that bound a keyboard.
    func deliversKeys(to surface: SurfaceID) -> Bool {
        guard let focus = compositor.surfaces[surface] else { return false }
        return !compositor.seat.keyboards(of: focus).isEmpty
    }

    /// A should-begin may have been settled (answered, timed out): a waiting replay goes on.
    func interactionsChanged() { compositor.clientsMayHaveCaughtUp() }

    func deliverInput(dueBy time: Timestamp) { compositor.deliverInput(dueBy: time) }

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
        let traced = trace != nil || compositor.logger.logLevel <= .debug
        if traced, let record = traceRecord(of: action, update) {
            compositor.logger.debug("\(record.humanLine)")
            if let trace, record.event != .shouldBegin || compositor.configuration.verbose {
                trace.write(Data((record.jsonLine + "\n").utf8))
            }
        }
        guard let event, compositor.phaseScreenshots != nil else { return }
        for moment in moments(of: event, update) {
            compositor.phaseMoment(moment, interaction: update.interaction, surface: update.surface)
        }
    }

    private func traceRecord(of action: Action, _ update: PhaseUpdate) -> TraceRecord? {
        let client = compositor.surfaces.clientName(of: update.surface)
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
