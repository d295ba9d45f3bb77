import CWaylandServer
import PreviewEngine
import PreviewLog
import WaylandServer

/// spi_preview_interaction_v1: the interactions of one surface, for the surface's client.
final class InteractionResource: ResourceObject {
    let surface: SurfaceID
    private let owner: Backlink<PreviewInteractionServer>
    private var server: PreviewInteractionServer? { owner.target }
    private let clock: MonotonicClock
    private var surfaceGone: Listener?
    /// The wl_surface was destroyed: only destroy is allowed, nothing more is sent.
    private(set) var inert = false

    // Double-buffered state (applied on wl_surface.commit, via `applyPendingState`).
    private var pendingRegion: PreviewRegion?
    private var pendingSources: UInt32?
    /// Double-buffered focus point: outer nil, unchanged since the last commit; inner nil, unset.
    private var pendingFocusPoint: Point??
    /// The client's focused item (set_focus_point), surface-local; nil: the default point.
    private(set) var focusPoint: Point?
    /// nil: no set_behaviour or clear_behaviours since the last commit (the list stays).
    private var pendingBehaviours: [BehaviourArea]?
    private(set) var region = PreviewRegion.infinite
    private(set) var sources = WireSources.all
    /// Later areas lie on top of earlier ones.
    private(set) var behaviours: [BehaviourArea] = []

    /// Interactions announced with should_begin and not yet ended, in the order asked.
    private var running: [OutgoingInteraction] = []
    private var nextWire: UInt32 = 1
    private var answers = AnswerBook()
    private var lastFrameSent: UInt32 = 0
    private var lastFrameAcked: UInt32 = 0
    /// The last frame that changed a phase (version 3: the client acknowledges those promptly).
    private var lastPhaseFrameSent: UInt32 = 0

    init?(
        client: Client, version: UInt32, id: UInt32, surface: SurfaceID, surfaceResource: OpaquePointer,
        server: PreviewInteractionServer
    ) {
        self.surface = surface
        owner = server.backlink
        clock = server.clock
        super.init(
            client: client, interface: cwl_interface_spi_preview_interaction_v1(), version: version, id: id,
            implementation: interactionImplementation)
        // Unretained: the listener is this object's, and unlinks when it goes.
        let listener = Listener { [unowned(unsafe) self] _ in self.surfaceDestroyed() }
        listener.listen(toDestroyOfResource: surfaceResource)
        surfaceGone = listener
    }

    // MARK: what the server asks

    /// Frames sent and not acknowledged yet.
    private var unacknowledged: UInt32 { lastFrameSent &- lastFrameAcked }
    /// Objects of version 3 have the acknowledgement window (ack_frame in the XML): progress
    /// flows while fewer than `PreviewInteractionServer.acknowledgementWindow` frames are
    /// unacknowledged, and the client acknowledges frames that change a phase promptly.
    private var hasAcknowledgementWindow: Bool {
        version >= PreviewInteractionServer.acknowledgementWindowSince
    }
    /// True while progress is held for an ack_frame (flow control): any unacknowledged frame
    /// before version 3, a full window from version 3.
    var holdsProgress: Bool {
        hasAcknowledgementWindow
            ? unacknowledged >= PreviewInteractionServer.acknowledgementWindow : unacknowledged != 0
    }
    /// Whether the client owes an acknowledgement it must send: any frame before version 3; a
    /// frame that changed a phase, or a full window, from version 3 (the frames in between
    /// may wait for the client's next acknowledgement).
    private var owesAcknowledgement: Bool {
        guard hasAcknowledgementWindow else { return unacknowledged != 0 }
        let phaseFrameUnacknowledged =
            lastPhaseFrameSent != lastFrameAcked && lastPhaseFrameSent &- lastFrameAcked <= unacknowledged
        return phaseFrameUnacknowledged || holdsProgress
    }
    /// When the client started owing an ack (µs, the display's clock), or nil if it owes none.
    private(set) var owingSince: Int64? {
        didSet {
            if (oldValue == nil) != (owingSince == nil) { server?.owingChanged(by: owingSince == nil ? -1 : 1) }
        }
    }

    func accepts(_ point: Point, source: InputSource) -> Bool {
        !inert && isAlive && sources & source.wireBit != 0 && region.contains(point)
    }

