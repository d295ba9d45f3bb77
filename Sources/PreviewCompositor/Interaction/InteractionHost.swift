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

/// The compositor's side of the host core: the shared `InteractionDriver` (engine, timer,
/// protocol server, core-input gate, the contact table, routing, preview keys, haptic moments)
/// decides; this host translates device events into its calls (output positions, the surface
/// under them, xkb's keys) and delivers the core input it lets through on the seat. What the
/// driver asks back (take away, give back, trace, screenshot moments) is `InteractionShell`'s.
/// Decoded device events come in through `handle(_:)`; everything runs on the display's thread.
final class InteractionHost: CatchUpObserver {
    let driver: InteractionDriver
    /// The driver's handler (it holds it unowned).
    private let shell: InteractionShell
    /// What is under a contact.
    private let scene: Scene
    private let seat: Seat
    private let keymap: Keymap
    private let logger: Logger
    private let phaseScreenshots: PhaseScreenshots?
    /// The engine asked for a timer that has not fired yet.
    var timerPending: Bool { driver.timerPending }
    /// A client owes the acknowledgement of a frame.
    var awaitsAcknowledgement: Bool { driver.awaitsAcknowledgement }
    /// Contacts down right now (the replay compresses only gaps where none is).
    var contactsDown: Int { driver.contacts.count }
    /// An interaction waits for its client's should-begin answer (the replay waits with it).
    var awaitsAnswer: Bool { driver.awaitingAnswerCount > 0 }

    init(
        configuration: CompositorConfiguration, display: Display, socketName: String?, logger: Logger, scene: Scene,
        surfaces: SurfaceRegistry, seat: Seat, input: CompositorInput, keymap: Keymap,
        phaseScreenshots: PhaseScreenshots?
    ) throws(CompositorError) {
        let trace: FileHandle?
        if let path = configuration.tracePath {
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
        let shell = InteractionShell(
            surfaces: surfaces, seat: seat, input: input, clock: configuration.clock, logger: logger,
            verbose: configuration.verbose, trace: trace, phaseScreenshots: phaseScreenshots)
        do {
            driver = try InteractionDriver(
                display: display, configuration: configuration.engine, haptics: configuration.haptics,
                advertising: configuration.previewProtocolVersion, handler: shell, logger: Log(logger))
        } catch {
            shell.closeTrace()
            throw .socketFailed(socketName ?? "-", "\(error)")
        }
        (self.shell, self.scene, self.seat, self.keymap) = (shell, scene, seat, keymap)
        (self.logger, self.phaseScreenshots) = (logger, phaseScreenshots)
        driver.logsTransitions = configuration.verbose
        driver.previewKeyBindings = configuration.previewKeys
        shell.observer = self
        phaseScreenshots?.observer = self
    }

    /// Called when acks arrive, screenshots are taken or a should-begin question may be settled:
    /// the host core may let a waiting replay go on.
    func clientsMayHaveCaughtUp() {
        driver.clientsMayHaveCaughtUp(hostCaughtUp: phaseScreenshots?.isIdle != false)
    }

    /// What a replay's pacing reads of the host core for every event (`--fast` and
    /// `--await-clients`): a press in progress, a question open, the clients caught up.
    var replayFacts: ReplayPacer.Facts { driver.replayFacts(hostCaughtUp: phaseScreenshots?.isIdle != false) }

    /// Read for every replayed event: no allocation.
    func pace(_ event: ReplayPacer.Event) -> ReplayPacer.Decision {
        driver.replayNext(event, hostCaughtUp: phaseScreenshots?.isIdle != false)
    }

    /// A recording starts: the host core paces it.
    func startReplay(_ options: ReplayPacer.Options) { driver.startReplay(options) }

    var replayNote: ReplayPacer.Note? { driver.replayNote }

    /// A haptic pad whose clicks follow its buttons: the host core plays its moments.
    func hapticPadAdded(_ device: DeviceID) { driver.hapticPadAdded(device, clicksFollow: .buttons) }

    /// Look Up's settings while it runs (nil: never started).
    var lookupConfiguration: LookupConfiguration? { driver.lookupConfiguration }

    func startLookup(_ configuration: LookupConfiguration, host: LookupHost) {
        driver.startLookup(configuration, host: host)
    }

    func configureLookup(_ configuration: LookupConfiguration) { driver.configureLookup(configuration) }

    /// Nothing the exit waits for: no engine timer, no contact down, no screenshot pending.
    var isQuiet: Bool { !timerPending && contactsDown == 0 && phaseScreenshots?.isIdle != false }

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
        logger.info(
            "flow control: \(statistics.summary); sent at once \(statistics.sentAtOnce); holds µs \(statistics.histogramText)"
        )
    }

    func close() {
        driver.close()
        shell.closeTrace()
    }

    func name(_ device: DeviceID, _ name: String) { shell.name(device, name) }

    /// A haptic pad played an effect: logged, and a `"event":"haptic"` line in the trace.
    func haptic(_ moment: HapticMoment, device: DeviceID, at time: Timestamp) {
        shell.haptic(moment, device: device, at: time)
    }

    /// A trace is being written (other parts build their records only then).
    var isTracing: Bool { shell.isTracing }

    /// A line of another part's (Look Up) in the trace.
    func writeTraceLine(_ json: Data) { shell.writeTraceLine(json) }

    func deviceRemoved(_ device: DeviceID, at time: Timestamp) {
        driver.deviceRemoved(device, at: time)
    }

    // MARK: device events (already re-timed onto the monotonic clock)

    func handle(_ event: DeviceEvent) {
        let time = UInt32(truncatingIfNeeded: event.time.microseconds / 1000)
        switch event {
        case .contactBegan(let contact):
            let point = outputPoint(contact)
            let hit = scene.surface(at: point).map {
                let origin = $0.surface.outputOrigin
                return SurfaceHit(surface: $0.surface.id, origin: Point(x: Double(origin.x), y: Double(origin.y)))
            }
            do {
                let routed = try driver.contactBegan(
                    contact.key, source: contact.source, at: point, over: hit,
                    force: contact.hasForce ? contact.force : nil, time: contact.time)
                logger.debug(
                    "contact \(contact.key) began at \(point) on \(routed.surface.map { "\($0)" } ?? "no interactive surface")"
                )
            } catch {
                logger.debug("contact \(contact.key) began again, or one too many: \(error)")
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
        case .cursor: seat.cursor
        }
    }

    private func outputPoint(_ position: NormalisedPoint) -> Point {
        let output = scene.output
        return Point(x: position.x * Double(output.width), y: position.y * Double(output.height))
    }

    /// Keyboard focus moved: the host core ends the keyboard interaction (`system`) and drops
    /// the withheld press, as the XML says.
    func keyboardFocusChanged() { driver.keyboardFocusLost(at: driver.now()) }

    /// A key, through the preview keys' rules (`PreviewKeys`) before wl_keyboard.
    private func previewKey(_ key: KeyState, seat: Seat, time: UInt32) {
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
}
