import CClientLibrary
import PreviewClientWire
import SystemLayer

// The C entry points (include/preview-interaction-client.h). Each one looks its handle up,
// checks the thread and its arguments, and returns a status: nothing an app passes can trap.
// The interaction's calls are wrappers over a surface and its one item (ClientInteraction),
// the same code as the items API's (ItemsAPI.swift).

/// Runs `body` on the context of `handle`, on its thread.
private func call(_ handle: OpaquePointer?, _ name: StaticString, _ body: (ClientContext) throws(Status) -> Void)
    -> Int32
{
    guard let context = Handles.shared.context(handle) else { return Status.invalidContext.rawValue }
    guard context.onOwnerThread else { return refuse(context, name, .wrongThread) }
    do {
        try body(context)
        return Status.ok.rawValue
    } catch {
        return refuse(context, name, error)
    }
}

/// Runs `body` on the interaction of `handle`, on its context's thread.
private func call(
    interaction handle: OpaquePointer?, _ name: StaticString, _ body: (ClientInteraction) throws(Status) -> Void
) -> Int32 {
    guard let interaction = Handles.shared.interaction(handle) else { return Status.invalidInteraction.rawValue }
    guard interaction.context.onOwnerThread else { return refuse(interaction.context, name, .wrongThread) }
    do {
        try body(interaction)
        return Status.ok.rawValue
    } catch {
        return refuse(interaction.context, name, error)
    }
}

/// Logs a refused call (a late answer after a timeout, a version 2 call on version 1, a
/// haptic effect racing a press's end: expected, debug only).
func refuse(_ context: ClientContext, _ name: StaticString, _ status: Status) -> Int32 {
    let expected = status == .pressEnded || status == .unsupported || status == .notRunning
    context.logger.log(expected ? .debug : .error, "\(name): \(status.text)")
    return status.rawValue
}

/// A copy of a callbacks struct the app sized with its first member: as far as the app's
/// struct goes, the rest NULL.
func copyCallbacks<T>(_ pointer: UnsafePointer<T>?, empty: T) -> T? {
    var value = empty
    guard let pointer else { return value }
    let size = UnsafeRawPointer(pointer).load(as: Int.self)
    guard size >= MemoryLayout<Int>.size else { return nil }
    withUnsafeMutableBytes(of: &value) { destination in
        destination.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: min(size, MemoryLayout<T>.size)))
    }
    return value
}

/// A context on `display` whose objects live where `placement` says (the two create calls).
private func create(
    _ display: OpaquePointer?, _ placement: LibraryQueue.Placement,
    _ callbacks: UnsafePointer<preview_interaction_client_callbacks>?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    guard let out else { return Status.invalidArgument.rawValue }
    out.pointee = nil
    guard let display, let copied = copyCallbacks(callbacks, empty: preview_interaction_client_callbacks()) else {
        return Status.invalidArgument.rawValue
    }
    do {
        let context = try ClientContext(display: display, placement: placement, callbacks: copied, userData: userData)
        out.pointee = context.handle
        return Status.ok.rawValue
    } catch {
        return error.rawValue
    }
}

@_cdecl("preview_interaction_client_create")
public func previewInteractionClientCreate(
    _ display: OpaquePointer?, _ callbacks: UnsafePointer<preview_interaction_client_callbacks>?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    create(display, .pumped, callbacks, userData, out)
}

@_cdecl("preview_interaction_client_create_on_queue")
public func previewInteractionClientCreateOnQueue(
    _ display: OpaquePointer?, _ queue: OpaquePointer?,
    _ callbacks: UnsafePointer<preview_interaction_client_callbacks>?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    create(display, .app(queue), callbacks, userData, out)
}

@_cdecl("preview_interaction_client_destroy")
public func previewInteractionClientDestroy(_ handle: OpaquePointer?) -> Int32 {
    call(handle, "preview_interaction_client_destroy") { context throws(Status) in
        guard !context.delivering else { throw .busy }
        context.destroy()
    }
}

@_cdecl("preview_interaction_client_is_available")
public func previewInteractionClientIsAvailable(_ handle: OpaquePointer?, _ available: UnsafeMutablePointer<Bool>?)
    -> Int32
{
    call(handle, "preview_interaction_client_is_available") { context throws(Status) in
        guard let available else { throw .invalidArgument }
        available.pointee = context.isAvailable && !context.disconnected
    }
}

