/// The client's bookkeeping for one spi_preview_interaction_v1 object, shared by every API
/// (the Swift library, the C library): the events read turn into the calls UIKit makes, frames
/// are acknowledged, answers and cancels are checked, whatever the compositor sends.
///
/// Pure: one `mutating func` per input, each returning what the host does (`CoreOutput`: a
/// request, a message, whether calls are ready). The host reads the wire on one thread and
/// takes the calls on the app's thread, with the core behind one lock.
///
/// The contract it keeps, per press: should-begin once; nothing more after a decline; preview
/// progress, its end once, commit progress, completion once, or one cancel instead; nothing
/// after the end. Calls wait until a frame closes their group and merge while the app is busy
/// (the latest progress wins; phase changes are kept). Every event is untrusted: one the
/// press's phase does not allow, or a progress outside 0...1, cancels that press
/// (desynchronised) and tells the compositor; events about unknown presses are dropped. What
/// is kept is bounded: `maximumRunning` presses at once (a new press beyond them ends the oldest,
/// which the compositor never ended: new input wins over stale state), at most one pending call
/// of each kind per press. A pen, a pointer and the keyboard drive one press at a time: a new
/// press of theirs while an older one of the same source runs means the compositor lost the
/// older one's end, which is ended the same way (touches and touchpad fingers run side by side).
public struct InteractionCore: Sendable {
    /// The most presses running at once on one surface; a new one beyond ends the oldest.
    public static let maximumRunning = 32
    /// Presses kept at once, counting those the app ended (cancel, decline) whose end the
    /// compositor has not confirmed yet; beyond, the oldest of those is forgotten.
    static let maximumKept = 2 * maximumRunning

    enum Ending: Sendable, Equatable {
        case completed
        case cancelled(PreviewCancelReason)
        /// The app declined: nothing is reported about it.
        case declined
    }

    /// The phase of one press: the one place it is kept.
    enum State: Sendable, Equatable {
        /// should_begin read; `accepted` once the app said yes.
        case asking(accepted: Bool)
        case preview(Double)
        case commit(Double)
        /// An accelerator's press after the answer, at a level (version 2).
        case accelerating(UInt32)
        /// Over for the app; `confirmed` once the compositor has ended it too.
        case ended(Ending, confirmed: Bool)

        var isRunning: Bool {
            if case .ended = self { return false }
            return true
        }

        var stage: CoreMessage.Stage {
            switch self {
            case .asking(let accepted): accepted ? .acceptedShouldBegin : .unansweredShouldBegin
            case .preview: .preview
            case .commit: .commit
            case .accelerating: .stages
            case .ended: .end
            }
        }
    }

    struct Record: Sendable {
        let id: UInt32
        let source: PreviewSource?
        let force: PreviewForce?
        var state: State
        var location = PreviewPoint.zero
        var timestamp: UInt64 = 0
        var behaviour = PreviewBehaviour.deepClick
        var hapticsAvailable = false
        /// A location arrived in the group being read.
        var moved = false

        var isAccelerator: Bool {
            if case .accelerator = behaviour { return true }
            return false
        }

        var snapshot: PreviewPress {
            let phase: PreviewPress.Phase
            let progress: Double
            switch state {
            case .asking: (phase, progress) = (.asking, 0)
            case .preview(let value): (phase, progress) = (.preview, value)
            case .commit(let value): (phase, progress) = (.commit, value)
            case .accelerating: (phase, progress) = (.accelerating, 0)
            case .ended(.completed, _): (phase, progress) = (.completed, 1)
            case .ended(.cancelled(let reason), _): (phase, progress) = (.cancelled(reason), 0)
            case .ended(.declined, _): (phase, progress) = (.declined, 0)
            }
            var stage: UInt32 = 0
            if case .accelerating(let level) = state { stage = level }
            return PreviewPress(
                id: id, source: source, force: force, location: location, phase: phase, progress: progress,
                timestamp: timestamp, behaviour: behaviour, stage: stage, hapticsAvailable: hapticsAvailable)
        }
    }

