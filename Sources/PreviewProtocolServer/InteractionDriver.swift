import InputEvents
import PreviewEngine
import PreviewLog
import SystemLayer
import WaylandServer

/// What a host does for the `InteractionDriver`: it owns core input, wl_surface and wl_region,
/// its devices, and tells its own listeners. Every call comes on the display's thread.
public protocol InteractionDriverHandler: AnyObject {
    /// The engine's id for a wl_surface resource of the host's clients; nil if it is not one.
    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID?

    /// The current contents of a wl_region resource of the host's clients, or nil if unknown.
    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion?

    /// The commit phase began: take the contact away from the client's core input as its
    /// `delivery` says (wl_pointer.leave, wl_touch.cancel, tool proximity_out). Called after the
    /// client was sent preview_ended, so it reads that first. Never for the keyboard.
    func takeAway(_ contact: RoutedContact, surface: SurfaceID)

    /// The interaction that took the contact away ended: the pointer or tool may enter again
    /// (no press, no release; the release stays swallowed). `stillDown` false: the contact is
    /// ending (lifted, cancelled, its device gone), its release swallowed right after.
    func giveBack(_ contact: RoutedContact, surface: SurfaceID, stillDown: Bool)

    /// An action is about to go to its client (should-begin or a phase event): traces and
    /// moments that must be known before the frame carrying it is sent.
    func willPerform(_ action: Action)

    /// A phase event went to its client: the host's own listeners (callbacks).
    func didPerform(_ event: PhaseEvent, _ update: PhaseUpdate)

    /// A haptic moment is due on `device`, decided here (`HapticClicks`) for the pads the host
    /// registered with `hapticPadAdded`; for any other device only the commit's deep click,
    /// which a backend that keeps a pad's clicks itself plays through them, or drops.
    func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp)

    /// Whether the device that drives `contact` can play haptic effects (a haptic pad).
    func hasHaptics(_ contact: ContactKey) -> Bool

    /// A client's effect for the interaction `contact` drives, while it runs and the user has
    /// haptics on: play it on that device (rate-limited there), or drop it.
    func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp)

    /// A frame went to a client (phase screenshots wait for its acknowledgement).
    func frameSent(surface: SurfaceID, interaction: InteractionID, serial: UInt32)

    /// A client acknowledged a frame.
    func frameAcknowledged(surface: SurfaceID, serial: UInt32)

    /// Runs an input the driver starts itself (its timer, a client's request), so a host can
    /// hold back its own teardown until the input is done. The driver touches the handler only
    /// inside `input`: a host destroyed from one of its callbacks is gone once `run` returns.
    func run(_ input: () -> Void)

    /// A timer or a client's input was applied: a should-begin question may have been settled.
    func interactionsChanged()

    /// The engine's timer is about to handle `time`: input the host holds that is timed before
    /// it (a recording's next events) goes in first, so the engine sees its deadlines and the
    /// input in time order however late a loaded machine runs either.
    func deliverInput(dueBy time: Timestamp)

    /// A replay's wait may end (`replayNext` may say go): offer the held event again.
    func replayMayGoOn()

    /// The client of a surface (a replay waits for a client's commit), nil if unknown.
    func client(of surface: SurfaceID) -> Client?

    /// Whether a key press delivered with keyboard focus on `surface` reaches a client (one that
    /// bound a keyboard): a replay then waits for that client's next commit.
    func deliversKeys(to surface: SurfaceID) -> Bool
}

extension InteractionDriverHandler {
    public func takeAway(_ contact: RoutedContact, surface: SurfaceID) {}
    public func giveBack(_ contact: RoutedContact, surface: SurfaceID, stillDown: Bool) {}
    public func willPerform(_ action: Action) {}
    public func didPerform(_ event: PhaseEvent, _ update: PhaseUpdate) {}
    public func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp) {}
    public func hasHaptics(_ contact: ContactKey) -> Bool { false }
    public func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp) {}
    public func frameSent(surface: SurfaceID, interaction: InteractionID, serial: UInt32) {}
    public func frameAcknowledged(surface: SurfaceID, serial: UInt32) {}
    public func run(_ input: () -> Void) { input() }
    public func interactionsChanged() {}
    public func deliverInput(dueBy time: Timestamp) {}
    public func replayMayGoOn() {}
    public func client(of surface: SurfaceID) -> Client? { nil }
    public func deliversKeys(to surface: SurfaceID) -> Bool { true }
}

