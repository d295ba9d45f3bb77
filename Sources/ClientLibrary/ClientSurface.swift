import CClientLibrary
import CWaylandClient
import PreviewClientCore
import PreviewClientWire

/// One wl_surface's protocol object and the items its presses go to: the C API's one
/// implementation. A toolkit's surface with items has the client core's `SurfaceItems` make
/// the declaration from its items and route each press to the item under it; an interaction
/// (the API of 1.0, `ClientInteraction`) is a surface whose declaration the app sets itself and
/// whose every press goes to its one item. The core (through the Channel) decides every call;
/// this only routes and makes them.
final class ClientSurface: ChannelOwner {
    enum Layout {
        /// Declared from the items at layout_changed; a press goes to the item under it.
        case items
        /// Declared by the app (set_region, set_sources, ...); every press goes to the one item.
        case whole
    }

    let context: ClientContext
    let surface: OpaquePointer
    let layout: Layout
    // Every field is the context's thread's alone, touched on every delivery: no runtime
    // exclusivity check.
    /// The items API's handle (an interaction's surface has none of its own).
    @exclusivity(unchecked) private(set) var handle: OpaquePointer?
    private let callbacks: preview_interaction_client_surface_callbacks
    let userData: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private(set) var core = SurfaceItems()
    @exclusivity(unchecked) private var items: [SurfaceItems.ItemID: ClientItem] = [:]
    @exclusivity(unchecked) private(set) var isAttached = true

    @exclusivity(unchecked) private var channel: Channel?
    private var retained: Retained?
    /// What the surface declares (from the items, or the app's), and what was sent of it.
    private var declaration = SurfaceDeclaration()
    private var sender = DeclarationSender()
    /// Frames are acknowledged by `willCommit`, not as they are handled.
    private var holdsAcknowledgements = false
    /// The last frame whose calls the app has had (repeated before a commit).
    @exclusivity(unchecked) private var applied: UInt32 = 0
    /// Cancels the app made from inside one of this surface's callbacks.
    @exclusivity(unchecked) private var localCalls: [CoreCall] = []
    /// One of this surface's callbacks is running.
    @exclusivity(unchecked) private var making = false

    static let maximumRectangles: UInt32 = 4096

    init(
        context: ClientContext, surface: OpaquePointer, layout: Layout,
        callbacks: preview_interaction_client_surface_callbacks, userData: UnsafeMutableRawPointer?
    ) {
        self.context = context
        self.surface = surface
        self.layout = layout
        self.callbacks = callbacks
        self.userData = userData
        localCalls.reserveCapacity(InteractionCore.maximumRunning)
        // With items, no item yet: presses begin nowhere. Whole: everywhere, every source.
        if layout == .items { declaration = core.declaration }
    }

    /// Gives the surface its items API handle.
    func register() { handle = Handles.shared.register(self) }

    // MARK: the protocol object

    func createObject(manager: OpaquePointer) {
        guard isAttached, channel == nil,
            let proxy = spi_preview_interaction_manager_v1_get_interaction(manager, surface)
        else { return }
        let logger = context.logger
        let (channel, retained) = Channel.listening(to: proxy, display: context.display) { logger.log($0) }
        channel.owner = self  // until destroyObject
        applied = 0  // serials count per protocol object
        (self.channel, self.retained) = (channel, retained)
        if holdsAcknowledgements { channel.holdAcknowledgements(true) }
        send(sender.bound(version: channel.version, declaration: declaration))
    }

    func destroyObject() {
        guard let channel else { return }
        channel.destroy()
        channel.flush()
        sender.unbound()
        retained?.release()
        (self.channel, retained) = (nil, nil)
    }

    /// The object's version (nil without one).
    var version: UInt32? { channel?.version }

    // MARK: what it declares

    /// Changes the app's own declaration (a whole surface) and sends what differs.
    func declare(_ change: (inout SurfaceDeclaration) -> Void) {
        change(&declaration)
        apply()
    }