    private var records: [Record] = []
    /// Calls of the group being read (no frame yet).
    private var open: [CoreCall] = []
    /// Calls closed by a frame, waiting for the app; those before `taken` were taken.
    private var ready: [CoreCall] = []
    private var taken = 0
    /// The highest press id announced (ids increase; anything at or below it is known).
    private var highest: UInt32 = 0
    /// The last frame serial acknowledged (ack_frame sent).
    public private(set) var acknowledged: UInt32 = 0
    /// The last frame serial read.
    public private(set) var lastFrame: UInt32 = 0
    /// The last frame that filed calls for the app.
    private var lastFrameWithCalls: UInt32 = 0
    /// Frames that gave the app calls are acknowledged by the app's `acknowledgeShown`, right
    /// before the commit that shows them (a toolkit that commits on its own), not as read.
    public private(set) var holdsAcknowledgements = false
    /// The object has the acknowledgement window (protocol version 3): a frame is acknowledged
    /// when it changes a phase or `acknowledgeEvery` frames are read unacknowledged; the
    /// progress frames in between wait for those acknowledgements (one request for many).
    /// Before version 3 every frame is acknowledged as read (the compositor holds progress
    /// behind any unacknowledged frame).
    public let acknowledgesLazily: Bool
    /// The most frames read and left unacknowledged on an object with the window (the XML's 8:
    /// half of the compositor's window of 16, so progress never waits for this client's ack).
    public static let acknowledgeEvery: UInt32 = 8
    /// The group being read changes a phase (should_begin, preview_ended, completed, cancelled,
    /// haptics): its frame is acknowledged promptly.
    private var groupChangesPhase = false

    /// The core of an object of protocol `version` (its acknowledgements follow the version's rule).
    public init(version: UInt32 = 1) {
        acknowledgesLazily = version >= 3
        records.reserveCapacity(Self.maximumKept)
        open.reserveCapacity(Self.maximumKept)
        ready.reserveCapacity(5 * Self.maximumKept)
    }

    // MARK: inputs from the wire (the reading thread)

    /// One event as read.
    public mutating func read(_ event: PreviewWireEvent) -> CoreOutput {
        switch event {
        case .shouldBegin, .previewEnded, .completed, .cancelled, .haptics: groupChangesPhase = true
        default: break
        }
        switch event {
        case .shouldBegin(let id, let source, let force): return shouldBegin(event, id, source: source, force: force)
        case .frame(let id, let serial, let time): return frame(id, serial: serial, time: time)
        default: break
        }
        let id = event.interaction
        guard let index = records.firstIndex(where: { $0.id == id }) else {
            return CoreOutput(message: id > highest || id == 0 ? .unknownInteraction(event) : .afterTheEnd(event))
        }
        if case .ended(let ending, let confirmed) = records[index].state {
            if confirmed { return CoreOutput(message: .afterTheEnd(event)) }
            // Ended by the app (or for breaking the order): the compositor's end is silent.
            switch event {
            case .completed, .cancelled: records[index].state = .ended(ending, confirmed: true)
            default: break
            }
            forgetIfDone(index)
            return CoreOutput()
        }
        // An accelerator has stages instead of the phases.
        switch event {
        case .preview, .previewEnded, .commit: if records[index].isAccelerator { return desynchronise(index, event) }
        default: break
        }
        switch (event, records[index].state) {
        case (.location(_, let x, let y), _):
            records[index].location = PreviewPoint(x: x, y: y)
            records[index].moved = true
            for call in open.indices where open[call].press.id == id {
                open[call].press.location = records[index].location
            }
            return CoreOutput()
        case (.behaviour(_, let wire, let stages), .asking(accepted: false)) where isAnnouncedNow(id):
            // Told in should_begin's frame only; never generic (nothing begins there).
            guard let behaviour = PreviewBehaviour(wire: wire, stages: stages), behaviour != .generic,
                PreviewBehaviourArea(behaviour).isValid
            else { break }
            records[index].behaviour = behaviour
            for call in open.indices where open[call].press.id == id { open[call].press.behaviour = behaviour }
            return CoreOutput()
        case (.haptics(_, let wire), _):
            guard wire <= 1 else { break }
            let available = wire == 1
            let changed = records[index].hapticsAvailable != available
            records[index].hapticsAvailable = available
            for call in open.indices where open[call].press.id == id { open[call].press.hapticsAvailable = available }
            // With should_begin it is part of the announcement; later, a change is a call.
            if changed && !isAnnouncedNow(id) { addOpen(index, .haptics(available)) }
            return CoreOutput()
        case (.stage(_, let level), .asking(accepted: true)), (.stage(_, let level), .accelerating):
            guard case .accelerator(let stages) = records[index].behaviour, (1...stages).contains(level) else { break }
            records[index].state = .accelerating(level)
            addOpen(index, .stage(level))
            return CoreOutput()
        case (.completed, .accelerating),
            (.completed, .asking(accepted: true)) where records[index].isAccelerator:
            // An accelerator's press lifted (before its first level, too: a tap).
            records[index].state = .ended(.completed, confirmed: true)
            addOpen(index, .acceleratorEnded)
            forgetIfDone(index)
            return CoreOutput()
        case (.preview(_, let progress), .asking(accepted: true)), (.preview(_, let progress), .preview):
            guard (0...1).contains(progress) else { break }
            records[index].state = .preview(progress)
            addOpen(index, .preview(progress, ended: false))
            return CoreOutput()
        case (.previewEnded, .asking(accepted: true)), (.previewEnded, .preview):
            records[index].state = .commit(0)
            addOpen(index, .preview(1, ended: true))
            return CoreOutput()
        case (.commit(_, let progress), .commit):
            guard (0...1).contains(progress) else { break }
            records[index].state = .commit(progress)
            addOpen(index, .commit(progress, ended: false))
            return CoreOutput()
        case (.completed, .commit):
            records[index].state = .ended(.completed, confirmed: true)
            addOpen(index, .commit(1, ended: true))
            forgetIfDone(index)
            return CoreOutput()
        case (.cancelled(_, let wire), _) where PreviewCancelReason(wire: wire) != .declined:
            let reason = PreviewCancelReason(wire: wire)
            records[index].state = .ended(.cancelled(reason), confirmed: true)
            addOpen(index, .cancel(reason))
            forgetIfDone(index)
            return CoreOutput()
        default:
            break
        }
        return desynchronise(index, event)
    }