    func applyPendingState() {
        if let pendingRegion { region = pendingRegion }
        if let pendingSources { sources = pendingSources }
        if let pendingBehaviours { behaviours = pendingBehaviours }
        if let pendingFocusPoint { focusPoint = pendingFocusPoint }
        pendingFocusPoint = nil
        pendingRegion = nil
        pendingSources = nil
        pendingBehaviours = nil
    }

    /// The behaviour of the last area that contains `point`; deep click where none does.
    func behaviour(at point: Point) -> PressureBehaviour {
        behaviours.last { $0.region.contains(point) }?.behaviour ?? .deepClick
    }

    /// Where a keyboard interaction begins: the focus point, else the centre of the region's
    /// extents (of `size` when the region is infinite), else a point inside the region.
    func keyboardPoint(surfaceSize size: Point) -> Point {
        if let focusPoint { return focusPoint }
        return region.defaultPoint(surfaceSize: size)
    }

    private var speaksVersion2: Bool { version >= UInt32(SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_SINCE_VERSION) }

    /// should_begin + location + frame.
    func ask(_ update: PhaseUpdate) {
        guard let resource, !inert else { return }
        let wire = nextWire
        nextWire &+= 1
        answers.asked(wire)
        running.append(OutgoingInteraction(interaction: update.interaction, wire: wire, location: update.location))
        spi_preview_interaction_v1_send_should_begin(
            resource, wire, update.source.wireValue, WireForce.value(simulated: update.simulated))
        spi_preview_interaction_v1_send_location(resource, wire, update.location.x.fixed, update.location.y.fixed)
        if speaksVersion2 {
            let behaviour = server?.host?.behaviour(of: update.interaction) ?? .deepClick
            spi_preview_interaction_v1_send_behaviour(resource, wire, behaviour.wireValue, behaviour.wireStages)
            let available = server?.host?.hapticsAvailable(for: update.interaction) ?? false
            if let last = running.indices.last { running[last].hapticsAvailable = available }
            spi_preview_interaction_v1_send_haptics(
                resource, wire,
                available
                    ? SPI_PREVIEW_INTERACTION_V1_HAPTICS_STATE_AVAILABLE.rawValue
                    : SPI_PREVIEW_INTERACTION_V1_HAPTICS_STATE_UNAVAILABLE.rawValue)
        }
        sendFrame(update.interaction, wire: wire, time: update.time, changesPhase: true)
    }

    /// The user turned haptics on or off: each running interaction whose state changed hears
    /// it, in a frame of its own (never coalesced: it is not progress).
    func hapticsMayHaveChanged() {
        guard speaksVersion2, let resource, !inert else { return }
        for index in running.indices {
            let available = server?.host?.hapticsAvailable(for: running[index].interaction) ?? false
            guard available != running[index].hapticsAvailable else { continue }
            running[index].hapticsAvailable = available
            spi_preview_interaction_v1_send_haptics(
                resource, running[index].wire,
                available
                    ? SPI_PREVIEW_INTERACTION_V1_HAPTICS_STATE_AVAILABLE.rawValue
                    : SPI_PREVIEW_INTERACTION_V1_HAPTICS_STATE_UNAVAILABLE.rawValue)
            sendFrame(running[index].interaction, wire: running[index].wire, time: now(), changesPhase: true)
        }
    }

    /// One phase event, in the protocol's words: progress is coalesced while the client owes
    /// an ack; preview_ended, completed and cancelled are sent at once.
    func perform(_ event: PhaseEvent, _ update: PhaseUpdate) {
        switch event {
        case .previewBegan, .previewProgress: progress(event, .preview(update.progress), update)
        case .commitProgress: progress(event, .commit(update.progress), update)
        case .previewEnded: previewEnded(update, commit: nil)
        case .completed: end(update.interaction, at: update.time, location: update.location, cancelled: nil)
        case .cancelled(let reason):
            end(update.interaction, at: update.time, location: update.location, cancelled: reason)
        case .stage(let level):
            guard speaksVersion2 else {
                // Accelerators are declared with version 2's set_behaviour: the engine never does this.
                server?.logger.error("\(update.interaction): \(event) on a version 1 object; dropped")
                return
            }
            progress(event, .stage(level), update)
        }
    }

    /// Preview or commit progress: sent now if the client is keeping up, else coalesced.
    private func progress(_ event: PhaseEvent, _ progress: OutgoingInteraction.Progress, _ update: PhaseUpdate) {
        guard let index = index(of: update.interaction) else { return }
        if running[index].pendingProgress != nil { server?.flowStatistics.recordSuperseded() }
        running[index].coalesce(progress, location: update.location, time: update.time)
        if holdsProgress {
            if running[index].heldSince == nil { running[index].heldSince = clock.microseconds() }
        } else {
            server?.flowStatistics.recordSentAtOnce()
            flush(at: index)
        }
    }

