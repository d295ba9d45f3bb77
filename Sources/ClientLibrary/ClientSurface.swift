import CClientLibrary
import PreviewClientCore

/// A surface with items: one interaction object on a wl_surface (an internal
/// `ClientInteraction`, which the core drives as any other) shared by a toolkit's widgets. The
/// client core's `SurfaceItems` makes the declaration from the items and routes each press;
/// this makes the items' calls.
final class ClientSurface {
    let context: ClientContext
    let interaction: ClientInteraction
    private(set) var handle: OpaquePointer?
    private let callbacks: preview_interaction_client_surface_callbacks
    let userData: UnsafeMutableRawPointer?
    private(set) var core = SurfaceItems()
    private var items: [SurfaceItems.ItemID: ClientItem] = [:]

    init(
        context: ClientContext, interaction: ClientInteraction,
        callbacks: preview_interaction_client_surface_callbacks, userData: UnsafeMutableRawPointer?
    ) {
        self.context = context
        self.interaction = interaction
        self.callbacks = callbacks
        self.userData = userData
        interaction.router = self
        // No item yet: presses begin nowhere.
        _ = interaction.declare(core.declaration)
        handle = Handles.shared.register(self)
    }

    var isAttached: Bool { handle != nil }

    // MARK: what the toolkit says

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
            guard let call = try? interaction.cancelSilently(press) else { continue }
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

    /// The declaration made again from the items; true if anything was sent.
    func layoutChanged() -> Bool {
        interaction.declare(core.declaration)
    }

    func runningCount(of item: ClientItem) -> UInt32 {
        UInt32(core.presses(of: item.id).count)
    }

    func presses(of item: ClientItem) -> [UInt32] { core.presses(of: item.id) }

    /// The item's latest press as the core last reported it to the item (the reader may have
    /// read further: the app sees phases in the order of its calls).
    func latestPress(of item: ClientItem) -> PreviewPress? {
        core.item(item.id)?.latestPress
    }

    // MARK: the calls (from the interaction's delivery)

    func make(_ entry: CoreCall) {
        guard case .shouldBegin = entry.call else {
            guard let (id, phaseChanged) = core.reported(entry), let item = items[id] else { return }
            if phaseChanged { item.phaseChanged(entry.press) }
            guard item.isAttached else { return }
            item.make(entry)
            return
        }
        let press = entry.press
        var picked: SurfaceItems.ItemID?? = nil
        if press.source != .keyboard, let pick = callbacks.pick, let handle {
            var cPress = ClientInteraction.cPress(press)
            let chosen = Handles.shared.item(pick(userData, handle, &cPress))
            guard isAttached else { return }
            picked = .some(chosen.flatMap { $0.surface === self ? $0.id : nil })
        }
        switch core.route(press, picked: picked) {
        case .decline:
            try? interaction.answer(press.id, accept: false)
        case .ask(let id, let phaseChanged):
            guard let item = items[id] else { return }
            if phaseChanged { item.phaseChanged(press) }
            guard item.isAttached else { return }
            item.make(entry)
        }
    }

    /// An answer of the app went through (from a callback's return or an answer call): a decline
    /// changes the item's phase.
    func answered(_ id: UInt32) {
        guard let press = interaction.press(id) else { return }
        let owner = core.itemOf(press: id)
        guard core.answered(press), let owner, let item = items[owner] else { return }
        item.phaseChanged(press)
    }

    /// A pen's button release reached the toolkit: whether it is one a commit phase took away
    /// (the toolkit drops it: no click). The calls waiting are made first while a pen press may be
    /// about to take the pen away: its preview_ended comes before the release it explains, but on
    /// another queue.
    func penReleased() -> Bool {
        if !core.hasPenReleaseTakenAway && core.mayTakePenAway { _ = context.dispatch() }
        return core.penReleased()
    }

    // MARK: teardown

