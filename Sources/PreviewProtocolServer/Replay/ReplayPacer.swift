/// When a replayed recording's next event is due, the same in every host that replays one
/// (preview-compositor's `--replay`, the C library's hosts, the wlroots example): pure, one
/// value per replay, times in microseconds on the host's clock, what the host core knows of its
/// clients passed in (`Facts`).
///
/// Each event is re-timed onto the host's clock (recorded time + offset) and is due when that
/// time comes. While a should-begin question (a client's, or Look Up's) is open the recording
/// waits, as a user who holds still until the app answers, and its clock resumes where it
/// stopped, so the rest of the gesture keeps its recorded timing; `clientPatience` bounds the
/// pause. `fast` skips idle gaps (nothing down, nothing pending) once every client has caught up
/// (frames acknowledged, a key press's effect committed); a client that never does is not
/// waited for after `catchUpLimit`. `awaitsClients` keeps the recorded gaps but holds the next
/// stroke after an idle gap until the clients caught up and the client the last stroke ended on
/// has committed since (what that stroke changed is what the next press meets). A new file
/// starts `gapBetweenFiles` after the previous file's last event, idle or not; a gap longer than
/// `longestGap` is shortened to it.
public struct ReplayPacer: Sendable {
    public struct Options: Hashable, Sendable {
        /// Skip idle gaps once the clients caught up.
        public var fast: Bool
        /// Keep the recorded gaps, and hold the next stroke until the clients caught up.
        public var awaitsClients: Bool
        /// How long a should-begin question may hold the recording (µs); 0: the host core's
        /// rule (`InteractionDriver.startReplay`).
        public var clientPatience: Int64
        /// The longest wait between two events (µs): a recording may hold any gap.
        public var longestGap: Int64

        public init(
            fast: Bool = false, awaitsClients: Bool = false, clientPatience: Int64 = 0,
            longestGap: Int64 = 10_000_000
        ) {
            self.fast = fast
            self.awaitsClients = awaitsClients
            self.clientPatience = clientPatience
            self.longestGap = longestGap
        }
    }

    /// What the host core knows now (read for every event, never kept).
    public struct Facts: Hashable, Sendable {
        /// No press in progress: nothing down, no timer pending, no lookup followed.
        public var idle: Bool
        /// A should-begin question (a client's or Look Up's) is open.
        public var awaitsAnswer: Bool
        /// Every client acknowledged its frames and committed since the key press it was sent.
        public var clientsCaughtUp: Bool
        /// The client the last stroke ended on has committed since.
        public var strokeEndShown: Bool

        public init(idle: Bool, awaitsAnswer: Bool, clientsCaughtUp: Bool, strokeEndShown: Bool = true) {
            self.idle = idle
            self.awaitsAnswer = awaitsAnswer
            self.clientsCaughtUp = clientsCaughtUp
            self.strokeEndShown = strokeEndShown
        }
    }

    /// The next event, as far as pacing cares.
    public struct Event: Hashable, Sendable {
        /// Its time in the recording (µs).
        public var recorded: Int64
        /// It begins a stroke (a contact, a button or key going down): what `awaitsClients` holds.
        public var beginsStroke: Bool
        /// It is the first of a file after another.
        public var startsFile: Bool

        public init(recorded: Int64, beginsStroke: Bool = false, startsFile: Bool = false) {
            self.recorded = recorded
            self.beginsStroke = beginsStroke
            self.startsFile = startsFile
        }
    }

    public enum Decision: Hashable, Sendable {
        /// Deliver it now, at `recorded + offset` on the host's clock.
        case deliver(offset: Int64)
        /// Offer it again after `microseconds` (rounded up to the host's timer), or sooner when
        /// the host core says the clients may have caught up.
        case wait(microseconds: Int64)
    }

    /// Something a host may log.
    public enum Note: Hashable, Sendable {
        /// A gap of `recorded` µs was replayed as `replayed` µs.
        case gapShortened(recorded: Int64, replayed: Int64)
        /// The clients did not catch up within `catchUpLimit`: the replay goes on.
        case clientsBehind(caughtUp: Bool, strokeEndShown: Bool)
    }

    /// The longest an idle gap waits for clients to catch up (µs).
    public static let catchUpLimit: Int64 = 5_000_000
    /// Recording time between two files (µs).
    public static let gapBetweenFiles: Int64 = 500_000
    /// How early an event may go (µs): later than that, the host's timer is armed.
    static let slack: Int64 = 500

    public let options: Options
    /// Recording time minus the host's clock, from the first event on (nil before it).
    public private(set) var offset: Int64?
    /// The recorded time of the last event delivered.
    public private(set) var lastRecorded: Int64 = 0
    /// What the last `next` would have a host log.
    public private(set) var note: Note?
    /// When the last event delivered was due (host µs).
    private var lastDue: Int64?
    /// The earliest the current file's first event may go (host µs).
    private var nextFileNotBefore: Int64?
    /// Since when an idle gap waits for clients to catch up.
    private var waitingForClientsSince: Int64?
    /// `awaitsClients`: this idle gap has waited once already.
    private var gapAwaited = false
    /// Since when the replay pauses for a should-begin answer, and whether it gave up on it.
    private var answerWaitSince: Int64?
    private var gaveUpOnAnswer = false
    /// The event offered last was told to wait (it is offered again, not anew).
    private var holding = false

