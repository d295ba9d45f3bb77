/// The state machine of one contact (finger, pen tip, pressed button), from the moment it
/// goes down over a surface until it ends. It owns at most one preview interaction: once that
/// interaction is over (completed, cancelled, vetoed) the contact stays inert until it ends,
/// so no second interaction can start under the same finger.
///
/// Each input is one `mutating func` appending the host's actions to the engine's buffer. Time always comes
/// in with the input; deadlines that fell due before an input's time are handled first, so
/// the result does not depend on whether the host delivered the timer before or after it.
/// docs/state-machine.md draws this machine; the case names there are the case names here.
public struct Interaction: Sendable {
    public enum State: Hashable, Sendable, CustomStringConvertible {
        /// Created, `began` not yet applied.
        case idle
        /// A contact with force, below the begin threshold: nothing has been asked yet.
        case armed
        /// Long-press fallback: the contact must stay within the slop until `until`.
        case holding(until: Timestamp)
        /// Should-begin was asked; no answer by `until` counts as a decline (`timeout`).
        case awaitingAnswer(until: Timestamp)
        /// The preview phase; `progress` may go down as well as up.
        case preview(progress: Double)
        /// The commit phase. `dwellSince`: when force reached `completeEnter` (nil: below it).
        case commit(progress: Double, dwellSince: Timestamp?)
        /// The commit phase when it completes on release: the lift completes it. `easedOffSince`:
        /// when the force fell below the release line (nil: above it, or back at `commit`).
        case commitUntilLift(progress: Double, easedOffSince: Timestamp?)
        /// An accelerator after the client agreed: the force selects the stage level.
        case accelerating(stage: UInt8)
        /// The commit ended: terminal, inert until the contact ends.
        case completed
        /// Cancelled while the contact stays down: inert until it ends (a lift ends the machine instead).
        case cancelled(CancelReason)
        /// The client declined should-begin or did not answer in time: inert until the contact ends.
        case vetoed(CancelReason)
        /// No interaction was started and none will be (long press moved beyond the slop, or the
        /// surface went away first).
        case abandoned
        /// The contact is gone; the engine drops the machine.
        case ended

        /// The case without its values: what transitions are logged and diagrams drawn in.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            case idle, armed, holding, awaitingAnswer, preview, commit, commitUntilLift, accelerating, completed
            case cancelled, vetoed, abandoned, ended
        }

        public var kind: Kind {
            switch self {
            case .idle: .idle
            case .armed: .armed
            case .holding: .holding
            case .awaitingAnswer: .awaitingAnswer
            case .preview: .preview
            case .commit: .commit
            case .commitUntilLift: .commitUntilLift
            case .accelerating: .accelerating
            case .completed: .completed
            case .cancelled: .cancelled
            case .vetoed: .vetoed
            case .abandoned: .abandoned
            case .ended: .ended
            }
        }

