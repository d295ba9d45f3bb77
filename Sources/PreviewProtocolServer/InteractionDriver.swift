import Logging
import PreviewEngine
import SystemLayer
import WaylandServer

/// What a host does for the `InteractionDriver`: it owns core input, wl_surface and wl_region,
/// and tells its own listeners. Every call comes on the display's thread.
public protocol InteractionDriverHandler: AnyObject {
    /// The engine's id for a wl_surface resource of the host's clients; nil if it is not one.
    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID?

    /// The current contents of a wl_region resource of the host's clients, or nil if unknown.
    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion?

    /// The commit phase began: take the contact away from the client's core input
    /// (wl_pointer.leave, wl_touch.cancel, tool proximity_out). Called after the client was
    /// sent preview_ended, so it reads that first.
    func takeAway(_ contact: ContactKey, surface: SurfaceID)

    /// The interaction that took the contact away ended: the pointer or tool may enter again
    /// (no press, no release; the release stays swallowed).
    func giveBack(_ contact: ContactKey, surface: SurfaceID)

    /// An action is about to go to its client (should-begin or a phase event): traces and
    /// moments that must be known before the frame carrying it is sent.
    func willPerform(_ action: Action)

    /// A phase event went to its client: the host's own listeners (callbacks, haptics).
    func didPerform(_ event: PhaseEvent, _ update: PhaseUpdate)

    /// Whether the device that drives `contact` can play haptic effects (a haptic pad).
    func hasHaptics(_ contact: ContactKey) -> Bool

    /// A client's effect for the interaction `contact` drives, while it runs and the user has
    /// haptics on: play it on that device (rate-limited there), or drop it.
    func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp)

    /// Runs an input the driver starts itself (its timer, a client's request), so a host can
    /// hold back its own teardown until the input is done. The driver touches the handler only
    /// inside `input`: a host destroyed from one of its callbacks is gone once `run` returns.
    func run(_ input: () -> Void)

    /// A timer or a client's input was applied: a should-begin question may have been settled.
    func interactionsChanged()
}

extension InteractionDriverHandler {
    public func willPerform(_ action: Action) {}
    public func didPerform(_ event: PhaseEvent, _ update: PhaseUpdate) {}
    public func hasHaptics(_ contact: ContactKey) -> Bool { false }
    public func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp) {}
    public func run(_ input: () -> Void) { input() }
    public func interactionsChanged() {}
}

/// The one interaction driver every host shares (the compositor and the C library): it owns
/// the engine and its timer, the protocol server and the core-input gate, and performs the
/// engine's actions in the protocol's order. Hosts feed it inputs and implement the narrow
/// `InteractionDriverHandler`. Runs on the display's thread.
public final class InteractionDriver: PreviewProtocolHost {
    public private(set) var engine: InteractionEngine
    /// The protocol server (its global lives as long as the driver, or until `close()`).
    /// Implicitly unwrapped only because the server is made with `self` as its host: set in
    /// `init` before anything can call in, never set to nil.
    public private(set) var server: PreviewInteractionServer!
    /// True from a `.scheduleTimer` with a deadline until the timer fires or is cancelled.
    public private(set) var timerPending = false
    /// Logs every state change an input caused (`from → event → to`) at notice level.
    public var logsTransitions = false
    private unowned let handler: InteractionDriverHandler
    private let logger: Logger
    private let clock: MonotonicClock
    private var gate = CoreInputGate()
    private var timer: EventSource?

    /// `haptics`: the user's haptics setting, told to version 2 clients. `version`: the
    /// protocol version the global advertises.
    public init(
        display: Display, configuration: EngineConfiguration, haptics: HapticIntensity = .off,
        advertising version: Int32 = PreviewInteractionServer.version, handler: InteractionDriverHandler,
        logger: Logger
    ) throws {
        engine = InteractionEngine(configuration: configuration)
        self.handler = handler
        self.logger = logger
        clock = display.clock
        server = try PreviewInteractionServer(display: display, host: self, logger: logger, advertising: version)
        server.settings = PreviewSettings(engine: configuration, haptics: haptics)
        // A client behind on its acks is as slow as one that has not answered should-begin yet:
        // it gets the same time before a press is declined on its behalf.
        server.unresponsiveAfter = configuration.shouldBeginTimeout
        timer = display.eventLoop.addTimer { [unowned self] in
            timerPending = false
            handler.run {
                perform(engine.timerFired(at: now()))
                handler.interactionsChanged()
            }
        }
        guard timer != nil else { throw WaylandServerError("cannot add the interaction timer") }
    }

    /// Stops the timer and withdraws the global (objects of connected clients stay until they go).
    /// `hearingClients: false` also stops what those objects report: nothing reaches the engine
    /// or the handler any more (a host that is gone for good).
    public func close(hearingClients: Bool = true) {
        timer?.remove()
        timer = nil
        timerPending = false
        server?.removeGlobal()
        if !hearingClients { server?.host = nil }
    }

    public func now() -> Timestamp { Timestamp(microseconds: clock.microseconds()) }

    /// New settings apply to contacts that begin afterwards; version 2 clients hear them at
    /// once (the settings group). `haptics` nil keeps the current setting.
    public func configure(_ configuration: EngineConfiguration, haptics: HapticIntensity? = nil) {
        engine.configure(configuration)
        server.unresponsiveAfter = configuration.shouldBeginTimeout
        server.settings = PreviewSettings(engine: configuration, haptics: haptics ?? server.settings.haptics)
    }

