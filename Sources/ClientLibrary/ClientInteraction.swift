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
    /// What the app declared (region, sources, focus point, behaviours), and what was sent of it.
    private var declaration = SurfaceDeclaration()
    private var sender = DeclarationSender()
    /// Frames are acknowledged by `willCommit`, not as they are read.
    private var holdsAcknowledgements = false
    /// The last frame whose calls the app has had (repeated before a commit).
    private var applied: UInt32 = 0
    /// Cancels the app made from inside one of this interaction's callbacks.
    private var localCalls: [CoreCall] = []
    /// One of this interaction's callbacks is running.
    private var making = false
    /// The surface with items whose object this is: it routes the calls to its items.
    weak var router: ClientSurface?

    static let maximumRectangles: UInt32 = 4096

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
        send(sender.bound(version: channel.version, declaration: declaration))
    }

    func destroyObject() {
        guard let channel else { return }
        channel.destroy()
        channel.flush()
        sender.unbound()
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
        declaration.region = rects.map { Self.rects($0, count: count) }
        apply()
    }

    func setSources(_ bits: UInt32) throws(Status) {
        guard bits & ~PREVIEW_INTERACTION_CLIENT_SOURCES_ALL.rawValue == 0 else { throw .invalidArgument }
        declaration.sources = PreviewSources(rawValue: bits)
        apply()
    }

    func setEnabled(_ value: Bool) {
        declaration.enabled = value
        apply()
    }

    /// The version 2 settings are kept whatever the global; a global of version 1 cannot take them.
    private func requireVersionTwo() throws(Status) {
        if let channel, channel.version < 2 { throw .unsupported }
    }

    func setFocusPoint(x: Double, y: Double) throws(Status) {
        guard x.isFinite, y.isFinite else { throw .invalidArgument }
        declaration.focusPoint = PreviewPoint(x: x, y: y)
        apply()
        try requireVersionTwo()
    }

    func unsetFocusPoint() throws(Status) {
        declaration.focusPoint = nil
        apply()
        try requireVersionTwo()
    }

    func setBehaviours(_ areas: UnsafePointer<preview_interaction_client_behaviour_area>?, count: UInt32)
        throws(Status)
    {
        guard count <= PreviewBehaviourArea.maximumCount, areas != nil || count == 0 else { throw .invalidArgument }
        var list: [PreviewBehaviourArea] = []
        for area in UnsafeBufferPointer(start: areas, count: areas == nil ? 0 : Int(count)) {
            guard let kind = PreviewBehaviour(wire: area.behaviour.rawValue, stages: area.stages),
                PreviewBehaviourArea(kind).isValid, kind == .deepClick || kind == .generic ? area.stages == 0 : true,
                area.rect_count <= Self.maximumRectangles, area.rects != nil || area.rect_count == 0
            else { throw .invalidArgument }
            list.append(PreviewBehaviourArea(kind, rects: area.rects.map { Self.rects($0, count: area.rect_count) }))
        }
        declaration.behaviours = list
        apply()
        try requireVersionTwo()
    }

    /// A whole new declaration (a surface's, made from its items): true if anything was sent.
    func declare(_ new: SurfaceDeclaration) -> Bool {
        declaration = new
        return apply()
    }

    static func rects(_ pointer: UnsafePointer<preview_interaction_client_rect>, count: UInt32) -> [PreviewRect] {
        UnsafeBufferPointer(start: pointer, count: Int(count)).map {
            PreviewRect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height))
        }
    }

    /// Sends what differs from what the object has (nothing while there is none).
    @discardableResult
    private func apply() -> Bool {
        send(sender.declare(declaration))
    }

    @discardableResult
    private func send(_ requests: [DeclarationRequest]) -> Bool {
        guard let channel, !requests.isEmpty else { return false }
        for case .setFocusPoint(let point) in requests {
            context.logger.log(.debug, point.map { "focus point \($0.x),\($0.y)" } ?? "no focus point")
        }
        if !channel.send(requests, compositor: context.compositor) {
            context.logger.log(.error, "the compositor has no wl_compositor: a region is not sent")
        }
        return true
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

    /// Cancels a press and returns its call instead of making it (an item being removed makes it
    /// itself, at once).
    func cancelSilently(_ press: UInt32) throws(Status) -> CoreCall? {
        guard let channel else { throw .unknownPress }
        do { return try channel.cancel(press) } catch { throw Status(error) }
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
        making = true
        if let router {
            router.make(entry)
        } else {
            makeOwn(entry, handle: handle)
        }
        making = false
        // Cancels made from inside the callback, right after it.
        while isAttached, !localCalls.isEmpty { make(localCalls.removeFirst()) }
    }

    /// The press as the core knows it now (nil once the compositor ended it and it was dropped).
    func press(_ id: UInt32) -> PreviewPress? { channel?.press(id) }

    private func makeOwn(_ entry: CoreCall, handle: OpaquePointer) {
        var press = Self.cPress(entry.press)
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
        case .acceleratorEnded:
            callbacks.commit?(userData, handle, &press, 1, true)
        case .cancel:
            callbacks.cancelled?(userData, handle, &press, press.cancel_reason)
        case .stage(let level):
            callbacks.stage?(userData, handle, &press, level)
        case .haptics(let available):
            callbacks.haptics_changed?(userData, handle, &press, available)
        }
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
        // The core's phase and reason, by their numbers in the one vocabulary.
        out.phase = preview_interaction_client_phase(rawValue: press.phase.code)
        if let reason = press.cancelReason {
            out.cancel_reason = preview_interaction_client_cancel_reason(rawValue: reason.wireValue)
        }
        return out
    }
}
