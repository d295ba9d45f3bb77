import PreviewEngine

extension InteractionEngine {
    /// Feeds a decoded contact event to the engine: the one mapping every host (replay,
    /// compositor) would otherwise repeat. The host supplies what only it knows: the
    /// surface-local `location` of the contact and, for `.contactBegan`, the `surface` under it.
    /// Returns nil for events that are not engine inputs (motion, buttons, keys, frames).
    public mutating func apply(_ event: DeviceEvent, location: Point, surface: SurfaceID?) -> Actions? {
        switch event {
        case .contactBegan(let contact):
            contactBegan(contact.sample(at: location), surface: surface, hasForce: contact.hasForce)
        case .contactChanged(let contact):
            forceChanged(contact.sample(at: location))
        case .contactEnded(let key, let time, let reason):
            contactEnded(key, at: time, reason: reason)
        case .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key, .frame:
            nil
        }
    }
}