    /// The user's settings as clients hear them.
    public var settings: PreviewSettings { server.settings }

    // MARK: inputs

    /// Any engine input, written into a buffer on the stack and performed (the per-event path
    /// copies no `Actions`): `input` returns false when it produced nothing to perform.
    public func apply(_ input: (inout InteractionEngine, inout Actions) -> Bool) {
        var actions = Actions()
        if input(&engine, &actions) { perform(actions) }
    }

    /// The behaviour is the client's for the contact's point (`sample.location`, surface-local).
    public func contactBegan(_ sample: ForceSample, surface: SurfaceID?, hasForce: Bool) {
        let behaviour = surface.map { server.behaviour(on: $0, at: sample.location) } ?? .deepClick
        apply { engine, actions in
            engine.contactBegan(sample, surface: surface, hasForce: hasForce, behaviour: behaviour, into: &actions)
            return true
        }
    }

    public func forceChanged(_ sample: ForceSample) {
        apply { engine, actions in
            engine.forceChanged(sample, into: &actions)
            return true
        }
    }

    /// The contact ended; returns true when its core release must not be delivered (the
    /// commit phase took it away). The interaction ends first, as the protocol orders.
    public func contactEnded(_ contact: ContactKey, at time: Timestamp, reason: CancelReason) -> Bool {
        apply { engine, actions in
            engine.contactEnded(contact, at: time, reason: reason, into: &actions)
            return true
        }
        return release(contact)
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

    /// The user's preview key went down while `surface` (of `surfaceSize`, surface-local) had
    /// keyboard focus. Returns true when it may begin an interaction there: the host then
    /// withholds the press from the client until `keyReleased` says what became of it. False:
    /// deliver the key as usual (no object, keyboard not among its sources, a generic area).
    public func keyPressed(
        _ key: ContactKey, surface: SurfaceID, surfaceSize: Point, at time: Timestamp
    ) -> Bool {
        guard let point = server.keyboardPoint(on: surface, surfaceSize: surfaceSize),
            allowsInteraction(on: surface, at: point, source: .keyboard)
        else { return false }
        let behaviour = server.behaviour(on: surface, at: point)
        guard behaviour != .generic else { return false }
        apply { engine, actions in
            engine.keyPressed(key, at: point, surface: surface, behaviour: behaviour, time: time, into: &actions)
            return true
        }
        return true
    }

    /// The withheld preview key came up. Returns true when no interaction was announced (a
    /// tap): the host then delivers the withheld press and this release to the client.
    public func keyReleased(_ key: ContactKey, at time: Timestamp) -> Bool {
        let announced = engine.interaction(for: key)?.phase != nil
        apply { engine, actions in
            engine.keyReleased(key, at: time, into: &actions)
            return true
        }
        return !announced
    }

    /// Escape on `seat`: its running interactions are cancelled (`dismissed`). True when one was
    /// (the host then withholds the Escape from the client).
    public func escapePressed(seat: UInt32, at time: Timestamp) -> Bool {
        let running = engine.interactions.contains { $0.contact.seat == seat && $0.phase?.isFinal == false }
        apply { engine, actions in
            engine.escapePressed(seat: seat, at: time, into: &actions)
            return true
        }
        return running
    }

    public func deviceRemoved(_ device: DeviceID, at time: Timestamp) {
        perform(engine.deviceRemoved(device, at: time))
    }

    public func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp) {
        perform(engine.surfaceDestroyed(surface, at: time))
    }

    /// Shutting down: every running interaction is cancelled with `reason`.
    public func endAllContacts(at time: Timestamp, reason: CancelReason) {
        perform(engine.endAllContacts(at: time, reason: reason))
    }

    // MARK: core input

    /// True during the commit phase of the contact's interaction: no core event of it reaches
    /// the client.
    public func isTakenAway(_ contact: ContactKey) -> Bool { gate.isTakenAway(contact, in: engine) }

    /// The contact's core release (or loss): true when it must be swallowed.
    public func release(_ contact: ContactKey) -> Bool { gate.release(contact) }

    /// Whether a press at `point` (surface-local) from `source` may begin an interaction on `surface`.
    public func allowsInteraction(on surface: SurfaceID, at point: Point, source: InputSource) -> Bool {
        server.allowsInteraction(on: surface, at: point, source: source)
    }

    // MARK: actions

    private func perform(_ actions: Actions) {
        if logsTransitions { logTransitions() }
        var sentWithPrevious = false
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
            case .askShouldBegin(let value): update = value
            case .phase(_, let value): update = value
            }
            let change = gate.apply(action)
            handler.willPerform(action)
            if sentWithPrevious {
                sentWithPrevious = false
            } else {
                sentWithPrevious = server.perform(action, joining: actions.element(after: index))
            }
            if case .phase(let event, _) = action { handler.didPerform(event, update) }
            // After the phase event, so the client reads preview_ended before the contact leaves.
            switch change {
            case .takeAway(let contact, let surface)?: handler.takeAway(contact, surface: surface)
            case .giveBack(let contact, let surface)?: handler.giveBack(contact, surface: surface)
            case nil: break
            }
        }
    }

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
        }
    }
}