@_cdecl("preview_interaction_client_get_fd")
public func previewInteractionClientGetFd(_ handle: OpaquePointer?, _ fd: UnsafeMutablePointer<Int32>?) -> Int32 {
    call(handle, "preview_interaction_client_get_fd") { context throws(Status) in
        guard let fd else { throw .invalidArgument }
        fd.pointee = context.wake.fileDescriptor
    }
}

@_cdecl("preview_interaction_client_dispatch")
public func previewInteractionClientDispatch(_ handle: OpaquePointer?) -> Int32 {
    guard let context = Handles.shared.context(handle) else { return Status.invalidContext.rawValue }
    guard context.onOwnerThread else { return refuse(context, "preview_interaction_client_dispatch", .wrongThread) }
    let status = context.dispatch()
    return status == .busy ? refuse(context, "preview_interaction_client_dispatch", .busy) : status.rawValue
}

@_cdecl("preview_interaction_client_get_user_data")
public func previewInteractionClientGetUserData(
    _ handle: OpaquePointer?, _ userData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 {
    call(handle, "preview_interaction_client_get_user_data") { context throws(Status) in
        guard let userData else { throw .invalidArgument }
        userData.pointee = context.userData
    }
}

@_cdecl("preview_interaction_client_interaction_attach")
public func previewInteractionClientInteractionAttach(
    _ handle: OpaquePointer?, _ surface: OpaquePointer?,
    _ callbacks: UnsafePointer<preview_interaction_client_interaction_callbacks>?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return call(handle, "preview_interaction_client_interaction_attach") { context throws(Status) in
        guard let out, let surface,
            let copied = copyCallbacks(callbacks, empty: preview_interaction_client_interaction_callbacks())
        else { throw .invalidArgument }
        out.pointee = try context.attach(surface: surface, callbacks: copied, userData: userData).handle
    }
}

@_cdecl("preview_interaction_client_interaction_detach")
public func previewInteractionClientInteractionDetach(_ handle: OpaquePointer?) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_detach") { $0.detach() }
}

@_cdecl("preview_interaction_client_interaction_get_user_data")
public func previewInteractionClientInteractionGetUserData(
    _ handle: OpaquePointer?, _ userData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_get_user_data") { interaction throws(Status) in
        guard let userData else { throw .invalidArgument }
        userData.pointee = interaction.userData
    }
}

@_cdecl("preview_interaction_client_interaction_set_region")
public func previewInteractionClientInteractionSetRegion(
    _ handle: OpaquePointer?, _ rects: UnsafePointer<preview_interaction_client_rect>?, _ count: UInt32
) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_set_region") { interaction throws(Status) in
        try interaction.setRegion(rects, count: count)
    }
}

@_cdecl("preview_interaction_client_interaction_set_sources")
public func previewInteractionClientInteractionSetSources(_ handle: OpaquePointer?, _ sources: UInt32) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_set_sources") { interaction throws(Status) in
        try interaction.setSources(sources)
    }
}

@_cdecl("preview_interaction_client_interaction_set_enabled")
public func previewInteractionClientInteractionSetEnabled(_ handle: OpaquePointer?, _ enabled: Bool) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_set_enabled") { interaction in
        interaction.setEnabled(enabled)
    }
}

@_cdecl("preview_interaction_client_interaction_answer")
public func previewInteractionClientInteractionAnswer(_ handle: OpaquePointer?, _ press: UInt32, _ accept: Bool)
    -> Int32
{
    call(interaction: handle, "preview_interaction_client_interaction_answer") { interaction throws(Status) in
        try interaction.surface.answer(press, accept: accept)
    }
}

@_cdecl("preview_interaction_client_interaction_cancel")
public func previewInteractionClientInteractionCancel(_ handle: OpaquePointer?, _ press: UInt32) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_cancel") { interaction throws(Status) in
        try interaction.surface.cancel(press)
    }
}

@_cdecl("preview_interaction_client_interaction_cancel_all")
public func previewInteractionClientInteractionCancelAll(_ handle: OpaquePointer?) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_cancel_all") { $0.surface.cancelAll() }
}

@_cdecl("preview_interaction_client_interaction_running_count")
public func previewInteractionClientInteractionRunningCount(
    _ handle: OpaquePointer?, _ count: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_running_count") { interaction throws(Status) in
        guard let count else { throw .invalidArgument }
        count.pointee = interaction.surface.runningCount
    }
}

