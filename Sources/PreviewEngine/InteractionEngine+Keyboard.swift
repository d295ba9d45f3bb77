/// The keyboard as a source: a preview without force or a pointer. Holding the user's preview
/// key is a long press at the point of the client's focused item: held for the long-press
/// duration it asks should-begin, then the simulated force runs through preview and commit;
/// released before completion it cancels (`lifted`), or, before the duration, starts nothing
/// (the host then delivers the key as an ordinary tap). Escape: `escapePressed(seat:at:)`.
///
/// A key is one contact: `ContactKey(seat:, device: keyboard, contact: key code)`. The host
/// ignores the key's auto-repeat; the contact never moves, so the long-press slop never applies.
extension InteractionEngine {
    /// The preview key went down while `surface` had keyboard focus; `point` is the client's
    /// focused item (or the host's default), `behaviour` what the client declared there.
    public mutating func keyPressed(
        _ key: ContactKey, at point: Point, surface: SurfaceID?, behaviour: PressureBehaviour = .deepClick,
        time: Timestamp, into actions: inout Actions
    ) {
        let sample = ForceSample(
            time: time, force: 0, location: point, source: .keyboard, simulated: true, contact: key)
        contactBegan(sample, surface: surface, hasForce: false, behaviour: behaviour, into: &actions)
    }

    /// The preview key came up: completes an interaction that completes on release, cancels
    /// (`lifted`) one that has not completed, and is silent before should-begin was asked.
    public mutating func keyReleased(_ key: ContactKey, at time: Timestamp, into actions: inout Actions) {
        contactEnded(key, at: time, reason: .lifted, into: &actions)
    }

    public mutating func keyPressed(
        _ key: ContactKey, at point: Point, surface: SurfaceID?, behaviour: PressureBehaviour = .deepClick,
        time: Timestamp
    ) -> Actions {
        var actions = Actions()
        keyPressed(key, at: point, surface: surface, behaviour: behaviour, time: time, into: &actions)
        return actions
    }

    public mutating func keyReleased(_ key: ContactKey, at time: Timestamp) -> Actions {
        var actions = Actions()
        keyReleased(key, at: time, into: &actions)
        return actions
    }
}
