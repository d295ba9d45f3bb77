import CClientLibrary
import CWaylandClient
import PreviewClientCore
import PreviewInteraction

/// Preview interactions on one wl_surface: the protocol object (while the compositor has the
/// global), the app's settings to send again when it appears, and the calls to the app's
/// callbacks. The core (through the Channel) decides every call; this only makes them.
final class ClientInteraction {
    let context: ClientContext
    let surface: OpaquePointer
    private(set) var handle: OpaquePointer?
    private let callbacks: preview_interaction_client_interaction_callbacks
    let userData: UnsafeMutableRawPointer?
    private var channel: Channel?
    private var retained: Retained?
    /// nil: the whole surface.
    private var region: [preview_interaction_client_rect]?
    private var sources: UInt32 = PREVIEW_INTERACTION_CLIENT_SOURCES_ALL.rawValue
    private var enabled = true
    /// The focused item's point (version 2); keyboard presses begin only while there is one.
    private var focusPoint: (x: Double, y: Double)?
    /// The app's pressure behaviours (version 2); empty: deep_click everywhere.
    private var behaviours: [Area] = []

    struct Area {
        var behaviour: UInt32
        var stages: UInt32
        /// nil: the whole surface.
        var rects: [preview_interaction_client_rect]?
    }
    /// Frames are acknowledged by `willCommit`, not as they are read.
    private var holdsAcknowledgements = false
    /// The last frame whose calls the app has had (repeated before a commit).
    private var applied: UInt32 = 0
    /// Cancels the app made from inside one of this interaction's callbacks.
    private var localCalls: [CoreCall] = []
    /// One of this interaction's callbacks is running.
    private var making = false

    static let maximumRectangles: UInt32 = 4096
    /// The sources of protocol version 1.
    static let versionOneSources: UInt32 = 15

    init(
        context: ClientContext, surface: OpaquePointer, callbacks: preview_interaction_client_interaction_callbacks,
        userData: UnsafeMutableRawPointer?
    ) {
        self.context = context
        self.surface = surface
        self.callbacks = callbacks
        self.userData = userData
        localCalls.reserveCapacity(InteractionCore.maximumRunning)
        handle = Handles.shared.register(self)
    }

    var isAttached: Bool { handle != nil }

    // MARK: the protocol object

    func createObject(manager: OpaquePointer) {
        guard channel == nil, let proxy = spi_preview_interaction_manager_v1_get_interaction(manager, surface) else {
            return
        }
        let channel = Channel(proxy: proxy, display: context.display, reader: context.reader) {
            [logger = context.logger] in
            logger.log($0)
        }
        applied = 0  // serials count per protocol object
        let retained = Retained(channel)
        spi_preview_interaction_v1_add_listener(proxy, &interactionListener, retained.pointer)
        (self.channel, self.retained) = (channel, retained)
        if holdsAcknowledgements { channel.holdAcknowledgements(true) }
        if region != nil { sendRegion() }
        if effectiveSources != Self.versionOneSources { sendSources() }
        if channel.version >= 2 {
            if focusPoint != nil { sendFocusPoint() }
            if !behaviours.isEmpty { sendBehaviours() }
        }
        channel.flush()
    }

    func destroyObject() {
        guard let channel else { return }
        channel.destroy()
        channel.flush()
        if let retained { context.reader.retire(retained) }
        (self.channel, retained) = (nil, nil)
    }

    func detach() {
        destroyObject()
        if let handle { Handles.shared.forget(interaction: handle) }
        handle = nil
        localCalls.removeAll()
    }

    // MARK: settings

    func setRegion(_ rects: UnsafePointer<preview_interaction_client_rect>?, count: UInt32) throws(Status) {
        guard count <= Self.maximumRectangles, rects != nil || count == 0 else { throw .invalidArgument }
        if let rects {
            region = Array(UnsafeBufferPointer(start: rects, count: Int(count)))
        } else {
            region = nil
        }
        sendRegion()
    }

    func setSources(_ bits: UInt32) throws(Status) {
        guard bits & ~PREVIEW_INTERACTION_CLIENT_SOURCES_ALL.rawValue == 0 else { throw .invalidArgument }
        sources = bits
        sendSources()
    }

    /// The version 2 settings are kept whatever the global; a global of version 1 cannot take them.
    private func requireVersionTwo() throws(Status) {
        if let channel, channel.version < 2 { throw .unsupported }
    }

    func setFocusPoint(x: Double, y: Double) throws(Status) {
        guard x.isFinite, y.isFinite else { throw .invalidArgument }
        let hadPoint = focusPoint != nil
        focusPoint = (x, y)
        try requireVersionTwo()
        sendFocusPoint()
        if !hadPoint { sendSources() }
        channel?.flush()
    }