    /// preview_ended: the commit phase begins. Never coalesced. `commit`: the commit progress the
    /// same sample produced, sent in the same frame. False when nothing was sent.
    @discardableResult
    func previewEnded(_ update: PhaseUpdate, commit: PhaseUpdate?) -> Bool {
        guard let index = index(of: update.interaction), let resource else { return false }
        let wire = running[index].wire
        let latest = commit ?? update
        sendPendingLocation(resource: resource, of: &running[index], latest: latest.location)
        if running[index].pendingProgress != nil { server?.flowStatistics.recordSuperseded() }
        running[index].pendingProgress = nil  // superseded: preview_ended means 1
        spi_preview_interaction_v1_send_preview_ended(resource, wire)
        if let commit {
            server?.flowStatistics.recordSentAtOnce()
            spi_preview_interaction_v1_send_commit(resource, wire, commit.progress.fixed)
        }
        sendFrame(update.interaction, wire: wire, time: latest.time, changesPhase: true)
        return true
    }

    /// completed or cancelled: the last event about the interaction. Never coalesced.
    private func end(_ interaction: InteractionID, at time: Timestamp, location: Point, cancelled reason: CancelReason?)
    {
        guard let index = index(of: interaction) else { return }
        var ended = running.remove(at: index)
        if ended.pendingProgress != nil { server?.flowStatistics.recordSuperseded() }
        guard let resource else { return }
        if let reason {
            spi_preview_interaction_v1_send_cancelled(resource, ended.wire, reason.wireValue(version2: speaksVersion2))
        } else {
            sendPendingLocation(resource: resource, of: &ended, latest: location)
            // The engine completes only from the commit phase (after preview_ended) or an
            // accelerator (which has no preview or commit phase).
            spi_preview_interaction_v1_send_completed(resource, ended.wire)
        }
        sendFrame(ended.interaction, wire: ended.wire, time: time, changesPhase: true)
    }

    // MARK: requests

    fileprivate func setRegion(_ regionResource: OpaquePointer?) {
        guard checkNotInert() else { return }
        guard let regionResource else {
            pendingRegion = .infinite
            return
        }
        if let region = server?.host?.region(forRegionResource: regionResource) {
            pendingRegion = region
        } else {
            server?.logger.warning("set_region: the host does not know this wl_region; using the whole surface")
            pendingRegion = .infinite
        }
    }

    fileprivate func setSources(_ bits: UInt32) {
        guard checkNotInert() else { return }
        let known = WireSources.all | (speaksVersion2 ? InputSource.keyboard.wireBit : 0)
        guard bits & ~known == 0 else {
            fail(
                SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_SOURCES.rawValue,
                "set_sources: 0x\(String(bits, radix: 16)) has bits that name no source")
            return
        }
        pendingSources = bits
    }

    fileprivate func setBehaviour(_ value: UInt32, stages: UInt32, regionResource: OpaquePointer?) {
        guard checkNotInert() else { return }
        guard let behaviour = PressureBehaviour(wire: value, stages: stages) else {
            if !PressureBehaviour.namesBehaviour(value) {
                fail(
                    SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_BEHAVIOUR.rawValue,
                    "set_behaviour: \(value) names no behaviour")
            } else {
                fail(
                    SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_STAGES.rawValue,
                    "set_behaviour: \(stages) stages are not allowed for behaviour \(value)")
            }
            return
        }
        var list = pendingBehaviours ?? []
        guard list.count < BehaviourArea.maximumPerList else {
            fail(
                SPI_PREVIEW_INTERACTION_V1_ERROR_TOO_MANY_BEHAVIOURS.rawValue,
                "set_behaviour: more than \(BehaviourArea.maximumPerList) areas in one list")
            return
        }
        var region = PreviewRegion.infinite
        if let regionResource {
            if let known = server?.host?.region(forRegionResource: regionResource) {
                region = known
            } else {
                server?.logger.warning("set_behaviour: the host does not know this wl_region; using the whole surface")
            }
        }
        list.append(BehaviourArea(behaviour: behaviour, region: region))
        pendingBehaviours = list
    }

    fileprivate func setFocusPoint(_ point: Point?) {
        guard checkNotInert() else { return }
        pendingFocusPoint = .some(point)
    }

