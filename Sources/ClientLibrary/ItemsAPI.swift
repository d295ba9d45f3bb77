import CClientLibrary
import PreviewClientCore

// The C entry points of surfaces with items (since 1.3): the one way; the interaction's calls
// of 1.0 (API.swift) are wrappers over the same surface and item. Each one looks its handle up,
// checks the thread and its arguments, and returns a status.

/// Runs `body` on the surface of `handle`, on its context's thread.
private func call(surface handle: OpaquePointer?, _ name: StaticString, _ body: (ClientSurface) throws(Status) -> Void)
    -> Int32
{
    guard let surface = Handles.shared.surface(handle) else { return Status.invalidInteraction.rawValue }
    guard surface.context.onOwnerThread else { return refuse(surface.context, name, .wrongThread) }
    do {
        try body(surface)
        return Status.ok.rawValue
    } catch {
        return refuse(surface.context, name, error)
    }
}

/// Runs `body` on the item of `handle`, on its context's thread.
private func call(item handle: OpaquePointer?, _ name: StaticString, _ body: (ClientItem) throws(Status) -> Void)
    -> Int32
{
    guard let item = Handles.shared.item(handle) else { return Status.invalidInteraction.rawValue }
    let context = item.surface.context
    guard context.onOwnerThread else { return refuse(context, name, .wrongThread) }
    do {
        try body(item)
        return Status.ok.rawValue
    } catch {
        return refuse(context, name, error)
    }
}

@_cdecl("preview_interaction_client_surface_attach")
public func previewInteractionClientSurfaceAttach(
    _ handle: OpaquePointer?, _ surface: OpaquePointer?,
    _ callbacks: UnsafePointer<preview_interaction_client_surface_callbacks>?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    guard let context = Handles.shared.context(handle) else { return Status.invalidContext.rawValue }
    guard context.onOwnerThread else {
        return refuse(context, "preview_interaction_client_surface_attach", .wrongThread)
    }
    guard let out, let surface,
        let copied = copyCallbacks(callbacks, empty: preview_interaction_client_surface_callbacks())
    else { return refuse(context, "preview_interaction_client_surface_attach", .invalidArgument) }
    do {
        out.pointee = try context.attachSurface(surface, callbacks: copied, userData: userData).handle
        return Status.ok.rawValue
    } catch {
        return refuse(context, "preview_interaction_client_surface_attach", error)
    }
}

@_cdecl("preview_interaction_client_surface_detach")
public func previewInteractionClientSurfaceDetach(_ handle: OpaquePointer?) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_detach") { $0.detach(tellingItems: true) }
}

@_cdecl("preview_interaction_client_surface_get_user_data")
public func previewInteractionClientSurfaceGetUserData(
    _ handle: OpaquePointer?, _ userData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_get_user_data") { surface throws(Status) in
        guard let userData else { throw .invalidArgument }
        userData.pointee = surface.userData
    }
}

@_cdecl("preview_interaction_client_surface_layout_changed")
public func previewInteractionClientSurfaceLayoutChanged(
    _ handle: OpaquePointer?, _ changed: UnsafeMutablePointer<Bool>?
) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_layout_changed") { surface in
        let sent = surface.layoutChanged()
        changed?.pointee = sent
    }
}

@_cdecl("preview_interaction_client_surface_set_focus")
public func previewInteractionClientSurfaceSetFocus(
    _ handle: OpaquePointer?, _ item: OpaquePointer?, _ x: Double, _ y: Double
) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_set_focus") { surface throws(Status) in
        let focused = Handles.shared.item(item)
        guard item == nil || focused != nil else { throw .invalidArgument }
        try surface.setFocus(focused, x: item == nil ? 0 : x, y: item == nil ? 0 : y)
    }
}

@_cdecl("preview_interaction_client_surface_set_hold_acks")
public func previewInteractionClientSurfaceSetHoldAcks(_ handle: OpaquePointer?, _ hold: Bool) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_set_hold_acks") {
        $0.holdAcknowledgements(hold)
    }
}

@_cdecl("preview_interaction_client_surface_will_commit")
public func previewInteractionClientSurfaceWillCommit(
    _ handle: OpaquePointer?, _ serial: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_will_commit") { surface in
        let shown = surface.willCommit()
        serial?.pointee = shown
    }
}

@_cdecl("preview_interaction_client_surface_commit_surface")
public func previewInteractionClientSurfaceCommitSurface(_ handle: OpaquePointer?) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_commit_surface") { $0.commitSurface() }
}

@_cdecl("preview_interaction_client_surface_running_count")
public func previewInteractionClientSurfaceRunningCount(
    _ handle: OpaquePointer?, _ count: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    call(surface: handle, "preview_interaction_client_surface_running_count") { surface throws(Status) in
        guard let count else { throw .invalidArgument }
        count.pointee = surface.runningCount
    }
}

@_cdecl("preview_interaction_client_surface_pen_released")
public func previewInteractionClientSurfacePenReleased(_ handle: OpaquePointer?, _ swallow: UnsafeMutablePointer<Bool>?)
    -> Int32
{
    call(surface: handle, "preview_interaction_client_surface_pen_released") { surface throws(Status) in
        guard let swallow else { throw .invalidArgument }
        swallow.pointee = surface.penReleased()
    }
}

@_cdecl("preview_interaction_client_item_add")
public func previewInteractionClientItemAdd(
    _ handle: OpaquePointer?, _ callbacks: UnsafePointer<preview_interaction_client_item_callbacks>?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return call(surface: handle, "preview_interaction_client_item_add") { surface throws(Status) in
        guard let out, let copied = copyCallbacks(callbacks, empty: preview_interaction_client_item_callbacks()) else {
            throw .invalidArgument
        }
        let item = try surface.add(callbacks: copied, userData: userData)
        item.register()
        out.pointee = item.handle
    }
}