    public init(options: Options) { self.options = options }

    /// Whether `event` goes now. A host offers the same event again until it is delivered.
    public mutating func next(_ event: Event, now: Int64, facts: Facts) -> Decision {
        note = nil
        let fresh = !holding
        holding = false
        let recorded = event.recorded
        if fresh, event.startsFile, let lastDue {
            // A new file: its clock starts afresh, not before the gap after the previous one.
            offset = nil
            nextFileNotBefore = lastDue + Self.gapBetweenFiles
        }
        if offset == nil {
            offset = now - recorded
        } else if fresh {
            shortenLongGap(before: recorded)
        }
        if let wait = pausedForAnswer(now: now, facts: facts) { return hold(wait) }
        var current = offset ?? now - recorded
        if options.fast && facts.idle {
            let since = waitingForClientsSince ?? now
            let recordedDue = recorded + current
            if facts.clientsCaughtUp || now - since >= Self.catchUpLimit {
                // Skip idle time: this event is due now.
                current = min(current, now - recorded)
                waitingForClientsSince = nil
            } else if recordedDue > now + Self.slack {
                // Idle, but a client is behind: wait for it, never longer than the recording's own
                // gap (fast is never slower than real time) or the limit.
                waitingForClientsSince = since
                offset = current
                return hold(min(recordedDue - now, since + Self.catchUpLimit - now))
            } else {
                waitingForClientsSince = nil
            }
        } else if options.awaitsClients && facts.idle && !gapAwaited && event.beginsStroke
            && recorded + current <= now + Self.slack
        {
            let since = waitingForClientsSince ?? now
            if !(facts.clientsCaughtUp && facts.strokeEndShown) && now - since < Self.catchUpLimit {
                // Due, but a client has not shown the last stroke's end yet: the gap lasts until
                // it has, and the recording's clock moves on from then.
                waitingForClientsSince = since
                offset = current
                return hold(since + Self.catchUpLimit - now)
            }
            if now - since >= Self.catchUpLimit {
                note = .clientsBehind(caughtUp: facts.clientsCaughtUp, strokeEndShown: facts.strokeEndShown)
            }
            current = max(current, now - recorded)
            waitingForClientsSince = nil
            gapAwaited = true
        } else {
            waitingForClientsSince = nil
            if !facts.idle { gapAwaited = false }
        }
        if let floor = nextFileNotBefore { current = max(current, floor - recorded) }
        offset = current
        let due = recorded + current
        if due > now + Self.slack { return hold(due - now) }
        lastRecorded = recorded
        lastDue = due
        nextFileNotBefore = nil
        return .deliver(offset: current)
    }

    private mutating func hold(_ microseconds: Int64) -> Decision {
        holding = true
        return .wait(microseconds: max(0, microseconds))
    }

    /// A should-begin question went out at `time` (the host core's time, however late the host
    /// ran the input or timer that asked it): the recording's clock stops from then.
    public mutating func questionAsked(at time: Int64) {
        guard !gaveUpOnAnswer, offset != nil else { return }
        answerWaitSince = min(answerWaitSince ?? time, time)
    }

    /// The host core says the clients may have caught up (acknowledgements, commits, an answer):
    /// true when a wait may end now (offer the held event again). An answer resumes the
    /// recording's clock here, not when the host next runs.
    public mutating func clientsMayHaveCaughtUp(now: Int64, facts: Facts) -> Bool {
        let gapMayEnd =
            waitingForClientsSince != nil && facts.clientsCaughtUp && (!options.awaitsClients || facts.strokeEndShown)
        let answered = answerWaitSince != nil && !facts.awaitsAnswer
        guard gapMayEnd || answered else { return false }
        if answered { _ = pausedForAnswer(now: now, facts: facts) }
        return true
    }

    /// While a question is open the recording waits (nil: it does not); afterwards its clock
    /// resumes where it stopped.
    private mutating func pausedForAnswer(now: Int64, facts: Facts) -> Int64? {
        if !facts.awaitsAnswer { gaveUpOnAnswer = false }
        if facts.awaitsAnswer && !gaveUpOnAnswer {
            let since = answerWaitSince ?? now
            if now - since < options.clientPatience {
                answerWaitSince = since
                return since + options.clientPatience - now
            }
            gaveUpOnAnswer = true
        }
        if let since = answerWaitSince {
            offset = offset.map { $0 + (now - since) }
            answerWaitSince = nil
        }
        return nil
    }

    /// A gap longer than `longestGap` is shortened to it (a 10^6 s pause would hold a replay for ever).
    private mutating func shortenLongGap(before recorded: Int64) {
        let gap = recorded - lastRecorded
        guard gap > options.longestGap, lastDue != nil, nextFileNotBefore == nil, let current = offset else { return }
        note = .gapShortened(recorded: gap, replayed: options.longestGap)
        offset = current - (gap - options.longestGap)
    }
}