/// The host core every host is a thin shell over (the compositor and the C library): it owns
/// the engine and its timer, the protocol server, the core-input gate and the one contact table,
/// and decides everything between a host's input and its client: which surface a contact belongs
/// to, the client's behaviour and source filters, the preview keys, keyboard focus loss, what
/// core input is taken away, given back or swallowed, and the haptic moments. It performs the
/// engine's actions in the protocol's order and tells the host what to do through the narrow
/// `InteractionDriverHandler`. Hosts translate their own input into its calls and never reach
/// the engine or the protocol server. Runs on the display's thread.
public final class InteractionDriver: PreviewProtocolHost {
    private(set) var engine: InteractionEngine
    /// The protocol server (its global lives as long as the driver, or until `close()`); the
    /// driver becomes its host at the end of `init`, before any client can call in.
    let server: PreviewInteractionServer
    /// True from a `.scheduleTimer` with a deadline until the timer fires or is cancelled.
    public private(set) var timerPending = false
    /// Logs every state change an input caused (`from → event → to`) at notice level.
    public var logsTransitions = false
    /// The one contact table: every contact that is down, routed.
    public internal(set) var contacts = ContactTable()
    /// The host that owns this driver (so it outlives it): unretained.
    unowned(unsafe) let handler: InteractionDriverHandler
    let logger: Log
    let display: Display
    private let clock: MonotonicClock
    var gate = CoreInputGate()
    private var timer: EventSource?
    /// Each seat's preview keys (what is withheld), with the user's bindings.
    var keyboards: [UInt32: PreviewKeys] = [:]
    /// The user's preview keys, for every seat.
    public var previewKeyBindings = PreviewKeyBinding.defaults {
        didSet { for seat in keyboards.keys { keyboards[seat]?.bindings = previewKeyBindings } }
    }
    /// Haptic pads in host mode (registered by the host): their clicks, and what they follow.
    var hapticPads: [DeviceID: (clicks: HapticClicks, follows: HapticPadClicks)] = [:]
    /// Surfaces the host stands behind itself (no client): their behaviour (`ownSurface`).
    var ownSurfaces: [SurfaceID: PressureBehaviour] = [:]
    /// Look Up, while the host has it (`startLookup`).
    var lookup: LookupDriver?
    /// The pacing of a replay the host runs (`startReplay`), and what it waits for.
    var replay: ReplayPacer?
    var replayWatch = ReplayWatch()

    /// `haptics`: the user's haptics setting, told to version 2 clients. `version`: the
    /// protocol version the global advertises.
    public init(
        display: Display, configuration: EngineConfiguration, haptics: HapticIntensity = .off,
        advertising version: Int32 = PreviewInteractionServer.version, handler: InteractionDriverHandler,
        logger: Log = .discarding
    ) throws(WaylandServerError) {
        engine = InteractionEngine(configuration: configuration)
        self.handler = handler
        self.logger = logger
        self.display = display
        clock = display.clock
        server = try PreviewInteractionServer(display: display, host: nil, logger: logger, advertising: version)
        server.settings = PreviewSettings(engine: configuration, haptics: haptics)
        // A client behind on its acks is as slow as one that has not answered should-begin yet:
        // it gets the same time before a press is declined on its behalf.
        server.unresponsiveAfter = configuration.shouldBeginTimeout
        server.onFrameSent = { [unowned(unsafe) handler] surface, interaction, serial in
            handler.frameSent(surface: surface, interaction: interaction, serial: serial)
        }

        // Unretained: the timer is this driver's, removed when it goes.
        timer = display.eventLoop.addTimer { [unowned(unsafe) self] in
            let time = now()
            handler.run {
                // Still pending while that input goes in: a recording must not take this moment
                // for an idle gap between gestures.
                handler.deliverInput(dueBy: time)
                timerPending = false
                perform(engine.timerFired(at: time))
                // The input may have asked for the next deadline already; then timerFired asks for none.
                timerPending = engine.nextDeadline != nil
                // Inside `run`: a host that destroys itself from a callback is still there here.
                handler.interactionsChanged()
                clientsMayHaveCaughtUp()
            }
        }
        guard timer != nil else { throw WaylandServerError("cannot add the interaction timer") }
        server.attachHost(self)
    }

    deinit { server.detachHost() }

