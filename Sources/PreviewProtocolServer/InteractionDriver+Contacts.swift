import InputEvents
import PreviewEngine

/// Contacts: the host reports each contact with its own position and the surface under it; the
/// driver routes it (the client's source filter and region), keeps it in the one table, gives
/// the engine surface-local samples with the behaviour the client declared where it began, and
/// says which core release to swallow.
extension InteractionDriver {
    /// Throws what `contactBegan` would for `key` before anything is done (a host that checks
    /// its own arguments after these keeps its errors in this order).
    public func admits(_ key: ContactKey) throws(ContactError) {
        guard contacts[key] == nil else { throw .exists }
        guard contacts.count < contacts.capacity else { throw .limit }
    }

    /// A contact went down at `position` (host coordinates) over `hit` (nil: no surface of the
    /// host's clients there). It belongs to the surface when its client takes `source` at that
    /// point; `force` nil: the device has no pressure (the long press). A haptic pad the host
    /// registered clicks first, as its button goes down.
    @discardableResult
    public func contactBegan(
        _ key: ContactKey, source: InputSource, at position: Point, over hit: SurfaceHit?, force: Double?,
        time: Timestamp
    ) throws(ContactError) -> RoutedContact {
        let contact = ContactTable.route(key, source: source, at: position, over: hit, force: force) {
            ownSurfaces[$0] != nil || server.allowsInteraction(on: $0, at: $1, source: source)
        }
        try contacts.begin(contact)
        padMoment(key.device, following: .contacts, at: time) { $0.clicked(at: $1) }
        // A contact's pressure behaviour is the client's for the point where it begins (the
        // host's, on a surface of its own).
        let behaviour =
            contact.surface.map { ownSurfaces[$0] ?? server.behaviour(on: $0, at: contact.location) } ?? .deepClick
        perform { engine, actions in
            engine.contactBegan(
                contact.sample(at: time), surface: contact.surface, hasForce: contact.hasForce, behaviour: behaviour,
                into: &actions)
        }
        lookupContactBegan(contact, over: hit, time: time)
        return contact
    }

    /// The contact moved to `position` (host coordinates) and/or its force changed (nil: as it
    /// was). Positions stay local to the surface it began over.
    @discardableResult
    public func contactMoved(_ key: ContactKey, to position: Point?, force: Double?, at time: Timestamp)
        throws(ContactError) -> RoutedContact
    {
        let contact = try contacts.move(key, to: position, force: force)
        perform { engine, actions in engine.forceChanged(contact.sample(at: time), into: &actions) }
        lookup?.contactMoved(contact.sample(at: time))
        return contact
    }

    /// How core input carries the contact from now on (a pen the host gave to a tablet-aware client).
    public func deliver(_ key: ContactKey, as delivery: CoreDelivery) throws(ContactError) {
        try contacts.deliver(key, as: delivery)
    }

    /// The contact ended (`lifted`, or cancelled with another reason). The interaction ends
    /// first, as the protocol orders (a give-back says `stillDown: false`), then the pad's
    /// release. Returns the contact as it was and whether its core release must not be delivered
    /// (the commit phase took it away).
    @discardableResult
    public func contactEnded(_ key: ContactKey, at time: Timestamp, reason: CancelReason) throws(ContactError)
        -> (contact: RoutedContact, swallow: Bool)
    {
        guard let contact = contacts[key] else { throw .unknown }
        endingContact = key
        perform { engine, actions in engine.contactEnded(key, at: time, reason: reason, into: &actions) }
        endingContact = nil
        _ = contacts.end(key)
        let swallow = gate.release(key)
        padMoment(key.device, at: time) { $0.contactEnded(at: $1) }
        lookup?.contactEnded(key, at: time, reason: reason)
        if contacts.count == 0 { replayStrokeEnded(over: contact.over) }
        return (contact, swallow)
    }

    /// True during the commit phase of the contact's interaction: no core event of it reaches
    /// the client.
    public func isTakenAway(_ key: ContactKey) -> Bool { gate.isTakenAway(key, in: engine) }
}