        public var description: String {
            switch self {
            case .idle, .armed, .completed, .abandoned, .ended: kind.rawValue
            case .holding(let until), .awaitingAnswer(let until): "\(kind.rawValue)(until: \(until))"
            case .preview(let progress): "preview(\(progress))"
            case .commit(let progress, let dwellSince):
                "commit(\(progress)\(dwellSince.map { ", dwell since \($0)" } ?? ""))"
            case .commitUntilLift(let progress, let easedOffSince):
                "commitUntilLift(\(progress)\(easedOffSince.map { ", eased off since \($0)" } ?? ""))"
            case .accelerating(let stage): "accelerating(stage \(stage))"
            case .cancelled(let reason), .vetoed(let reason): "\(kind.rawValue)(\(reason))"
            }
        }
    }

    /// The phase of this machine's interaction (nil before should-begin is asked, and for a
    /// contact that never started one or has ended).
    public var phase: Phase? {
        switch state {
        case .awaitingAnswer: .asking
        case .preview: .preview
        case .commit, .commitUntilLift: .commit
        case .accelerating: .accelerator
        case .completed: .completed
        case .cancelled, .vetoed: .cancelled
        case .idle, .armed, .holding, .abandoned, .ended: nil
        }
    }

    /// The inputs, as named in transitions.
    public enum Event: Hashable, Sendable, CustomStringConvertible {
        case began, sample, timer, accepted, declined, clientCancelled, surfaceDestroyed
        /// Escape (`InteractionEngine.escapePressed`).
        case dismissed
        case contactEnded(CancelReason)

        public var description: String {
            switch self {
            case .began: "began"
            case .sample: "sample"
            case .timer: "timer"
            case .accepted: "accepted"
            case .declined: "declined"
            case .clientCancelled: "clientCancelled"
            case .surfaceDestroyed: "surfaceDestroyed"
            case .dismissed: "dismissed"
            case .contactEnded(let reason): "contactEnded(\(reason))"
            }
        }
    }

    /// The most actions one input can produce for one machine (checked after every input: a
    /// breach is an `EngineFault`, which the hostile-sequence tests expect never to see). Worst
    /// cases: a due settle ends the preview (preview ended + commit) and the dwell deadline
    /// already passed (completed); or a due deadline ends the preview and the input cancels.
    /// So one `Actions` (capacity 6) always holds one machine's input and the `.scheduleTimer`;
    /// inputs that touch many machines pack them while they fit (see `InteractionEngine`).
    public static let maximumActionsPerInput = 3

    public let contact: ContactKey
    public let surface: SurfaceID
    public let source: InputSource
    /// False: the long-press fallback drives a simulated force.
    public let hasForce: Bool
    public let tuning: Tuning
    /// What force means where the contact began (never `generic`: the engine tracks no such contact).
    public let behaviour: PressureBehaviour
    /// Assigned when should-begin is asked.
    public private(set) var id: InteractionID?
    public private(set) var state: State = .idle
    public private(set) var filter: ForceFilter
    /// Where the contact went down (long-press slop is measured from here).
    public let origin: Point
    public private(set) var location: Point
    /// The latest time seen; inputs that arrive with an older time are treated as happening now.
    public private(set) var now: Timestamp
    private var lastSampleSimulated: Bool
    /// The force the last decision was made on, for the phase events' `force`.
    private var judgedForce = 0.0
    /// Long press: when the simulated force started rising, and the next ramp tick.
    private var rampStart: Timestamp?
    private var rampNext: Timestamp?

    /// A machine in `idle`; apply `began` next.
    public init(
        began sample: ForceSample, surface: SurfaceID, hasForce: Bool, tuning: Tuning,
        behaviour: PressureBehaviour = .deepClick
    ) {
        contact = sample.contact
        self.surface = surface
        source = sample.source
        // The keyboard has no force sensor, whatever the host says.
        self.hasForce = hasForce && sample.source != .keyboard
        self.tuning = tuning
        self.behaviour = behaviour
        filter = ForceFilter(force: self.hasForce ? sample.force : 0, at: sample.time)
        origin = sample.location
        location = sample.location
        now = sample.time
        lastSampleSimulated = sample.simulated
    }

    /// The earliest time this machine needs `timerFired`, nil when it waits only for input.
    public var deadline: Timestamp? {
        switch state {
        case .idle, .completed, .cancelled, .vetoed, .abandoned, .ended: nil
        case .holding(let until): until
        case .armed: filter.settleDeadline
        case .awaitingAnswer(let until): Interaction.earliest(until, filter.settleDeadline)
        case .preview: hasForce ? filter.settleDeadline : rampNext
        case .commit(_, let dwellSince):
            Interaction.earliest(
                hasForce ? filter.settleDeadline : rampNext, dwellSince.map { $0 + tuning.completionDwell })
        case .commitUntilLift(_, let easedOffSince):
            Interaction.earliest(
                hasForce ? filter.settleDeadline : rampNext, easedOffSince.map { $0 + tuning.releaseWindow })
        case .accelerating: hasForce ? filter.settleDeadline : rampNext
        }
    }

    /// True once the interaction (if any) can produce no more events.
    public var isOver: Bool {
        switch state {
        case .idle, .armed, .holding, .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating: false
        case .completed, .cancelled, .vetoed, .abandoned, .ended: true
        }
    }

    // MARK: Inputs

    // The `.idle`/`.ended` cases below are unreachable through `InteractionEngine`: it calls
    // `began` once, right after making the machine, and delivers later inputs only to the
    // machines it holds, dropping a machine in the call that ended it (`finish`). A caller that
    // breaks that order (or a bug) gets a fault and a machine made safe (`broken`), never a trap:
    // this code runs inside compositors.

    /// The contact went down. Force contacts arm (or ask at once if already pressing hard);
    /// force-less contacts start holding for the long-press duration.
    public mutating func began(into actions: inout Actions, _ context: inout EngineContext) {
        guard state == .idle else { return broken(.beganTwice, on: .began, at: now, into: &actions, &context) }
        if hasForce {
            move(to: .armed, on: .began, at: now, &context)
            evaluate(force: filter.smoothed, at: now, on: .began, into: &actions, &context)
        } else {
            move(to: .holding(until: now + tuning.longPressDuration), on: .began, at: now, &context)
        }
    }

    /// New force and/or location.
    public mutating func forceChanged(
        _ sample: ForceSample, into actions: inout Actions, _ context: inout EngineContext
    ) {
        let time = advance(to: sample.time, into: &actions, &context)
        switch state {
        case .idle, .ended: return broken(.inputOutOfOrder, on: .sample, at: time, into: &actions, &context)
        case .completed, .cancelled, .vetoed, .abandoned: return
        case .armed, .holding, .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating: break
        }
        location = sample.location
        lastSampleSimulated = sample.simulated
        if hasForce {
            filter.add(sample.force, at: time, settleRange: tuning.settleRange)
            evaluate(force: filter.smoothed, at: time, on: .sample, into: &actions, &context)
        } else if beyondSlop {
            switch state {
            case .holding: move(to: .abandoned, on: .sample, at: time, &context)
            case .awaitingAnswer, .preview, .commit, .commitUntilLift:
                cancel(.moved, at: time, on: .sample, into: &actions, &context)
            case .accelerating: break  // a held control may be dragged (a scrubber): core input has the motion
            case .idle, .armed, .completed, .cancelled, .vetoed, .abandoned, .ended:
                break  // returned above, or (armed) a force contact: not a long press
            }
        }
    }

    /// A deadline may have come (the host may call this early or late; both are fine).
    public mutating func timerFired(at time: Timestamp, into actions: inout Actions, _ context: inout EngineContext) {
        _ = advance(to: time, into: &actions, &context)
    }

    /// The client's answer to should-begin. Ignored unless it is awaited.
    public mutating func answered(
        accept: Bool, at time: Timestamp, into actions: inout Actions, _ context: inout EngineContext
    ) {
        let time = advance(to: time, into: &actions, &context)
        switch state {
        case .awaitingAnswer:
            if accept {
                enterPreview(at: time, into: &actions, &context)
            } else {
                emit(.cancelled(.declined), progress: 0, at: time, into: &actions, &context)
                move(to: .vetoed(.declined), on: .declined, at: time, &context)
            }
        case .idle, .ended:
            broken(.inputOutOfOrder, on: accept ? .accepted : .declined, at: time, into: &actions, &context)
        case .armed, .holding, .preview, .commit, .commitUntilLift, .accelerating, .completed, .cancelled, .vetoed,
            .abandoned:
            break
        }
    }

    /// The client cancelled. The contact then stays inert until it ends: the user is still
    /// pressing, and starting a fresh interaction under the same finger would surprise them.
    public mutating func clientCancelled(
        at time: Timestamp, into actions: inout Actions, _ context: inout EngineContext
    ) {
        let time = advance(to: time, into: &actions, &context)
        switch state {
        case .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating:
            cancel(.clientCancelled, at: time, on: .clientCancelled, into: &actions, &context)
        case .idle, .ended: broken(.inputOutOfOrder, on: .clientCancelled, at: time, into: &actions, &context)
        case .armed, .holding, .completed, .cancelled, .vetoed, .abandoned: break
        }
    }

    /// The surface under the interaction was destroyed; the contact itself goes on (inert).
    public mutating func surfaceDestroyed(
        at time: Timestamp, into actions: inout Actions, _ context: inout EngineContext
    ) {
        let time = advance(to: time, into: &actions, &context)
        switch state {
        case .armed, .holding: move(to: .abandoned, on: .surfaceDestroyed, at: time, &context)
        case .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating:
            cancel(.surfaceGone, at: time, on: .surfaceDestroyed, into: &actions, &context)
        case .idle, .ended: broken(.inputOutOfOrder, on: .surfaceDestroyed, at: time, into: &actions, &context)
        case .completed, .cancelled, .vetoed, .abandoned: break
        }
    }

    /// The contact ended (`reason`: lifted, deviceRemoved, desynchronised, system...).
    /// A running interaction is cancelled with that reason; the machine ends.
    public mutating func contactEnded(
        reason: CancelReason, at time: Timestamp, into actions: inout Actions, _ context: inout EngineContext
    ) {
        let time = advance(to: time, into: &actions, &context)
        switch state {
        case .commitUntilLift where reason == .lifted, .accelerating where reason == .lifted:
            // The lift is what completes them (complete on release; an accelerator's normal end).
            emit(.completed, progress: progress, at: time, into: &actions, &context)
        case .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating:
            emit(.cancelled(reason), progress: progress, at: time, into: &actions, &context)
        case .armed, .holding, .completed, .cancelled, .vetoed, .abandoned: break
        case .idle, .ended:
            // Nothing ran, so nothing to cancel: the machine ends as asked (an ended one stays so).
            context.record(fault(.inputOutOfOrder, on: .contactEnded(reason), at: time))
        }
        move(to: .ended, on: .contactEnded(reason), at: time, &context)
    }

    /// The user pressed Escape: a running interaction is cancelled (`dismissed`); a contact
    /// that has not asked yet will not (it stays inert until it ends, like a vetoed one).
    public mutating func dismissed(at time: Timestamp, into actions: inout Actions, _ context: inout EngineContext) {
        let time = advance(to: time, into: &actions, &context)
        switch state {
        case .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating:
            cancel(.dismissed, at: time, on: .dismissed, into: &actions, &context)
        case .armed, .holding: move(to: .abandoned, on: .dismissed, at: time, &context)
        case .completed, .cancelled, .vetoed, .abandoned: break
        case .idle, .ended: broken(.inputOutOfOrder, on: .dismissed, at: time, into: &actions, &context)
        }
    }

    // MARK: Deadlines

    /// Handles every deadline up to `time`, earliest first, and returns the time to apply the
    /// input at (never before what this machine has already seen).
    private mutating func advance(to time: Timestamp, into actions: inout Actions, _ context: inout EngineContext)
        -> Timestamp
    {
        let time = max(time, now)
        var steps = 0
        while let due = deadline, due <= time {
            steps += 1
            guard steps <= 8 else {
                broken(.stuckDeadline, on: .timer, at: due, into: &actions, &context)
                break
            }
            handleDeadline(due, now: time, into: &actions, &context)
        }
        now = time
        return time
    }

    private mutating func handleDeadline(
        _ due: Timestamp, now time: Timestamp, into actions: inout Actions, _ context: inout EngineContext
    ) {
        if hasForce, filter.settleDeadline == due {
            filter.settle()
            evaluate(force: filter.smoothed, at: due, on: .timer, into: &actions, &context)
            return
        }
        switch state {
        case .holding:
            ask(at: due, on: .timer, into: &actions, &context)
        case .awaitingAnswer:
            emit(.cancelled(.timeout), progress: 0, at: due, into: &actions, &context)
            move(to: .vetoed(.timeout), on: .timer, at: due, &context)
        case .preview, .commit, .commitUntilLift, .accelerating:
            if case .commit(_, let dwellSince?) = state, dwellSince + tuning.completionDwell == due {
                emit(.completed, progress: 1, at: due, into: &actions, &context)
                move(to: .completed, on: .timer, at: due, &context)
            } else if case .commitUntilLift(_, let since?) = state, since + tuning.releaseWindow == due {
                // Eased off and stayed off, still touching: the user backed out of the pop.
                cancel(.lifted, at: due, on: .timer, into: &actions, &context)
            } else if !hasForce, rampNext == due {
                // A late host gets one step to where the ramp is now, not a burst of stale ticks.
                let force = rampForce(at: time)
                let next = time + tuning.rampTick
                rampNext = force < 1 && next > time ? next : nil  // saturated clocks end the ramp
                evaluate(force: force, at: time, on: .timer, into: &actions, &context)
            } else {
                broken(.unknownDeadline, on: .timer, at: due, into: &actions, &context)
            }
        case .idle, .armed, .completed, .cancelled, .vetoed, .abandoned, .ended:
            broken(.unknownDeadline, on: .timer, at: due, into: &actions, &context)
        }
    }

    // MARK: The force model

    /// Applies a (smoothed or simulated) force to the phase it is in.
    private mutating func evaluate(
        force: Double, at time: Timestamp, on event: Event, into actions: inout Actions, _ context: inout EngineContext
    ) {
        judgedForce = force
        let thresholds = tuning.thresholds
        switch state {
        case .armed:
            if force >= thresholds.begin { ask(at: time, on: event, into: &actions, &context) }
        case .preview(let progress):
            if force >= thresholds.commit {
                enterCommit(force: force, at: time, on: event, into: &actions, &context)
            } else {
                let next = thresholds.previewProgress(force)
                if next != progress {
                    emit(.previewProgress, progress: next, at: time, into: &actions, &context)
                    state = .preview(progress: next)
                }
            }
        case .commit(let progress, let dwellSince):
            let next = thresholds.commitProgress(force)
            // Hysteresis: the dwell starts at `completeEnter` but only stops below `completeLeave`.
            let dwell: Timestamp? =
                if let dwellSince { force < thresholds.completeLeave ? nil : dwellSince } else {
                    force >= thresholds.completeEnter ? time : nil
                }
            if next != progress { emit(.commitProgress, progress: next, at: time, into: &actions, &context) }
            state = .commit(progress: next, dwellSince: dwell)
        case .commitUntilLift(let progress, let easedOffSince):
            let next = thresholds.commitProgress(force)
            // Hysteresis: the window starts below the release line and stops only back at `commit`.
            let eased: Timestamp?
            if force < tuning.releaseLine {
                eased = easedOffSince ?? time
            } else {
                eased = force >= thresholds.commit ? nil : easedOffSince
            }
            if next != progress { emit(.commitProgress, progress: next, at: time, into: &actions, &context) }
            state = .commitUntilLift(progress: next, easedOffSince: eased)
        case .accelerating(let stage):
            guard let levels else { return broken(.noAccelerator, on: event, at: time, into: &actions, &context) }
            let next = levels.level(after: stage, force: force)
            if next != stage {
                emit(.stage(next), progress: levels.fraction(force), at: time, into: &actions, &context)
                state = .accelerating(stage: next)
            }
        case .holding, .awaitingAnswer, .completed, .cancelled, .vetoed, .abandoned:
            break  // force only matters once the client agreed, and never after the end
        case .idle, .ended:
            broken(.inputOutOfOrder, on: event, at: time, into: &actions, &context)
        }
    }

    private mutating func ask(
        at time: Timestamp, on event: Event, into actions: inout Actions, _ context: inout EngineContext
    ) {
        let id = context.takeID()
        self.id = id
        actions.append(.askShouldBegin(update(id, progress: 0, at: time)))
        move(to: .awaitingAnswer(until: time + tuning.shouldBeginTimeout), on: event, at: time, &context)
    }

    /// The client agreed: the first preview event always follows, so the client sees the phase begin.
    private mutating func enterPreview(at time: Timestamp, into actions: inout Actions, _ context: inout EngineContext)
    {
        let force: Double
        if hasForce {
            force = filter.smoothed
        } else {
            rampStart = time
            rampNext = time + tuning.rampTick
            force = rampForce(at: time)
        }
        judgedForce = force
        if let levels {
            let stage = levels.level(after: 1, force: force)
            emit(.stage(stage), progress: levels.fraction(force), at: time, into: &actions, &context)
            move(to: .accelerating(stage: stage), on: .accepted, at: time, &context)
        } else if force >= tuning.thresholds.commit {
            move(to: .preview(progress: 1), on: .accepted, at: time, &context)
            enterCommit(force: force, at: time, on: .accepted, into: &actions, &context)
        } else {
            let progress = tuning.thresholds.previewProgress(force)
            emit(.previewBegan, progress: progress, at: time, into: &actions, &context)
            move(to: .preview(progress: progress), on: .accepted, at: time, &context)
        }
    }

    private mutating func enterCommit(
        force: Double, at time: Timestamp, on event: Event, into actions: inout Actions, _ context: inout EngineContext
    ) {
        let thresholds = tuning.thresholds
        emit(.previewEnded, progress: 1, at: time, into: &actions, &context)
        let progress = thresholds.commitProgress(force)
        emit(.commitProgress, progress: progress, at: time, into: &actions, &context)
        switch tuning.completion {
        case .onForce:
            let dwell: Timestamp? = force >= thresholds.completeEnter ? time : nil
            move(to: .commit(progress: progress, dwellSince: dwell), on: event, at: time, &context)
        case .onRelease:
            move(to: .commitUntilLift(progress: progress, easedOffSince: nil), on: event, at: time, &context)
        }
    }

    /// The accelerator's levels (nil for a deep click, which has none).
    private var levels: AcceleratorLevels? {
        guard case .accelerator(let stages) = behaviour else { return nil }
        return AcceleratorLevels(stages: stages, thresholds: tuning.thresholds)
    }

    private mutating func cancel(
        _ reason: CancelReason, at time: Timestamp, on event: Event, into actions: inout Actions,
        _ context: inout EngineContext
    ) {
        emit(.cancelled(reason), progress: progress, at: time, into: &actions, &context)
        move(to: .cancelled(reason), on: event, at: time, &context)
    }

    /// An invariant did not hold: the fault is kept for the host to log and the machine made
    /// safe, as the host's own cancel would (`system`). A running interaction is cancelled; a
    /// contact that has not asked never will (inert until it ends); an ended one stays ended.
    /// Every state this leaves has no deadline.
    private mutating func broken(
        _ kind: EngineFault.Kind, on event: Event, at time: Timestamp, into actions: inout Actions,
        _ context: inout EngineContext
    ) {
        context.record(fault(kind, on: event, at: time))
        switch state {
        case .awaitingAnswer, .preview, .commit, .commitUntilLift, .accelerating:
            cancel(.system, at: time, on: event, into: &actions, &context)
        case .idle, .armed, .holding: move(to: .abandoned, on: event, at: time, &context)
        case .completed, .cancelled, .vetoed, .abandoned, .ended: break
        }
    }

    private func fault(_ kind: EngineFault.Kind, on event: Event, at time: Timestamp) -> EngineFault {
        EngineFault(kind, contact: contact, interaction: id, time: time, state: state, event: event)
    }

    /// Long press: rises linearly from the begin threshold (so the preview moves at once) to 1.
    private func rampForce(at time: Timestamp) -> Double {
        guard let rampStart else { return 0 }
        let elapsed = Double((time - rampStart).microseconds)
        let fraction = min(1, max(0, elapsed / Double(tuning.rampDuration.microseconds)))
        let begin = tuning.thresholds.begin
        return begin + (1 - begin) * fraction
    }

    // MARK: Helpers

    private var beyondSlop: Bool {
        let dx = location.x - origin.x
        let dy = location.y - origin.y
        return dx * dx + dy * dy > tuning.slop * tuning.slop
    }

    /// The phase progress to report with a cancel.
    private var progress: Double {
        switch state {
        case .preview(let progress), .commit(let progress, _), .commitUntilLift(let progress, _): progress
        case .accelerating: levels?.fraction(judgedForce) ?? 0
        case .idle, .armed, .holding, .awaitingAnswer, .completed, .cancelled, .vetoed, .abandoned, .ended: 0
        }
    }

    /// A phase event. Every state that sends them was entered through `ask`, which numbers the
    /// interaction; without a number there is no one to tell (a fault, not a trap).
    private func emit(
        _ event: PhaseEvent, progress: Double, at time: Timestamp, into actions: inout Actions,
        _ context: inout EngineContext
    ) {
        guard let id else {
            return context.record(EngineFault(.noInteraction, contact: contact, time: time, state: state))
        }
        actions.append(.phase(event, update(id, progress: progress, at: time)))
    }

    private func update(_ id: InteractionID, progress: Double, at time: Timestamp) -> PhaseUpdate {
        PhaseUpdate(
            interaction: id, surface: surface, contact: contact, time: time, progress: progress,
            location: location, source: source, simulated: !hasForce || lastSampleSimulated, force: judgedForce)
    }

    private mutating func move(to next: State, on event: Event, at time: Timestamp, _ context: inout EngineContext) {
        if next.kind != state.kind {
            context.log.append(
                Transition(time: time, contact: contact, interaction: id, from: state, event: event, to: next))
        }
        state = next
    }

    private static func earliest(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}

/// What the machines of one engine share: the interaction numbering and the transition log.
public struct EngineContext: Sendable {
    public internal(set) var lastID: UInt32 = 0
    public var log = TransitionLog()
    /// The first fault of the latest input (nil: none), and how many it had in all.
    public private(set) var fault: EngineFault?
    public private(set) var faultCount = 0

    public init() {}

    /// Wraps after 2^32 interactions (skipping 0, which no interaction has) rather than trap.
    mutating func takeID() -> InteractionID {
        lastID = lastID == .max ? 1 : lastID + 1
        return InteractionID(lastID)
    }

    mutating func record(_ fault: EngineFault) {
        if self.fault == nil { self.fault = fault }
        faultCount &+= 1
    }

    mutating func clearFaults() {
        fault = nil
        faultCount = 0
    }
}
