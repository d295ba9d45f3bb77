import PreviewEngine

/// Where a contact's host position meets a surface: the surface under it, and the host position
/// of that surface's origin (surface-local = host position − origin). A host whose positions are
/// already surface-local (the C library's) passes the origin zero.
public struct SurfaceHit: Hashable, Sendable {
    public var surface: SurfaceID
    public var origin: Point

    public init(surface: SurfaceID, origin: Point = Point(x: 0, y: 0)) {
        self.surface = surface
        self.origin = origin
    }
}

/// Which core input carries a contact to its client: what taking it away means to the host.
public enum CoreDelivery: Hashable, Sendable {
    /// wl_pointer: a mouse's or touchpad's button, or a pen emulating the pointer (leave, enter).
    case pointer
    /// wl_touch (cancel).
    case touch
    /// zwp_tablet_tool_v2 (proximity out, proximity in).
    case tabletTool

    /// What a contact of `source` is carried by unless the host says otherwise (a pen on a
    /// tablet-aware client is `tabletTool`).
    public init(source: InputSource) {
        switch source {
        case .touchscreen: self = .touch
        case .pen, .touchpad, .pointer, .keyboard: self = .pointer
        }
    }
}

/// One contact that is down, as the host core routed it.
public struct RoutedContact: Hashable, Sendable {
    public let key: ContactKey
    public let source: InputSource
    /// The surface whose interaction the contact may drive: nil when it began over no surface, or
    /// over one whose client does not take this source at that point (its region, its sources).
    public let surface: SurfaceID?
    /// The surface it began over, whether or not its client took it (nil: none).
    public let over: SurfaceID?
    /// The host position of the origin of the surface it began over (zero over none): later
    /// positions stay local to that surface wherever the contact moves.
    public let origin: Point
    /// Where it is, local to the surface it began over.
    public var location: Point
    /// 0...1; 0 without pressure.
    public var force: Double
    /// False: the device has no pressure and the engine simulates force (the long press).
    public let hasForce: Bool
    /// How core input carries it to the client.
    public var delivery: CoreDelivery

    /// Where it is, in the host's coordinates.
    public var position: Point { Point(x: origin.x + location.x, y: origin.y + location.y) }

    /// The engine's sample of it at `time` (force is simulated only by the engine).
    func sample(at time: Timestamp) -> ForceSample {
        ForceSample(time: time, force: force, location: location, source: source, simulated: false, contact: key)
    }
}

/// Why the host core refused a contact input: the host's own mistake, reported, never trapped on.
public enum ContactError: Error, Hashable, Sendable {
    /// A contact with this key is already down.
    case exists
    /// As many contacts are down as the engine tracks.
    case limit
    /// No contact with this key is down.
    case unknown
}

/// The one contact table every host shares (pure): each contact that is down, the surface it
/// belongs to, where it is on that surface, its force and how core input carries it.
/// `InteractionDriver` keeps it; hosts read it and never keep a copy.
public struct ContactTable: Sendable {
    public private(set) var contacts: [ContactKey: RoutedContact] = [:]
    /// At most this many contacts are down at once.
    public let capacity: Int

    public init(capacity: Int = InteractionEngine.maximumContacts) {
        self.capacity = capacity
        contacts.reserveCapacity(capacity)
    }

    public var count: Int { contacts.count }

    public subscript(_ key: ContactKey) -> RoutedContact? { contacts[key] }

    /// Routes a contact that goes down at `position` (host coordinates) over `hit`: it belongs to
    /// the surface when `accepts` says the surface's client takes it there (surface-local point).
    /// Positions are local to the surface under it even when its client refused the contact.
    public static func route(
        _ key: ContactKey, source: InputSource, at position: Point, over hit: SurfaceHit?, force: Double?,
        accepts: (SurfaceID, Point) -> Bool
    ) -> RoutedContact {
        let origin = hit?.origin ?? Point(x: 0, y: 0)
        let local = Point(x: position.x - origin.x, y: position.y - origin.y)
        var surface: SurfaceID?
        if let hit, accepts(hit.surface, local) { surface = hit.surface }
        return RoutedContact(
            key: key, source: source, surface: surface, over: hit?.surface, origin: origin, location: local,
            force: force ?? 0,
            hasForce: force != nil, delivery: CoreDelivery(source: source))
    }

    /// Adds a contact that went down.
    public mutating func begin(_ contact: RoutedContact) throws(ContactError) {
        guard contacts[contact.key] == nil else { throw .exists }
        guard contacts.count < capacity else { throw .limit }
        contacts[contact.key] = contact
    }

    /// The contact moved to `position` (host coordinates) and/or its force changed; nil keeps
    /// what it was. A device without pressure keeps force 0.
    @discardableResult
    public mutating func move(_ key: ContactKey, to position: Point?, force: Double?) throws(ContactError)
        -> RoutedContact
    {
        guard var contact = contacts[key] else { throw .unknown }
        if let position {
            contact.location = Point(x: position.x - contact.origin.x, y: position.y - contact.origin.y)
        }
        if let force, contact.hasForce { contact.force = force }
        contacts[key] = contact
        return contact
    }

    /// How core input carries the contact (a pen the host gave to a tablet-aware client).
    public mutating func deliver(_ key: ContactKey, as delivery: CoreDelivery) throws(ContactError) {
        guard contacts[key] != nil else { throw .unknown }
        contacts[key]?.delivery = delivery
    }

    /// The contact ended: returns it, nil when it was not down.
    public mutating func end(_ key: ContactKey) -> RoutedContact? { contacts.removeValue(forKey: key) }

    /// The contacts of a device, in no particular order.
    public func keys(of device: DeviceID) -> [ContactKey] {
        contacts.keys.filter { $0.device == device }
    }
}
