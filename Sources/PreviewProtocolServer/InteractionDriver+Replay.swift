import PreviewEngine
import WaylandServer

/// What a replay waits for in every host, from what the core sees of its clients: a key press
/// a client was sent, until that client commits (its effect, such as a new focus point, shows
/// in its next commit), and the client the last stroke ended on, until it commits (what the
/// stroke changed, such as a page's new areas, is what the next press meets).
struct ReplayWatch: Sendable {
    var keyPressedOn: SurfaceID?
    var strokeEndedOn: SurfaceID?
}

/// Replaying recorded input, the same in every host: the host keeps its events and its timer,
/// and asks the core when each is due (`replayNext`); the core paces it (`ReplayPacer`) by
/// what it knows of the clients and Look Up, and tells the host when a wait may end
/// (`InteractionDriverHandler.replayMayGoOn`).
extension InteractionDriver {
    /// A replay begins with `options` (any earlier one's pacing is forgotten). Without a
    /// patience of its own, a question holds the recording as long as the engine waits for its
    /// answer and a margin (its own timer's), 5 s at least.
    public func startReplay(_ options: ReplayPacer.Options) {
        var options = options
        if options.clientPatience <= 0 {
            options.clientPatience = max(
                5_000_000, min(configuration.shouldBeginTimeout.microseconds, 60_000_000) + 100_000)
        }
        replay = ReplayPacer(options: options)
        replayWatch = ReplayWatch()
    }

    /// Whether the replay's next event goes now. `hostCaughtUp`: what the host itself waits
    /// for besides the core (a phase screenshot waiting for its picture). Without a replay
    /// begun, every event goes now.
    public func replayNext(_ event: ReplayPacer.Event, hostCaughtUp: Bool = true) -> ReplayPacer.Decision {
        guard var pacer = replay else { return .deliver(offset: 0) }
        let decision = pacer.next(event, now: now().microseconds, facts: replayFacts(hostCaughtUp: hostCaughtUp))
        replay = pacer
        return decision
    }

    /// What the last `replayNext` would have a host log.
    public var replayNote: ReplayPacer.Note? { replay?.note }

    /// The recorded time of the last event the replay delivered.
    public var replayLastRecorded: Int64 { replay?.lastRecorded ?? 0 }

    /// What the core knows now, for the replay's pacing.
    public func replayFacts(hostCaughtUp: Bool = true) -> ReplayPacer.Facts {
        let lookupIdle = lookup?.idle ?? true
        return ReplayPacer.Facts(
            idle: contacts.count == 0 && engine.contactCount == 0 && !timerPending && lookupIdle,
            awaitsAnswer: engine.awaitingAnswerCount > 0 || lookupsAsking > 0,
            clientsCaughtUp: hostCaughtUp && !server.awaitsAcknowledgement && replayWatch.keyPressedOn == nil,
            strokeEndShown: replayWatch.strokeEndedOn == nil)
    }

    /// Something a replay may wait for changed (an acknowledgement, an answer, a commit, a
    /// timer, a phase screenshot taken): the host offers its held event again if the wait may
    /// end. `hostCaughtUp` as for `replayNext`.
    public func clientsMayHaveCaughtUp(hostCaughtUp: Bool = true) {
        guard var pacer = replay else { return }
        let goOn = pacer.clientsMayHaveCaughtUp(now: now().microseconds, facts: replayFacts(hostCaughtUp: hostCaughtUp))
        replay = pacer
        if goOn { handler.replayMayGoOn() }
    }

    // MARK: what the core watches

    func replayQuestionAsked(at time: Timestamp) {
        replay?.questionAsked(at: time.microseconds)
    }

    /// A key press went to the client of `surface` (the keyboard focus).
    func replayKeyDelivered(to surface: SurfaceID) {
        guard replay != nil, handler.deliversKeys(to: surface) else { return }
        replayWatch.keyPressedOn = surface
    }

    /// The last contact ended; it began over `surface`.
    func replayStrokeEnded(over surface: SurfaceID?) {
        guard replay != nil else { return }
        replayWatch.strokeEndedOn = surface
    }

    /// A commit of `surface`'s client shows what a key press or the last stroke changed.
    func replaySurfaceCommitted(_ surface: SurfaceID) {
        guard replay != nil, replayWatch.keyPressedOn != nil || replayWatch.strokeEndedOn != nil else { return }
        let committing = handler.client(of: surface)
        func same(_ watched: SurfaceID?) -> Bool {
            guard let watched else { return false }
            if watched == surface { return true }
            guard let committing, let client = handler.client(of: watched) else { return false }
            return client == committing
        }
        var changed = false
        if same(replayWatch.keyPressedOn) {
            replayWatch.keyPressedOn = nil
            changed = true
        }
        if same(replayWatch.strokeEndedOn) {
            replayWatch.strokeEndedOn = nil
            changed = true
        }
        if changed { clientsMayHaveCaughtUp() }
    }

    /// A watched surface went away: nothing of it is waited for.
    func replaySurfaceGone(_ surface: SurfaceID) {
        if replayWatch.keyPressedOn == surface { replayWatch.keyPressedOn = nil }
        if replayWatch.strokeEndedOn == surface { replayWatch.strokeEndedOn = nil }
    }
}