    /// The connection (or the global) went away: every running press is cancelled (system).
    public mutating func connectionLost() -> CoreOutput {
        var output = CoreOutput()
        for record in records where record.state.isRunning {
            output.message = .connectionLost
            let id = record.id
            let unheard = !wasAsked(id)
            open.removeAll { $0.press.id == id }
            if unheard {
                dropReady(id)
            } else {
                var ended = record
                ended.state = .ended(.cancelled(.system), confirmed: true)
                ready.append(CoreCall(press: ended.snapshot, call: .cancel(.system)))
            }
        }
        records.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        output.callsReady = hasReadyCalls
        return output
    }

    // MARK: inputs from the app (its thread)

    /// The next call for the app, in order (one at a time: a cancel the app makes from inside a
    /// call removes the press's later calls before they are taken).
    public mutating func nextCall() -> CoreCall? {
        guard taken < ready.count else { return nil }
        defer {
            taken += 1
            if taken == ready.count { clearReady() }
        }
        return ready[taken]
    }

    public var hasReadyCalls: Bool { taken < ready.count }

    /// The app's answer to should-begin. Declining ends the press for the app at once.
    public mutating func answer(_ id: UInt32, accept: Bool) throws(CoreRefusal) -> CoreOutput {
        let index = try find(id)
        switch records[index].state {
        case .asking(accepted: false):
            if accept {
                records[index].state = .asking(accepted: true)
                return CoreOutput(request: .accept(id))
            }
            records[index].state = .ended(.declined, confirmed: false)
            open.removeAll { $0.press.id == id }
            dropReady(id)
            return CoreOutput(request: .decline(id))
        case .asking(accepted: true), .preview, .commit, .accelerating, .ended(.declined, _):
            throw .alreadyAnswered
        case .ended:
            throw .pressEnded
        }
    }

    /// The app cancels a press: the cancel call it gets at once (none for a press it was never
    /// told about), and the request. Nothing more is reported about the press.
    public mutating func cancel(_ id: UInt32) throws(CoreRefusal) -> (CoreOutput, CoreCall?) {
        let index = try find(id)
        guard records[index].state.isRunning else { throw .pressEnded }
        let heard = wasAsked(id)
        records[index].state = .ended(.cancelled(.clientCancelled), confirmed: false)
        open.removeAll { $0.press.id == id }
        dropReady(id)
        let call = heard ? CoreCall(press: records[index].snapshot, call: .cancel(.clientCancelled)) : nil
        return (CoreOutput(request: .cancel(id)), call)
    }

    /// A haptic effect for a press: only while it runs past the app's yes (the compositor drops
    /// the rest; the library does not even send them).
    public func playHaptic(_ id: UInt32, effect: PreviewHapticEffect) throws(CoreRefusal) -> CoreOutput {
        let index = try find(id)
        switch records[index].state {
        case .asking(accepted: false): throw .notRunning
        case .asking(accepted: true), .preview, .commit, .accelerating:
            return CoreOutput(request: .playHaptic(id, effect: effect.rawValue))
        case .ended: throw .pressEnded
        }
    }

