import CClientLibrary

// The C entry points (include/preview-interaction-client.h). Not implemented yet: every call
// reports an invalid context, and create reports that it could not make one.

private let invalidContext = PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_CONTEXT.rawValue
private let invalidInteraction = PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_INTERACTION.rawValue

@_cdecl("preview_interaction_client_create")
public func previewInteractionClientCreate(
    _ display: OpaquePointer?, _ callbacks: UnsafePointer<preview_interaction_client_callbacks>?,
    _ userData: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    guard let out else { return PREVIEW_INTERACTION_CLIENT_ERROR_INVALID_ARGUMENT.rawValue }
    out.pointee = nil
    return PREVIEW_INTERACTION_CLIENT_ERROR_WAYLAND.rawValue
}

@_cdecl("preview_interaction_client_destroy")
public func previewInteractionClientDestroy(_ context: OpaquePointer?) -> Int32 { invalidContext }

@_cdecl("preview_interaction_client_is_available")
public func previewInteractionClientIsAvailable(_ context: OpaquePointer?, _ available: UnsafeMutablePointer<Bool>?)
    -> Int32
{ invalidContext }

@_cdecl("preview_interaction_client_get_fd")
public func previewInteractionClientGetFd(_ context: OpaquePointer?, _ fd: UnsafeMutablePointer<Int32>?) -> Int32 {
    invalidContext
}

@_cdecl("preview_interaction_client_dispatch")
public func previewInteractionClientDispatch(_ context: OpaquePointer?) -> Int32 { invalidContext }

@_cdecl("preview_interaction_client_get_user_data")
public func previewInteractionClientGetUserData(
    _ context: OpaquePointer?, _ userData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 { invalidContext }

@_cdecl("preview_interaction_client_interaction_attach")
public func previewInteractionClientInteractionAttach(
    _ context: OpaquePointer?, _ surface: OpaquePointer?,
    _ callbacks: UnsafePointer<preview_interaction_client_interaction_callbacks>?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return invalidContext
}

@_cdecl("preview_interaction_client_interaction_detach")
public func previewInteractionClientInteractionDetach(_ interaction: OpaquePointer?) -> Int32 { invalidInteraction }

@_cdecl("preview_interaction_client_interaction_get_user_data")
public func previewInteractionClientInteractionGetUserData(
    _ interaction: OpaquePointer?, _ userData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 { invalidInteraction }

@_cdecl("preview_interaction_client_interaction_set_region")
public func previewInteractionClientInteractionSetRegion(
    _ interaction: OpaquePointer?, _ rects: UnsafePointer<preview_interaction_client_rect>?, _ count: UInt32
) -> Int32 { invalidInteraction }

@_cdecl("preview_interaction_client_interaction_set_sources")
public func previewInteractionClientInteractionSetSources(_ interaction: OpaquePointer?, _ sources: UInt32) -> Int32 {
    invalidInteraction
}

@_cdecl("preview_interaction_client_interaction_set_enabled")
public func previewInteractionClientInteractionSetEnabled(_ interaction: OpaquePointer?, _ enabled: Bool) -> Int32 {
    invalidInteraction
}

@_cdecl("preview_interaction_client_interaction_answer")
public func previewInteractionClientInteractionAnswer(_ interaction: OpaquePointer?, _ press: UInt32, _ accept: Bool)
    -> Int32
{ invalidInteraction }

@_cdecl("preview_interaction_client_interaction_cancel")
public func previewInteractionClientInteractionCancel(_ interaction: OpaquePointer?, _ press: UInt32) -> Int32 {
    invalidInteraction
}

@_cdecl("preview_interaction_client_interaction_cancel_all")
public func previewInteractionClientInteractionCancelAll(_ interaction: OpaquePointer?) -> Int32 { invalidInteraction }

@_cdecl("preview_interaction_client_interaction_running_count")
public func previewInteractionClientInteractionRunningCount(
    _ interaction: OpaquePointer?, _ count: UnsafeMutablePointer<UInt32>?
) -> Int32 { invalidInteraction }

@_cdecl("preview_interaction_client_interaction_commit_surface")
public func previewInteractionClientInteractionCommitSurface(_ interaction: OpaquePointer?) -> Int32 {
    invalidInteraction
}