    fileprivate func playHaptic(_ wire: UInt32, effect value: UInt32) {
        guard checkNotInert(), checkAnnounced(wire, "play_haptic") else { return }
        guard let effect = AppHapticEffect(rawValue: value) else {
            fail(SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_EFFECT.rawValue, "play_haptic: \(value) names no effect")
            return
        }
        // Ended already: the race the protocol allows; dropped.
        guard let outgoing = running.first(where: { $0.wire == wire }) else { return }
        server?.host?.playHaptic(effect, for: outgoing.interaction)
    }

    fileprivate func clearBehaviours() {
        guard checkNotInert() else { return }
        pendingBehaviours = []
    }

    fileprivate func answer(_ wire: UInt32, accept: Bool) {
        let request = accept ? "accept" : "decline"
        guard checkNotInert(), checkAnnounced(wire, request) else { return }
        switch answers.answer(wire) {
        case .again:
            fail(
                SPI_PREVIEW_INTERACTION_V1_ERROR_ALREADY_ANSWERED.rawValue,
                "\(request): interaction \(wire) was already answered")
        case .forgotten:
            return  // a very late answer to an interaction that ended long ago
        case .first:
            // Ended already (e.g. timeout): the race the protocol allows; ignore.
            // The engine ignores an answer once the interaction is past asking.
            guard let outgoing = running.first(where: { $0.wire == wire }) else { return }
            let interaction = outgoing.interaction
            if accept && holdsProgress {
                // A client answers in its should_begin handler and acknowledges the frame in the
                // frame handler right after: both arrive in one batch, the answer first. Applied
                // once the batch is read, the first progress finds that frame acknowledged
                // instead of being held for an ack that has already arrived.
                server?.reportWhenIdle { .answered(interaction, accept: true, at: $0) }
            } else {
                server?.report(.answered(interaction, accept: accept, at: now()))
            }
        }
    }

    fileprivate func cancel(_ wire: UInt32) {
        guard checkNotInert(), checkAnnounced(wire, "cancel") else { return }
        guard let outgoing = running.first(where: { $0.wire == wire }) else { return }  // already ended
        server?.report(.cancelled(outgoing.interaction, at: now()))
    }

    fileprivate func ackFrame(_ serial: UInt32) {
        // Allowed on an inert object: the last frames (cancelled, surface_gone) are sent
        // just before it becomes inert, and clients acknowledge them.
        guard serial != 0, serial <= lastFrameSent else {
            fail(
                SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_FRAME.rawValue,
                "ack_frame: frame \(serial) was never sent (last sent: \(lastFrameSent))")
            return
        }
        // Every ack is reported, a repeated one too: a client that acknowledges frames as it
        // reads them repeats the serial it has applied right before a wl_surface.commit
        // (ack_frame in the XML), which tells observers what that commit shows.
        // The owing state is settled before observers hear of the ack: a replay waiting for
        // clients to catch up reads it then, and nothing else would wake it.
        let advanced = serial > lastFrameAcked
        if advanced {
            lastFrameAcked = serial
            // A partial ack keeps the older time: conservative, and no per-frame bookkeeping.
            if !owesAcknowledgement { owingSince = nil }
        }
        server?.onFrameAcknowledged?(surface, serial)
        server?.host?.frameAcknowledged(surface: surface, serial: serial)
        guard advanced, !holdsProgress else { return }
        // Room again: send what was coalesced meanwhile, one frame per interaction.
        let now = clock.microseconds()
        for index in running.indices where running[index].hasPending {
            if running[index].pendingProgress != nil, let since = running[index].heldSince {
                server?.flowStatistics.recordHeld(microseconds: now - since)
            }
            flush(at: index)
        }
    }

    // MARK: lifetime

    override func resourceDestroyed() {
        surfaceGone?.remove()
        surfaceGone = nil
        let ended = running
        running.removeAll()
        owingSince = nil  // a client gone owes nothing
        server?.objectDestroyed(self)
        // No event can follow; the engine learns that these interactions are over.
        for outgoing in ended { server?.report(.cancelled(outgoing.interaction, at: now())) }
    }

    private func surfaceDestroyed() {
        // The engine cancels with surface_gone (sent to us while still alive), then we go inert.
        server?.report(.surfaceDestroyed(surface, at: now()))
        // Whatever the engine did not cancel still gets its one terminal event.
        for outgoing in running {
            end(outgoing.interaction, at: now(), location: outgoing.sentLocation, cancelled: .surfaceGone)
        }
        inert = true
    }