    /// A press as it is now (one the compositor has not ended yet, or just ended).
    public func press(_ id: UInt32) throws(CoreRefusal) -> PreviewPress {
        records[try find(id)].snapshot
    }

    /// Presses announced and not ended, in the order they began.
    public var runningPresses: [PreviewPress] { records.filter { $0.state.isRunning }.map { $0.snapshot } }

    public var runningCount: Int { records.reduce(0) { $0 + ($1.state.isRunning ? 1 : 0) } }

    /// The ids of the running presses, without allocating: `body` for each.
    public func forEachRunning(_ body: (UInt32) -> Void) {
        for record in records where record.state.isRunning { body(record.id) }
    }

    // MARK: inputs from the app (its thread)

    /// Holds acknowledgements until `acknowledgeShown` (or stops holding: what was read is
    /// acknowledged now).
    public mutating func holdAcknowledgements(_ hold: Bool) -> CoreOutput {
        holdsAcknowledgements = hold
        guard !hold, lastFrame > acknowledged else { return CoreOutput() }
        acknowledged = lastFrame
        return CoreOutput(request: .ackFrame(lastFrame))
    }

    /// The app is about to commit a picture that shows every call it took up to frame
    /// `applied`: that frame is acknowledged, or every frame read if no call waits for the app
    /// (the rest had nothing to show).
    public mutating func acknowledgeShown(applied: UInt32) -> CoreOutput {
        let shown = hasReadyCalls ? min(applied, lastFrame) : lastFrame
        guard shown > acknowledged else { return CoreOutput() }
        acknowledged = shown
        return CoreOutput(request: .ackFrame(shown))
    }

    // MARK: the steps

    private mutating func shouldBegin(_ event: PreviewWireEvent, _ id: UInt32, source: UInt32, force: UInt32)
        -> CoreOutput
    {
        guard id > highest else {
            if let index = records.firstIndex(where: { $0.id == id }), records[index].state.isRunning {
                return desynchronise(index, event)
            }
            return CoreOutput(message: .repeatedShouldBegin(event))
        }
        highest = id
        var output = CoreOutput()
        let kind = PreviewSource(rawValue: source)
        if let kind, kind.drivesOnePressAtATime,
            let stale = records.firstIndex(where: { $0.state.isRunning && $0.source == kind })
        {
            // The same pen (pointer, key) cannot press twice at once: the older press's end was
            // lost. New input wins over stale state, as below.
            output = evict(stale, message: .superseded(records[stale].id, by: id, kind))
        } else if records.count(where: { $0.state.isRunning }) >= Self.maximumRunning,
            let oldest = records.firstIndex(where: { $0.state.isRunning })
        {
            // Every slot is held by a press the compositor has not ended: new input wins over
            // stale state, the same way every time. The oldest press is ended (desynchronised)
            // for the app and cancelled on the wire, and the new one is asked.
            output = evict(oldest, message: .evicted(records[oldest].id, for: id))
        }
        if records.count >= Self.maximumKept, let oldest = records.firstIndex(where: { !$0.state.isRunning }) {
            records.remove(at: oldest)
        }
        records.append(
            Record(
                id: id, source: PreviewSource(rawValue: source), force: PreviewForce(rawValue: force),
                state: .asking(accepted: false)))
        addOpen(records.count - 1, .shouldBegin)
        return output
    }

    /// Ends the press at `index` to make room for a new one: a cancel for the app (if it heard
    /// of the press) and for the compositor, whose own end of it is then silent.
    private mutating func evict(_ index: Int, message: CoreMessage) -> CoreOutput {
        let id = records[index].id
        let heard = wasAsked(id)
        records[index].state = .ended(.cancelled(.desynchronised), confirmed: false)
        open.removeAll { $0.press.id == id }
        if heard {
            ready.append(CoreCall(press: records[index].snapshot, call: .cancel(.desynchronised)))
        } else {
            dropReady(id)
        }
        return CoreOutput(request: .cancel(id), message: message, callsReady: hasReadyCalls)
    }