    /// The surface goes: each running press's item hears of it (surface gone), then every
    /// handle is invalid.
    func detach() {
        for (press, itemID) in core.dropAll() {
            guard let item = items[itemID] else { continue }
            var cPress = interaction.press(press).map(ClientInteraction.cPress) ?? preview_interaction_client_press()
            cPress.id = press
            cPress.phase = PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED
            cPress.cancel_reason = PREVIEW_INTERACTION_CLIENT_CANCEL_SURFACE_GONE
            item.phaseChanged(&cPress)
            item.cancelled(&cPress)
        }
        interaction.detach()
        context.forget(interaction)
        forget()
    }

    /// Forgets the handles (the context is destroyed, or the surface detached).
    func forget() {
        for item in items.values { item.forget() }
        items.removeAll()
        if let handle { Handles.shared.forget(surface: handle) }
        handle = nil
        context.forget(self)
    }
}

/// One widget of a surface with items: its callbacks, made with its handle.
final class ClientItem {
    unowned let surface: ClientSurface
    let id: SurfaceItems.ItemID
    private(set) var handle: OpaquePointer?
    private let callbacks: preview_interaction_client_item_callbacks
    let userData: UnsafeMutableRawPointer?

    init(
        surface: ClientSurface, id: SurfaceItems.ItemID, callbacks: preview_interaction_client_item_callbacks,
        userData: UnsafeMutableRawPointer?
    ) {
        self.surface = surface
        self.id = id
        self.callbacks = callbacks
        self.userData = userData
        handle = Handles.shared.register(self)
    }

    var isAttached: Bool { handle != nil }

    func forget() {
        if let handle { Handles.shared.forget(item: handle) }
        handle = nil
    }

    /// The press must not be another item's (one routed to none is left to the core, which
    /// says whether it ended or never was).
    func owns(_ press: UInt32) throws(Status) {
        if let owner = surface.core.itemOf(press: press), owner != id { throw .unknownPress }
    }

    func make(_ entry: CoreCall) {
        guard let handle else { return }
        var press = ClientInteraction.cPress(entry.press)
        switch entry.call {
        case .shouldBegin:
            guard let shouldBegin = callbacks.should_begin else {
                answer(press.id, accept: true)
                return
            }
            let answer = shouldBegin(userData, handle, &press).rawValue
            guard isAttached else { return }
            switch answer {
            case PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT.rawValue: self.answer(press.id, accept: true)
            case PREVIEW_INTERACTION_CLIENT_ANSWER_LATER.rawValue: break
            case PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE.rawValue: self.answer(press.id, accept: false)
            default:
                surface.context.logger.log(.error, "should_begin returned \(answer), which is no answer: declined")
                self.answer(press.id, accept: false)
            }
        case .preview(let progress, let ended):
            callbacks.preview?(userData, handle, &press, progress, ended)
        case .commit(let progress, let ended):
            callbacks.commit?(userData, handle, &press, progress, ended)
        case .acceleratorEnded:
            // A toolkit that tells an accelerator's end as such; the rest hear the commit's end.
            if let ended = callbacks.accelerator_ended {
                ended(userData, handle, &press)
            } else {
                callbacks.commit?(userData, handle, &press, 1, true)
            }
        case .cancel:
            callbacks.cancelled?(userData, handle, &press, press.cancel_reason)
        case .stage(let level):
            callbacks.stage?(userData, handle, &press, level)
        case .haptics(let available):
            callbacks.haptics_changed?(userData, handle, &press, available)
        }
    }

    /// The item's latest press changed phase (told before the call that changed it).
    func phaseChanged(_ press: PreviewPress) {
        var cPress = ClientInteraction.cPress(press)
        phaseChanged(&cPress)
    }

    func phaseChanged(_ press: inout preview_interaction_client_press) {
        guard let handle, let changed = callbacks.phase_changed else { return }
        changed(userData, handle, &press)
    }

    /// A cancel the library makes itself (the surface goes).
    func cancelled(_ press: inout preview_interaction_client_press) {
        guard let handle else { return }
        callbacks.cancelled?(userData, handle, &press, press.cancel_reason)
    }

    /// The callback's answer (an answer call checks more: `surface.interaction.answer`).
    private func answer(_ press: UInt32, accept: Bool) {
        try? surface.interaction.answer(press, accept: accept)
        surface.answered(press)
    }
}
