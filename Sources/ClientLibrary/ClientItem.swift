import CClientLibrary
import PreviewClientCore

/// One target of a surface's presses, with its callbacks: a toolkit's widget (an item of the
/// items API), or an interaction of the API of 1.0, whose callbacks get the interaction's
/// handle (`callbackHandle`: the two callback structs are alike but for that handle's type).
final class ClientItem {
    // A surface outlives its items (it forgets them when it goes): a strong reference, and no cycle
    // once forgotten. Every field is the context's thread's alone: no runtime exclusivity check.
    let surface: ClientSurface
    let id: SurfaceItems.ItemID
    /// The items API's handle (an interaction's item has none of its own).
    @exclusivity(unchecked) private(set) var handle: OpaquePointer?
    /// The handle the callbacks get: the item's, or its interaction's.
    @exclusivity(unchecked) private var callbackHandle: OpaquePointer?
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
    }

    /// Gives the item its items API handle, which its callbacks get.
    func register() {
        handle = Handles.shared.register(self)
        callbackHandle = handle
    }

    /// An interaction's item: its callbacks get the interaction's handle.
    func answersFor(interaction: OpaquePointer?) { callbackHandle = interaction }

    var isAttached: Bool { callbackHandle != nil }

    func forget() {
        if let handle { Handles.shared.forget(item: handle) }
        handle = nil
        callbackHandle = nil
    }

    /// The press must not be another item's (one routed to none is left to the core, which
    /// says whether it ended or never was).
    func owns(_ press: UInt32) throws(Status) {
        if let owner = surface.core.itemOf(press: press), owner != id { throw .unknownPress }
    }

    func make(_ entry: CoreCall) {
        guard let handle = callbackHandle else { return }
        var press = CPress.make(entry.press)
        switch entry.call {
        case .shouldBegin:
            guard let shouldBegin = callbacks.should_begin else {
                try? surface.answer(press.id, accept: true)
                return
            }
            let answer = shouldBegin(userData, handle, &press).rawValue
            guard isAttached else { return }
            switch answer {
            case PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT.rawValue: try? surface.answer(press.id, accept: true)
            case PREVIEW_INTERACTION_CLIENT_ANSWER_LATER.rawValue: break
            case PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE.rawValue: try? surface.answer(press.id, accept: false)
            default:
                surface.context.logger.log(.error, "should_begin returned \(answer), which is no answer: declined")
                try? surface.answer(press.id, accept: false)
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
        var cPress = CPress.make(press)
        phaseChanged(&cPress)
    }

    func phaseChanged(_ press: inout preview_interaction_client_press) {
        guard let handle = callbackHandle, let changed = callbacks.phase_changed else { return }
        changed(userData, handle, &press)
    }

    /// A cancel the library makes itself (the surface goes).
    func cancelled(_ press: inout preview_interaction_client_press) {
        guard let handle = callbackHandle else { return }
        callbacks.cancelled?(userData, handle, &press, press.cancel_reason)
    }
}

/// The C struct of a press.
enum CPress {
    static func make(_ press: PreviewPress) -> preview_interaction_client_press {
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