@_cdecl("preview_interaction_client_item_remove")
public func previewInteractionClientItemRemove(_ handle: OpaquePointer?) -> Int32 {
    call(item: handle, "preview_interaction_client_item_remove") { $0.surface.remove($0) }
}

@_cdecl("preview_interaction_client_item_get_user_data")
public func previewInteractionClientItemGetUserData(
    _ handle: OpaquePointer?, _ userData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 {
    call(item: handle, "preview_interaction_client_item_get_user_data") { item throws(Status) in
        guard let userData else { throw .invalidArgument }
        userData.pointee = item.userData
    }
}

@_cdecl("preview_interaction_client_item_set_rect")
public func previewInteractionClientItemSetRect(
    _ handle: OpaquePointer?, _ rect: UnsafePointer<preview_interaction_client_rect>?
) -> Int32 {
    call(item: handle, "preview_interaction_client_item_set_rect") { item in
        let value = rect.map {
            PreviewRect(
                x: Double($0.pointee.x), y: Double($0.pointee.y), width: Double($0.pointee.width),
                height: Double($0.pointee.height))
        }
        item.surface.update(item) { $0.rect = value }
    }
}

@_cdecl("preview_interaction_client_item_set_depth")
public func previewInteractionClientItemSetDepth(_ handle: OpaquePointer?, _ depth: UInt32) -> Int32 {
    call(item: handle, "preview_interaction_client_item_set_depth") { item in
        item.surface.update(item) { $0.depth = depth }
    }
}

@_cdecl("preview_interaction_client_item_set_sources")
public func previewInteractionClientItemSetSources(_ handle: OpaquePointer?, _ sources: UInt32) -> Int32 {
    call(item: handle, "preview_interaction_client_item_set_sources") { item throws(Status) in
        guard sources & ~PreviewSources.all.rawValue == 0 else { throw .invalidArgument }
        item.surface.update(item) { $0.sources = PreviewSources(rawValue: sources) }
    }
}

@_cdecl("preview_interaction_client_item_set_enabled")
public func previewInteractionClientItemSetEnabled(_ handle: OpaquePointer?, _ enabled: Bool) -> Int32 {
    call(item: handle, "preview_interaction_client_item_set_enabled") { item in
        item.surface.update(item) { $0.enabled = enabled }
    }
}

@_cdecl("preview_interaction_client_item_set_behaviour")
public func previewInteractionClientItemSetBehaviour(
    _ handle: OpaquePointer?, _ behaviour: preview_interaction_client_behaviour, _ stages: UInt32
) -> Int32 {
    call(item: handle, "preview_interaction_client_item_set_behaviour") { item throws(Status) in
        guard let kind = PreviewBehaviour(wire: behaviour.rawValue, stages: stages), PreviewBehaviourArea(kind).isValid,
            kind.wire.stages == stages
        else { throw .invalidArgument }
        item.surface.update(item) { $0.behaviour = kind }
    }
}

@_cdecl("preview_interaction_client_item_answer")
public func previewInteractionClientItemAnswer(_ handle: OpaquePointer?, _ press: UInt32, _ accept: Bool) -> Int32 {
    call(item: handle, "preview_interaction_client_item_answer") { item throws(Status) in
        try item.owns(press)
        try item.surface.answer(press, accept: accept)
    }
}

@_cdecl("preview_interaction_client_item_cancel")
public func previewInteractionClientItemCancel(_ handle: OpaquePointer?, _ press: UInt32) -> Int32 {
    call(item: handle, "preview_interaction_client_item_cancel") { item throws(Status) in
        try item.owns(press)
        try item.surface.cancel(press)
    }
}

@_cdecl("preview_interaction_client_item_cancel_all")
public func previewInteractionClientItemCancelAll(_ handle: OpaquePointer?) -> Int32 {
    call(item: handle, "preview_interaction_client_item_cancel_all") { item in
        for press in item.surface.presses(of: item) { try? item.surface.cancel(press) }
    }
}

@_cdecl("preview_interaction_client_item_play_haptic")
public func previewInteractionClientItemPlayHaptic(
    _ handle: OpaquePointer?, _ press: UInt32, _ effect: preview_interaction_client_haptic_effect
) -> Int32 {
    call(item: handle, "preview_interaction_client_item_play_haptic") { item throws(Status) in
        guard PreviewHapticEffect(rawValue: effect.rawValue) != nil else { throw .invalidArgument }
        try item.owns(press)
        try item.surface.playHaptic(press, effect: effect.rawValue)
    }
}

@_cdecl("preview_interaction_client_item_running_count")
public func previewInteractionClientItemRunningCount(
    _ handle: OpaquePointer?, _ count: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    call(item: handle, "preview_interaction_client_item_running_count") { item throws(Status) in
        guard let count else { throw .invalidArgument }
        count.pointee = item.surface.runningCount(of: item)
    }
}

@_cdecl("preview_interaction_client_item_get_press")
public func previewInteractionClientItemGetPress(
    _ handle: OpaquePointer?, _ press: UnsafeMutablePointer<preview_interaction_client_press>?
) -> Int32 {
    call(item: handle, "preview_interaction_client_item_get_press") { item throws(Status) in
        guard let press else { throw .invalidArgument }
        press.pointee =
            item.surface.latestPress(of: item).map(CPress.make) ?? preview_interaction_client_press()
    }
}