    /// The declaration made again from the items; true if anything was sent.
    func layoutChanged() -> Bool {
        declaration = core.declaration
        return apply()
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

    // MARK: items

    func add(callbacks: preview_interaction_client_item_callbacks, userData: UnsafeMutableRawPointer?) throws(Status)
        -> ClientItem
    {
        guard let id = core.add() else { throw .limit }
        let item = ClientItem(surface: self, id: id, callbacks: callbacks, userData: userData)
        items[id] = item
        return item
    }

    /// Removes an item: its running presses are cancelled, their calls made now.
    func remove(_ item: ClientItem) {
        let presses = core.remove(item.id)
        items[item.id] = nil
        for press in presses {
            guard let call = try? cancelSilently(press) else { continue }
            item.make(call)
        }
        item.forget()
    }

    func update(_ item: ClientItem, _ change: (inout SurfaceItems.Item) -> Void) {
        core.update(item.id, change)
    }

    func setFocus(_ item: ClientItem?, x: Double, y: Double) throws(Status) {
        guard x.isFinite, y.isFinite, item.map({ $0.surface === self }) ?? true else { throw .invalidArgument }
        core.setFocus(item?.id, at: PreviewPoint(x: x, y: y))
    }

    func runningCount(of item: ClientItem) -> UInt32 { UInt32(core.presses(of: item.id).count) }

    func presses(of item: ClientItem) -> [UInt32] { core.presses(of: item.id) }

    /// The item's latest press as the core last reported it to the item (the core may have
    /// read further: the app sees phases in the order of its calls).
    func latestPress(of item: ClientItem) -> PreviewPress? { core.item(item.id)?.latestPress }

    // MARK: what the app does

    func answer(_ press: UInt32, accept: Bool) throws(Status) {
        guard let channel else { throw .unknownPress }
        do { try channel.answer(press, accept: accept) } catch { throw Status(error) }
        answered(press)
    }

    /// An answer of the app went through (from a callback's return or an answer call): a decline
    /// changes the item's phase.
    private func answered(_ id: UInt32) {
        guard let press = channel?.press(id) else { return }
        let owner = core.itemOf(press: id)
        guard core.answered(press), let owner, let item = items[owner] else { return }
        item.phaseChanged(press)
    }

    /// A pen's button release reached the toolkit: whether it is one a commit phase took away
    /// (the toolkit drops it: no click). The calls read and not yet made are made first while a
    /// pen press may be about to take the pen away: the toolkit may handle the release before
    /// the library's delivery of the preview_ended that explains it.
    func penReleased() -> Bool {
        if !core.hasPenReleaseTakenAway && core.mayTakePenAway && !context.delivering { deliver() }
        return core.penReleased()
    }

    func cancel(_ press: UInt32) throws(Status) {
        guard let call = try cancelSilently(press) else { return }
        localCalls.append(call)
        if !making { makeLocalCalls() }
    }

    /// Cancels a press and returns its call instead of making it (an item being removed makes it
    /// itself, at once).
    func cancelSilently(_ press: UInt32) throws(Status) -> CoreCall? {
        guard let channel else { throw .unknownPress }
        do { return try channel.cancel(press) } catch { throw Status(error) }
    }

    /// Cancels every running press.
    func cancelAll() {
        guard let channel else { return }
        for press in channel.runningPresses { try? cancel(press.id) }
    }

    /// Presses announced and not ended yet, whatever their item.
    var runningCount: UInt32 { UInt32(channel?.runningCount ?? 0) }

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

    func holdAcknowledgements(_ hold: Bool) {
        holdsAcknowledgements = hold
        channel?.holdAcknowledgements(hold)
    }

    /// The app's next commit shows every callback made so far.
    func willCommit() -> UInt32 { channel?.acknowledgeShown(applied: applied) ?? 0 }

    func commitSurface() {
        guard let channel else { return wl_surface_commit(surface) }
        channel.commit(showing: applied) { wl_surface_commit(surface) }
    }

    // MARK: delivery (the app's thread)

    /// A frame made calls (its events were dispatched by the app's loop, or by the context's).
    func callsReady() { context.signal() }

    var hasWaiting: Bool { channel?.hasWaiting ?? false }

    func deliver() {
        makeLocalCalls()
        while isAttached, let (call, frame) = channel?.nextCall() {
            applied = max(applied, frame)
            make(call)
        }
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
        guard isAttached else { return }
        making = true
        route(entry)
        making = false
        // Cancels made from inside the callback, right after it.
        while isAttached, !localCalls.isEmpty { make(localCalls.removeFirst()) }
    }

    /// A call goes to the item of its press; a should-begin picks the item first. A whole
    /// surface's every call goes to its one item.
    private func route(_ entry: CoreCall) {
        if layout == .whole { return items.values.first?.make(entry) ?? () }
        guard case .shouldBegin = entry.call else {
            guard let (id, phaseChanged) = core.reported(entry), let item = items[id] else { return }
            if phaseChanged { item.phaseChanged(entry.press) }
            guard item.isAttached else { return }
            return item.make(entry)
        }
        let press = entry.press
        var picked: SurfaceItems.ItemID?? = nil
        if press.source != .keyboard, let pick = callbacks.pick, let handle {
            var cPress = CPress.make(press)
            let chosen = Handles.shared.item(pick(userData, handle, &cPress))
            guard isAttached else { return }
            picked = .some(chosen.flatMap { $0.surface === self ? $0.id : nil })
        }
        switch core.route(press, picked: picked) {
        case .decline:
            try? answer(press.id, accept: false)
        case .ask(let id, let phaseChanged):
            guard let item = items[id] else { return }
            if phaseChanged { item.phaseChanged(press) }
            guard item.isAttached else { return }
            item.make(entry)
        }
    }

    /// The press as the core knows it now (nil once the compositor ended it and it was dropped).
    func press(_ id: UInt32) -> PreviewPress? { channel?.press(id) }

    // MARK: teardown

    /// The surface goes: with `tellingItems`, each running press's item hears of it (surface
    /// gone; an interaction's detach makes no call); then every handle is invalid.
    func detach(tellingItems: Bool) {
        let routes = core.dropAll()
        if tellingItems {
            for (press, itemID) in routes {
                guard let item = items[itemID] else { continue }
                var cPress = self.press(press).map(CPress.make) ?? preview_interaction_client_press()
                cPress.id = press
                cPress.phase = PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED
                cPress.cancel_reason = PREVIEW_INTERACTION_CLIENT_CANCEL_SURFACE_GONE
                item.phaseChanged(&cPress)
                item.cancelled(&cPress)
            }
        }
        destroyObject()
        localCalls.removeAll()
        forget()
        context.forget(self)
    }

    /// Forgets the handles (the context is destroyed, or the surface detached).
    func forget() {
        isAttached = false
        for item in items.values { item.forget() }
        items.removeAll()
        if let handle { Handles.shared.forget(surface: handle) }
        handle = nil
    }
}