    func unsetFocusPoint() throws(Status) {
        let hadPoint = focusPoint != nil
        focusPoint = nil
        try requireVersionTwo()
        sendFocusPoint()
        if hadPoint { sendSources() }
        channel?.flush()
    }

    func setBehaviours(_ areas: UnsafePointer<preview_interaction_client_behaviour_area>?, count: UInt32)
        throws(Status)
    {
        guard count <= PreviewBehaviourArea.maximumCount, areas != nil || count == 0 else { throw .invalidArgument }
        var list: [Area] = []
        for area in UnsafeBufferPointer(start: areas, count: areas == nil ? 0 : Int(count)) {
            let behaviour = area.behaviour.rawValue
            guard let kind = PreviewBehaviour(wire: behaviour, stages: area.stages),
                PreviewBehaviourArea(kind).isValid, kind == .deepClick || kind == .generic ? area.stages == 0 : true,
                area.rect_count <= Self.maximumRectangles, area.rects != nil || area.rect_count == 0
            else { throw .invalidArgument }
            let rects = area.rects.map { Array(UnsafeBufferPointer(start: $0, count: Int(area.rect_count))) }
            list.append(Area(behaviour: behaviour, stages: area.stages, rects: rects))
        }
        behaviours = list
        try requireVersionTwo()
        sendBehaviours()
        channel?.flush()
    }

    func playHaptic(_ press: UInt32, effect: UInt32) throws(Status) {
        guard let effect = PreviewHapticEffect(rawValue: effect) else { throw .invalidArgument }
        guard let channel else { throw .unknownPress }
        guard channel.version >= 2 else { throw .unsupported }
        do { try channel.playHaptic(press, effect: effect) } catch { throw Status(error) }
    }

    func hapticsAvailable(_ press: UInt32) throws(Status) -> Bool {
        guard let channel else { throw .unknownPress }
        do { return try channel.hapticsAvailable(press) } catch { throw Status(error) }
    }

    /// What set_sources says: the keyboard only with a focus point, and only to version 2.
    private var effectiveSources: UInt32 {
        guard enabled else { return 0 }
        var bits = sources
        if focusPoint == nil || (channel?.version ?? 1) < 2 { bits &= Self.versionOneSources }
        return bits
    }

    private func sendFocusPoint() {
        guard let channel, channel.version >= 2 else { return }
        if let point = focusPoint {
            let (x, y) = (wl_fixed_from_double(point.x), wl_fixed_from_double(point.y))
            channel.send { spi_preview_interaction_v1_set_focus_point($0, x, y) }
        } else {
            channel.send { spi_preview_interaction_v1_unset_focus_point($0) }
        }
    }

    private func sendBehaviours() {
        guard let channel, channel.version >= 2 else { return }
        channel.send { spi_preview_interaction_v1_clear_behaviours($0) }
        for area in behaviours {
            guard let rects = area.rects else {
                channel.send { spi_preview_interaction_v1_set_behaviour($0, area.behaviour, area.stages, nil) }
                continue
            }
            guard let compositor = context.compositor, let wlRegion = wl_compositor_create_region(compositor) else {
                context.logger.log(.error, "the compositor has no wl_compositor: a behaviour's area is not sent")
                continue
            }
            for rect in rects where rect.width > 0 && rect.height > 0 {
                wl_region_add(wlRegion, rect.x, rect.y, rect.width, rect.height)
            }
            channel.send { spi_preview_interaction_v1_set_behaviour($0, area.behaviour, area.stages, wlRegion) }
            wl_region_destroy(wlRegion)
        }
    }

    func setEnabled(_ value: Bool) {
        enabled = value
        sendSources()
    }

    private func sendSources() {
        let bits = effectiveSources
        channel?.send { spi_preview_interaction_v1_set_sources($0, bits) }
        channel?.flush()
    }

    private func sendRegion() {
        guard let channel else { return }
        guard let rects = region else {
            channel.send { spi_preview_interaction_v1_set_region($0, nil) }
            channel.flush()
            return
        }
        guard let compositor = context.compositor, let wlRegion = wl_compositor_create_region(compositor) else {
            context.logger.log(.error, "the compositor has no wl_compositor: the region is not sent")
            return
        }
        for rect in rects where rect.width > 0 && rect.height > 0 {
            wl_region_add(wlRegion, rect.x, rect.y, rect.width, rect.height)
        }
        channel.send { spi_preview_interaction_v1_set_region($0, wlRegion) }
        wl_region_destroy(wlRegion)
        channel.flush()
    }