    /// Stops the timer and withdraws the global (objects of connected clients stay until they go).
    /// `hearingClients: false` also stops what those objects report: nothing reaches the engine
    /// or the handler any more (a host that is gone for good).
    public func close(hearingClients: Bool = true) {
        stopLookup()
        timer?.remove()
        timer = nil
        timerPending = false
        server.removeGlobal()
        if !hearingClients { server.detachHost() }
    }

    public func now() -> Timestamp { Timestamp(microseconds: clock.microseconds()) }

    // MARK: settings

    /// New settings apply to contacts that begin afterwards; version 2 clients hear them at
    /// once (the settings group). `haptics` nil keeps the current setting.
    public func configure(_ configuration: EngineConfiguration, haptics: HapticIntensity? = nil) {
        engine.configure(configuration)
        lookup?.configure(engine: configuration)
        server.unresponsiveAfter = configuration.shouldBeginTimeout
        server.settings = PreviewSettings(engine: configuration, haptics: haptics ?? server.settings.haptics)
    }

    /// The engine's settings.
    public var configuration: EngineConfiguration { engine.configuration }

    /// The user's settings as clients hear them.
    public var settings: PreviewSettings { server.settings }

    // MARK: what hosts and tests ask (the engine and the server answer; no copies kept)

    /// Interactions running: asked should-begin, previewing or committing.
    public var runningCount: Int { engine.runningCount }

    /// Interactions whose client has been asked should-begin and has not answered yet.
    public var awaitingAnswerCount: Int { engine.awaitingAnswerCount }

    /// Contacts the engine tracks (the table's and the keyboard's).
    public var engineContactCount: Int { engine.contactCount }

    /// The phase of the interaction a contact drives, nil when none runs.
    public func phase(of contact: ContactKey) -> Phase? { engine.interaction(for: contact)?.phase }

    /// What the client declared at a surface-local point (version 2's behaviour areas).
    public func behaviour(on surface: SurfaceID, at point: Point) -> PressureBehaviour {
        server.behaviour(on: surface, at: point)
    }

    /// A client owes the acknowledgement of a frame.
    public var awaitsAcknowledgement: Bool { server.awaitsAcknowledgement }

    /// How flow control treated progress values so far.
    public var flowStatistics: FlowStatistics { server.flowStatistics }

    /// The host applied a commit of the surface (its region and behaviours take effect).
    public func surfaceCommitted(_ surface: SurfaceID) {
        server.surfaceCommitted(surface)
        replaySurfaceCommitted(surface)
    }

    /// Fires the engine's timer now if it is due by the display's clock: for a host whose
    /// clock jumps (a stepped clock), which need not wait for the loop's timer to come round.
    public func runDueTimers() {
        guard let due = engine.nextDeadline, due <= now() else { return }
        timerPending = false
        handler.run {
            perform(engine.timerFired(at: now()))
            handler.interactionsChanged()
        }
    }

    /// The device is gone: its interactions are cancelled (`deviceRemoved`, still naming it in
    /// the host's callbacks), then its contacts leave the table unreleased and its pad is forgotten.
    public func deviceRemoved(_ device: DeviceID, at time: Timestamp) {
        endingDevice = device
        perform(engine.deviceRemoved(device, at: time))
        endingDevice = nil
        for key in contacts.keys(of: device) {
            _ = contacts.end(key)
            _ = gate.release(key)
        }
        hapticPads[device] = nil
        lookup?.deviceRemoved(device, at: time)
    }

