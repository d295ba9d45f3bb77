import PreviewEngine

extension InteractionEngine {
    /// Feeds a decoded contact event to the engine: the one mapping every host (replay,
    /// compositor) would otherwise repeat. The host supplies what only it knows: the
    /// surface-local `location` of the contact and, for `.contactBegan`, the `surface` under it.
    /// Returns nil for events that are not engine inputs (motion, buttons, keys, frames).
    /// `behaviour`: what the client declared where a contact begins (ignored for other events).
    public mutating func apply(
        _ event: DeviceEvent, location: Point, surface: SurfaceID?, behaviour: PressureBehaviour = .deepClick
    ) -> Actions? {
        var actions = Actions()
        return apply(event, location: location, surface: surface, behaviour: behaviour, into: &actions) ? actions : nil
    }

    /// The same into the host's reused buffer (the per-event path: nothing copied). Events that
    /// are not engine inputs leave it empty and return false.
    @discardableResult
    public mutating func apply(
        _ event: DeviceEvent, location: Point, surface: SurfaceID?, behaviour: PressureBehaviour = .deepClick,
        into actions: inout Actions
    ) -> Bool {
        switch event {
        case .contactBegan(let contact):
            contactBegan(
                contact.sample(at: location), surface: surface, hasForce: contact.hasForce, behaviour: behaviour,
                into: &actions)
        case .contactChanged(let contact):
            forceChanged(contact.sample(at: location), into: &actions)
        case .contactEnded(let key, let time, let reason):
            contactEnded(key, at: time, reason: reason, into: &actions)
        case .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key, .frame:
            actions.removeAll()
            return false
        }
        return true
    }
}