@_cdecl("preview_interaction_client_interaction_commit_surface")
public func previewInteractionClientInteractionCommitSurface(_ handle: OpaquePointer?) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_commit_surface") { $0.surface.commitSurface() }
}

@_cdecl("preview_interaction_client_interaction_set_hold_acks")
public func previewInteractionClientInteractionSetHoldAcks(_ handle: OpaquePointer?, _ hold: Bool) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_set_hold_acks") {
        $0.surface.holdAcknowledgements(hold)
    }
}

@_cdecl("preview_interaction_client_interaction_will_commit")
public func previewInteractionClientInteractionWillCommit(
    _ handle: OpaquePointer?, _ serial: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_will_commit") { interaction in
        let shown = interaction.surface.willCommit()
        serial?.pointee = shown
    }
}

// MARK: protocol version 2 (since 1.2)

@_cdecl("preview_interaction_client_get_protocol_version")
public func previewInteractionClientGetProtocolVersion(
    _ handle: OpaquePointer?, _ version: UnsafeMutablePointer<UInt32>?
) -> Int32 {
    call(handle, "preview_interaction_client_get_protocol_version") { context throws(Status) in
        guard let version else { throw .invalidArgument }
        version.pointee = context.disconnected ? 0 : ProtocolVersion.reported(context.protocolVersion)
    }
}

@_cdecl("preview_interaction_client_get_settings")
public func previewInteractionClientGetSettings(
    _ handle: OpaquePointer?, _ settings: UnsafeMutablePointer<preview_interaction_client_settings>?
) -> Int32 {
    call(handle, "preview_interaction_client_get_settings") { context throws(Status) in
        guard let settings else { throw .invalidArgument }
        // As far as the app's struct goes (an older app's is shorter); its size stays.
        let size = UnsafeRawPointer(settings).load(as: Int.self)
        guard size >= MemoryLayout<Int>.size else { throw .invalidArgument }
        guard let current = context.currentSettings else { throw .unsupported }
        var full = ClientContext.cSettings(current)
        full.size = size
        withUnsafeBytes(of: &full) { source in
            guard let bytes = source.baseAddress else { return }  // a struct's bytes: never nil
            UnsafeMutableRawPointer(settings).copyMemory(from: bytes, byteCount: min(size, source.count))
        }
    }
}

@_cdecl("preview_interaction_client_interaction_set_focus_point")
public func previewInteractionClientInteractionSetFocusPoint(_ handle: OpaquePointer?, _ x: Double, _ y: Double)
    -> Int32
{
    call(interaction: handle, "preview_interaction_client_interaction_set_focus_point") { interaction throws(Status) in
        try interaction.setFocusPoint(x: x, y: y)
    }
}

@_cdecl("preview_interaction_client_interaction_unset_focus_point")
public func previewInteractionClientInteractionUnsetFocusPoint(_ handle: OpaquePointer?) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_unset_focus_point") {
        interaction throws(Status) in try interaction.unsetFocusPoint()
    }
}

@_cdecl("preview_interaction_client_interaction_set_behaviours")
public func previewInteractionClientInteractionSetBehaviours(
    _ handle: OpaquePointer?, _ areas: UnsafePointer<preview_interaction_client_behaviour_area>?, _ count: UInt32
) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_set_behaviours") { interaction throws(Status) in
        try interaction.setBehaviours(areas, count: count)
    }
}

@_cdecl("preview_interaction_client_interaction_play_haptic")
public func previewInteractionClientInteractionPlayHaptic(
    _ handle: OpaquePointer?, _ press: UInt32, _ effect: preview_interaction_client_haptic_effect
) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_play_haptic") { interaction throws(Status) in
        try interaction.surface.playHaptic(press, effect: effect.rawValue)
    }
}

@_cdecl("preview_interaction_client_interaction_haptics_available")
public func previewInteractionClientInteractionHapticsAvailable(
    _ handle: OpaquePointer?, _ press: UInt32, _ available: UnsafeMutablePointer<Bool>?
) -> Int32 {
    call(interaction: handle, "preview_interaction_client_interaction_haptics_available") {
        interaction throws(Status) in
        guard let available else { throw .invalidArgument }
        available.pointee = try interaction.surface.hapticsAvailable(press)
    }
}