    // MARK: helpers

    private func index(of interaction: InteractionID) -> Int? {
        running.firstIndex { $0.interaction == interaction }
    }

    private func flush(at index: Int) {
        guard let resource else { return }
        let wire = running[index].wire
        let pending = running[index].takePending()
        if let location = pending.location {
            spi_preview_interaction_v1_send_location(resource, wire, location.x.fixed, location.y.fixed)
        }
        switch pending.progress {
        case .preview(let value): spi_preview_interaction_v1_send_preview(resource, wire, value.fixed)
        case .commit(let value): spi_preview_interaction_v1_send_commit(resource, wire, value.fixed)
        case .stage(let level): spi_preview_interaction_v1_send_stage(resource, wire, UInt32(level))
        case nil: break
        }
        sendFrame(running[index].interaction, wire: wire, time: pending.time ?? now(), changesPhase: false)
    }

    private func sendPendingLocation(resource: OpaquePointer, of outgoing: inout OutgoingInteraction, latest: Point) {
        guard latest != outgoing.sentLocation else { return }
        outgoing.sentLocation = latest
        outgoing.pendingLocation = nil
        spi_preview_interaction_v1_send_location(resource, outgoing.wire, latest.x.fixed, latest.y.fixed)
    }

    private func sendFrame(_ interaction: InteractionID, wire: UInt32, time: Timestamp, changesPhase: Bool) {
        guard let resource else { return }
        lastFrameSent &+= 1
        if changesPhase { lastPhaseFrameSent = lastFrameSent }
        if owingSince == nil && owesAcknowledgement { owingSince = clock.microseconds() }
        server?.onFrameSent?(surface, interaction, lastFrameSent)
        let microseconds = UInt64(bitPattern: time.microseconds)
        spi_preview_interaction_v1_send_frame(
            resource, wire, lastFrameSent, UInt32(truncatingIfNeeded: microseconds >> 32),
            UInt32(truncatingIfNeeded: microseconds))
    }

    /// Every protocol error goes through here: logged, then posted (only this client is affected).
    private func fail(_ code: UInt32, _ message: String) {
        server?.logger.notice("protocol error for \(client): spi_preview_interaction_v1@\(id): \(message)")
        postError(code, message)
    }

    private func checkNotInert() -> Bool {
        guard inert else { return true }
        fail(SPI_PREVIEW_INTERACTION_V1_ERROR_INERT.rawValue, "the wl_surface of this object was destroyed")
        return false
    }

    private func checkAnnounced(_ wire: UInt32, _ request: String) -> Bool {
        guard wire == 0 || wire >= nextWire else { return true }
        fail(
            SPI_PREVIEW_INTERACTION_V1_ERROR_INVALID_INTERACTION.rawValue,
            "\(request): interaction \(wire) was never announced on this object")
        return false
    }

    private func now() -> Timestamp { Timestamp(microseconds: clock.microseconds()) }
}

// Every handler looks its Swift object up through the resource (which owns it).
nonisolated(unsafe) private let interactionImplementation = makeImplementation(
    cwl_spi_preview_interaction_v1_impl(
        destroy: destroyResourceRequest,
        set_region: { _, resource, region in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.setRegion(region)
        },
        set_sources: { _, resource, sources in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.setSources(sources)
        },
        accept: { _, resource, interaction in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.answer(interaction, accept: true)
        },
        decline: { _, resource, interaction in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.answer(interaction, accept: false)
        },
        cancel: { _, resource, interaction in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.cancel(interaction)
        },
        ack_frame: { _, resource, serial in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.ackFrame(serial)
        },
        // Version 2's requests; libwayland raises the error for one newer than its object.
        set_focus_point: { _, resource, x, y in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.setFocusPoint(
                Point(x: cwl_fixed_to_double(x), y: cwl_fixed_to_double(y)))
        },
        unset_focus_point: { _, resource in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.setFocusPoint(nil)
        },
        set_behaviour: { _, resource, behaviour, stages, region in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.setBehaviour(
                behaviour, stages: stages, regionResource: region)
        },
        clear_behaviours: { _, resource in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.clearBehaviours()
        },
        play_haptic: { _, resource, interaction, effect in
            guard let resource else { return }
            ResourceObject.owner(of: resource, as: InteractionResource.self)?.playHaptic(interaction, effect: effect)
        }))
