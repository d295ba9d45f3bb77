import PreviewEngine

/// What the protocol server needs from its host: `InteractionDriver` (which owns the engine and
/// asks its own handler for surfaces and regions), or a test's minimal host. The host owns
/// wl_surface and wl_region, and the engine; the server owns neither.
public protocol PreviewProtocolHost: AnyObject {
    /// The engine's id for a wl_surface resource the host created; nil if it is not one of its surfaces.
    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID?

    /// The current contents of a wl_region resource the host created, or nil if unknown.
    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion?

    /// A client did something the engine must hear about. Call the matching engine
    /// method and hand its actions back to `PreviewInteractionServer.perform(_:)`.
    /// Delivered from the event loop (request handlers, destroy listeners, idle
    /// callbacks), never from inside `perform`.
    func previewServer(_ server: PreviewInteractionServer, received input: PreviewClientInput)

    /// The pressure behaviour a running interaction began with (the behaviour event of version 2).
    func behaviour(of interaction: InteractionID) -> PressureBehaviour

    /// Whether effects can be felt for an interaction (the haptics event of version 2).
    func hapticsAvailable(for interaction: InteractionID) -> Bool

    /// A client asked for an effect on its interaction (play_haptic): play it on the device that
    /// drives it, or drop it silently.
    func playHaptic(_ effect: AppHapticEffect, for interaction: InteractionID)

    /// A client acknowledged a frame (`ack_frame`).
    func frameAcknowledged(surface: SurfaceID, serial: UInt32)
}

extension PreviewProtocolHost {
    public func behaviour(of interaction: InteractionID) -> PressureBehaviour { .deepClick }
    public func hapticsAvailable(for interaction: InteractionID) -> Bool { false }
    public func playHaptic(_ effect: AppHapticEffect, for interaction: InteractionID) {}
    public func frameAcknowledged(surface: SurfaceID, serial: UInt32) {}
}

/// The effects a client may ask for (play_haptic's haptic_effect).
public enum AppHapticEffect: UInt32, Hashable, Sendable, CaseIterable {
    /// A selection moved (a quick action highlighted).
    case tick = 1
    /// Something settled into place.
    case snap = 2
    /// An action was chosen.
    case confirm = 3
}

/// Engine inputs that originate from clients of the protocol.
public enum PreviewClientInput: Hashable, Sendable, CustomStringConvertible {
    /// accept/decline → `engine.clientAnswered(id, accept:, at:)`. Also sent (accept: false)
    /// when the protocol layer declines on the client's behalf: no interaction object on
    /// the surface, outside its region or sources, object inert, or the client has
    /// unacknowledged frames (flow control).
    case answered(InteractionID, accept: Bool, at: Timestamp)
    /// The cancel request, or the interaction object destroyed (also by a disconnecting
    /// client) while the interaction ran → `engine.clientCancelled(id, at:)`.
    case cancelled(InteractionID, at: Timestamp)
    /// A surface with an interaction object was destroyed → `engine.surfaceDestroyed(id, at:)`.
    /// Harmless if the host also reports it itself.
    case surfaceDestroyed(SurfaceID, at: Timestamp)

    public var description: String {
        switch self {
        case .answered(let id, let accept, let time): "answered(\(id), accept: \(accept), at: \(time))"
        case .cancelled(let id, let time): "cancelled(\(id), at: \(time))"
        case .surfaceDestroyed(let surface, let time): "surfaceDestroyed(\(surface), at: \(time))"
        }
    }
}
