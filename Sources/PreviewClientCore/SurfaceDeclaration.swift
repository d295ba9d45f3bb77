/// What an app declares on its surface's interaction object: where presses may begin, from
/// which devices, the focused item's point and the pressure behaviours. Every API (the Swift
/// library, the C library's interactions and surfaces with items) keeps one and sends it
/// through a `DeclarationSender`, so the protocol's rules are written once here.
public struct SurfaceDeclaration: Sendable, Hashable {
    /// Where presses may begin: nil the whole surface, empty nowhere.
    public var region: [PreviewRect]?
    public var sources: PreviewSources
    public var enabled: Bool
    /// The point of the item with the keyboard focus; keyboard presses need one.
    public var focusPoint: PreviewPoint?
    /// Empty: deep click everywhere.
    public var behaviours: [PreviewBehaviourArea]

    public init(
        region: [PreviewRect]? = nil, sources: PreviewSources = .all, enabled: Bool = true,
        focusPoint: PreviewPoint? = nil, behaviours: [PreviewBehaviourArea] = []
    ) {
        self.region = region
        self.sources = sources
        self.enabled = enabled
        self.focusPoint = focusPoint
        self.behaviours = behaviours
    }

    /// The protocol's limits on the behaviours: at most 32 areas, accelerators of 2...5 stages,
    /// and never `deepClick` or `generic` with stages (they have none).
    public var behavioursAreValid: Bool {
        behaviours.count <= PreviewBehaviourArea.maximumCount && behaviours.allSatisfy { $0.isValid }
    }

    /// The sources set_sources says on an object of `version`: none while disabled; the keyboard
    /// only with a focus point (a press must begin somewhere) and only from version 2.
    public func effectiveSources(version: UInt32) -> PreviewSources {
        guard enabled else { return [] }
        var bits = sources
        if focusPoint == nil || version < 2 { bits.formIntersection(.devices) }
        return bits
    }
}

/// One request of the declaration, for the host to put on the wire (regions are made of the
/// rectangles, each rounded out to whole surface units).
public enum DeclarationRequest: Sendable, Equatable {
    /// nil: the whole surface.
    case setRegion([PreviewRect]?)
    case setSources(UInt32)
    /// nil: unset_focus_point. Version 2.
    case setFocusPoint(PreviewPoint?)
    /// clear_behaviours, then one set_behaviour per area. Version 2.
    case setBehaviours([PreviewBehaviourArea])
}

/// What was sent on one protocol object, and what to send for a new declaration: only what
/// differs. Pure; one `mutating func` per input.
public struct DeclarationSender: Sendable {
    /// The object's version; nil while there is no object.
    public private(set) var version: UInt32?
    private var sent = SurfaceDeclaration()
    private var sentSources: UInt32 = PreviewSources.devices.rawValue

    public init() {}

    /// A protocol object was made (its initial state: whole surface, version 1's sources, no
    /// focus point, deep click everywhere): what differs from that is sent.
    public mutating func bound(version: UInt32, declaration: SurfaceDeclaration) -> [DeclarationRequest] {
        self.version = version
        sent = SurfaceDeclaration()
        sentSources = PreviewSources.devices.rawValue
        return declare(declaration)
    }

    /// The object is gone: nothing is sent until the next one.
    public mutating func unbound() {
        version = nil
    }

    /// The app's declaration now: the requests that bring the object to it. Invalid behaviours
    /// (see `SurfaceDeclaration.behavioursAreValid`) are not sent; the host says so.
    public mutating func declare(_ declaration: SurfaceDeclaration) -> [DeclarationRequest] {
        guard let version else { return [] }
        var requests: [DeclarationRequest] = []
        if declaration.region != sent.region { requests.append(.setRegion(declaration.region)) }
        if version >= 2 {
            if declaration.focusPoint != sent.focusPoint { requests.append(.setFocusPoint(declaration.focusPoint)) }
            if declaration.behaviours != sent.behaviours && declaration.behavioursAreValid {
                requests.append(.setBehaviours(declaration.behaviours))
            }
        }
        let sources = declaration.effectiveSources(version: version).rawValue
        if sources != sentSources { requests.append(.setSources(sources)) }
        sentSources = sources
        let keptBehaviours = declaration.behavioursAreValid || version < 2 ? declaration.behaviours : sent.behaviours
        sent = declaration
        sent.behaviours = keptBehaviours
        if version < 2 { (sent.focusPoint, sent.behaviours) = (nil, []) }
        return requests
    }
}

extension PreviewRect {
    /// The whole surface units that cover the rectangle: (x, y, width, height), clamped to
    /// Int32; nil when it covers nothing (empty, negative, not finite).
    public var wireRect: (x: Int32, y: Int32, width: Int32, height: Int32)? {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        let left = Self.clamp(x.rounded(.down)), top = Self.clamp(y.rounded(.down))
        let right = Self.clamp((x + width).rounded(.up)), bottom = Self.clamp((y + height).rounded(.up))
        guard right > left, bottom > top else { return nil }
        return (Int32(left), Int32(top), Int32(clamping: right - left), Int32(clamping: bottom - top))
    }

    private static func clamp(_ value: Double) -> Int64 {
        Int64(min(max(value, Double(Int32.min)), Double(Int32.max)))
    }
}