    /// A surface of the host's clients went away (any surface: a window looked up too).
    public func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp) {
        perform(engine.surfaceDestroyed(surface, at: time))
        lookup?.surfaceDestroyed(surface, at: time)
        replaySurfaceGone(surface)
        ownSurfaces[surface] = nil
    }

    /// Shutting down: every running interaction is cancelled with `reason`.
    public func endAllContacts(at time: Timestamp, reason: CancelReason) {
        perform(engine.endAllContacts(at: time, reason: reason))
    }

    // MARK: actions

    /// Engine actions, written into a buffer on the stack (the per-event path copies no `Actions`).
    func perform(_ input: (inout InteractionEngine, inout Actions) -> Void) {
        var actions = Actions()
        input(&engine, &actions)
        perform(actions)
    }

    func perform(_ actions: Actions) {
        if logsTransitions { logTransitions() }
        // The engine has recovered already (cancelled with `system`); the log says why.
        if let fault = engine.fault {
            logger.error("\(fault)\(engine.faultCount > 1 ? " (and \(engine.faultCount - 1) more)" : "")")
        }
        var sentWithPrevious = false
        // Questions about the host's own surfaces, answered (yes) once this batch is done.
        var ownQuestions: [PhaseUpdate] = []
        for index in actions.indices {
            let action = actions[index]
            let update: PhaseUpdate
            switch action {
            case .scheduleTimer(let due):
                if let due {
                    timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: (due - now()).microseconds))
                } else {
                    timer?.arm(milliseconds: 0)
                }
                timerPending = due != nil
                continue
            case .askShouldBegin(let value):
                update = value
                if ownSurfaces[value.surface] != nil {
                    ownQuestions.append(value)
                } else {
                    replayQuestionAsked(at: value.time)
                }
            case .phase(_, let value): update = value
            }
            // The host's own surfaces have no client to tell.
            let toClient = ownSurfaces[update.surface] == nil
            let change = gate.apply(action)
            // The commit's deep click, in this dispatch, before the client hears of the commit.
            if case .phase(.previewEnded, _) = action, update.source != .keyboard { commitClick(update) }
            handler.willPerform(action)
            if sentWithPrevious {
                sentWithPrevious = false
            } else if toClient {
                sentWithPrevious = server.perform(action, joining: actions.element(after: index))
            }
            if case .phase(let event, _) = action { handler.didPerform(event, update) }
            // After the phase event, so the client reads preview_ended before the contact leaves.
            // Keyboard contacts have no core input to take away: the preview keys withhold them.
            switch change {
            case .takeAway(let key, let surface)?:
                if let contact = contacts[key] { handler.takeAway(contact, surface: surface) }
            case .giveBack(let key, let surface)?:
                if let contact = contacts[key] {
                    handler.giveBack(contact, surface: surface, stillDown: !isEnding(key))
                }
            case nil: break
            }
        }
        for question in ownQuestions {
            perform { engine, actions in
                engine.clientAnswered(question.interaction, accept: true, at: question.time, into: &actions)
            }
        }
    }

    /// The contact, or the device's contacts, whose end the engine is performing now: a
    /// give-back is the last thing they get.
    var endingContact: ContactKey?
    var endingDevice: DeviceID?

    private func isEnding(_ key: ContactKey) -> Bool { key == endingContact || key.device == endingDevice }

    private func logTransitions() {
        let log = engine.transitions
        for transition in log { logger.notice("transition \(transition)") }
        if log.dropped > 0 { logger.notice("transition: \(log.dropped) more not recorded") }
    }

    // MARK: PreviewProtocolHost

    public func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? {
        handler.surfaceID(forSurfaceResource: resource)
    }

    public func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? {
        handler.region(forRegionResource: resource)
    }

    public func behaviour(of interaction: InteractionID) -> PressureBehaviour {
        engine.interaction(interaction)?.behaviour ?? .deepClick
    }

    /// A client acknowledged a frame: the host hears of it, and a replay waiting for the client
    /// may go on.
    public func frameAcknowledged(surface: SurfaceID, serial: UInt32) {
        handler.frameAcknowledged(surface: surface, serial: serial)
        clientsMayHaveCaughtUp()
    }

    /// Never for the keyboard, nor while the user has haptics off.
    public func hapticsAvailable(for interaction: InteractionID) -> Bool {
        guard server.settings.haptics != .off, let running = engine.interaction(interaction),
            running.source != .keyboard
        else { return false }
        return handler.hasHaptics(running.contact)
    }

    /// Only while the interaction runs past the client's answer (preview, commit, accelerator).
    public func playHaptic(_ effect: AppHapticEffect, for interaction: InteractionID) {
        guard hapticsAvailable(for: interaction), let running = engine.interaction(interaction),
            let phase = running.phase, phase != .asking, !phase.isFinal
        else { return }
        handler.playHaptic(effect, on: running.contact, at: now())
    }

    public func previewServer(_ server: PreviewInteractionServer, received input: PreviewClientInput) {
        handler.run {
            switch input {
            case .answered(let id, let accept, _): perform(engine.clientAnswered(id, accept: accept, at: now()))
            case .cancelled(let id, _): perform(engine.clientCancelled(id, at: now()))
            case .surfaceDestroyed(let surface, _): perform(engine.surfaceDestroyed(surface, at: now()))
            }
            handler.interactionsChanged()
            clientsMayHaveCaughtUp()
        }
    }
}