    private mutating func frame(_ id: UInt32, serial: UInt32, time: UInt64) -> CoreOutput {
        var output = CoreOutput()
        lastFrame = max(lastFrame, serial)
        if let index = records.firstIndex(where: { $0.id == id }) { records[index].timestamp = time }
        for call in open.indices where open[call].press.id == id { open[call].press.timestamp = time }
        // A move at the same progress: the app hit-tests again (quick actions).
        for index in records.indices where records[index].moved {
            records[index].moved = false
            let moved = records[index].id
            guard !open.contains(where: { $0.press.id == moved }) else { continue }
            switch records[index].state {
            case .preview(let progress): addOpen(index, .preview(progress, ended: false))
            case .commit(let progress): addOpen(index, .commit(progress, ended: false))
            case .asking, .accelerating, .ended: break
            }
        }
        if let stray = open.first(where: { $0.press.id != id }) { output.message = .unframed(stray.press.id) }
        if !open.isEmpty { lastFrameWithCalls = max(lastFrameWithCalls, serial) }
        for call in open { file(call) }
        open.removeAll(keepingCapacity: true)
        // Held: a frame is acknowledged as read only while nothing the app was given waits to
        // be shown (a frame with nothing for the app must not stall flow control). With the
        // window, only frames that change a phase and every `acknowledgeEvery`th are.
        let changesPhase = groupChangesPhase
        groupChangesPhase = false
        let due = !acknowledgesLazily || changesPhase || serial &- acknowledged >= Self.acknowledgeEvery
        if due && serial > acknowledged && (!holdsAcknowledgements || lastFrameWithCalls <= acknowledged) {
            acknowledged = serial
            output.request = .ackFrame(serial)
        }
        output.callsReady = hasReadyCalls
        return output
    }

    /// Ends a press that broke the protocol's order: cancelled (desynchronised) for the app,
    /// cancel for the compositor unless the event was its end.
    private mutating func desynchronise(_ index: Int, _ event: PreviewWireEvent) -> CoreOutput {
        let id = records[index].id
        let phase = records[index].state.stage
        let confirmed: Bool
        switch event {
        case .completed, .cancelled: confirmed = true
        default: confirmed = false
        }
        let heard = wasAsked(id)
        records[index].state = .ended(.cancelled(.desynchronised), confirmed: confirmed)
        open.removeAll { $0.press.id == id }
        if heard {
            ready.append(CoreCall(press: records[index].snapshot, call: .cancel(.desynchronised)))
        } else {
            dropReady(id)
        }
        forgetIfDone(index)
        return CoreOutput(
            request: confirmed ? nil : .cancel(id), message: .outOfOrder(event, phase: phase), callsReady: hasReadyCalls
        )
    }

    /// Adds a call to the group being read, with the press as it is now.
    private mutating func addOpen(_ index: Int, _ call: DelegateCall) {
        let id = records[index].id
        let entry = CoreCall(press: records[index].snapshot, call: call)
        if call.isTerminal, open.contains(where: { $0.press.id == id && $0.call == .shouldBegin }) {
            // Over before the app heard of it (a timeout while it was busy): no calls at all.
            open.removeAll { $0.press.id == id }
            return
        }
        if let last = open.lastIndex(where: { $0.press.id == id }), open[last].call.isReplaced(by: call) {
            open[last] = entry
        } else {
            open.append(entry)
        }
    }

    /// Moves a closed call to the calls waiting for the app, merging with what waits there.
    private mutating func file(_ entry: CoreCall) {
        let id = entry.press.id
        if entry.call.isTerminal, ready[taken...].contains(where: { $0.press.id == id && $0.call == .shouldBegin }) {
            dropReady(id)
            return
        }
        if let last = ready[taken...].lastIndex(where: { $0.press.id == id }),
            ready[last].call.isReplaced(by: entry.call)
        {
            ready[last] = entry
        } else {
            ready.append(entry)
        }
    }

    private mutating func dropReady(_ id: UInt32) {
        ready.removeSubrange(0..<taken)
        taken = 0
        ready.removeAll { $0.press.id == id }
    }

    private mutating func clearReady() {
        ready.removeAll(keepingCapacity: true)
        taken = 0
    }

    /// Whether should-begin about `id` is in the group being read (its announcement).
    private func isAnnouncedNow(_ id: UInt32) -> Bool {
        open.contains { $0.press.id == id && $0.call == .shouldBegin }
    }

    /// Whether should-begin about `id` reached the app (or is past the point of being dropped).
    private func wasAsked(_ id: UInt32) -> Bool {
        !open.contains { $0.press.id == id && $0.call == .shouldBegin }
            && !ready[taken...].contains { $0.press.id == id && $0.call == .shouldBegin }
    }

    private mutating func forgetIfDone(_ index: Int) {
        if case .ended(_, confirmed: true) = records[index].state { records.remove(at: index) }
    }

    private func find(_ id: UInt32) throws(CoreRefusal) -> Int {
        if let index = records.firstIndex(where: { $0.id == id }) { return index }
        throw id == 0 || id > highest ? .unknownPress : .pressEnded
    }
}