    // MARK: what the app does

    func answer(_ press: UInt32, accept: Bool) throws(Status) {
        guard let channel else { throw .unknownPress }
        do { try channel.answer(press, accept: accept) } catch { throw Status(error) }
    }

    func cancel(_ press: UInt32) throws(Status) {
        guard let channel else { throw .unknownPress }
        let call: CoreCall?
        do { call = try channel.cancel(press) } catch { throw Status(error) }
        guard let call else { return }
        localCalls.append(call)
        if !making { makeLocalCalls() }
    }

    func cancelAll() {
        guard let channel else { return }
        for press in channel.runningPresses { try? cancel(press.id) }
    }

    var runningCount: UInt32 { UInt32(channel?.runningCount ?? 0) }

    func holdAcknowledgements(_ hold: Bool) {
        holdsAcknowledgements = hold
        channel?.holdAcknowledgements(hold)
    }

    /// The app's next commit shows every callback made so far.
    func willCommit() -> UInt32 {
        channel?.acknowledgeShown(applied: applied) ?? 0
    }

    func commitSurface() {
        guard let channel else {
            wl_surface_commit(surface)
            return
        }
        channel.commit(showing: applied) { wl_surface_commit(surface) }
    }

    // MARK: delivery (the app's thread)

    func deliver() {
        makeLocalCalls()
        while isAttached, let (call, frame) = channel?.nextCall() {
            applied = max(applied, frame)
            make(call)
        }
        channel?.flush()
    }

    /// The connection or the global went away: running presses end (system), delivered now.
    func connectionLost() {
        channel?.connectionLost()
        deliver()
    }

    private func makeLocalCalls() {
        let wasDelivering = context.delivering
        context.delivering = true
        defer { context.delivering = wasDelivering }
        while isAttached, !localCalls.isEmpty { make(localCalls.removeFirst()) }
    }

    private func make(_ entry: CoreCall) {
        guard let handle else { return }
        var press = Self.cPress(entry.press)
        making = true
        switch entry.call {
        case .shouldBegin:
            guard let shouldBegin = callbacks.should_begin else {
                try? channel?.answer(press.id, accept: true)
                break
            }
            let answer = shouldBegin(userData, handle, &press).rawValue
            guard isAttached else { break }
            switch answer {
            case PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT.rawValue: try? channel?.answer(press.id, accept: true)
            case PREVIEW_INTERACTION_CLIENT_ANSWER_LATER.rawValue: break
            case PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE.rawValue: try? channel?.answer(press.id, accept: false)
            default:
                context.logger.log(.error, "should_begin returned \(answer), which is no answer: declined")
                try? channel?.answer(press.id, accept: false)
            }
        case .preview(let progress, let ended):
            callbacks.preview?(userData, handle, &press, progress, ended)
        case .commit(let progress, let ended):
            callbacks.commit?(userData, handle, &press, progress, ended)
        case .cancel:
            callbacks.cancelled?(userData, handle, &press, press.cancel_reason)
        case .stage(let level):
            callbacks.stage?(userData, handle, &press, level)
        case .haptics(let available):
            callbacks.haptics_changed?(userData, handle, &press, available)
        }
        making = false
        // Cancels made from inside the callback, right after it.
        while isAttached, !localCalls.isEmpty { make(localCalls.removeFirst()) }
    }

    static func cPress(_ press: PreviewPress) -> preview_interaction_client_press {
        var out = preview_interaction_client_press()
        out.id = press.id
        out.source = preview_interaction_client_source(rawValue: press.source?.rawValue ?? 0)
        out.force = preview_interaction_client_force(rawValue: press.force?.rawValue ?? 0)
        out.progress = press.progress
        out.x = press.location.x
        out.y = press.location.y
        out.time_usec = press.timestamp
        out.cancel_reason = PREVIEW_INTERACTION_CLIENT_CANCEL_NONE
        let (behaviour, stages) = press.behaviour.wire
        out.behaviour = preview_interaction_client_behaviour(rawValue: behaviour)
        out.stages = stages
        out.stage = press.stage
        out.haptics_available = press.hapticsAvailable
        switch press.phase {
        case .asking: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_ASKING
        case .preview: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_PREVIEW
        case .commit: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_COMMIT
        case .accelerating: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_STAGE
        case .completed: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_COMPLETED
        case .cancelled(let reason):
            out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED
            out.cancel_reason = preview_interaction_client_cancel_reason(rawValue: reason.wireValue)
        }
        return out
    }
}
