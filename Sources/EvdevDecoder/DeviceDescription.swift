import PreviewEngine

/// Bus, vendor, product and version, as in `struct input_id`.
public struct DeviceIdentity: Hashable, Sendable, CustomStringConvertible {
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
    }

    public var description: String {
        func hex(_ value: UInt16) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        return "\(hex(vendor)):\(hex(product))"
    }
}

/// What kind of device this is, decided from its evdev capabilities (and udev where the
/// capabilities can't tell). It selects the decoding rules and the engine's input source.
public enum DeviceKind: String, Hashable, Sendable, CaseIterable {
    /// A pen tablet or pen display: BTN_TOOL_PEN or BTN_STYLUS.
    case pen
    /// An indirect touch device that moves a cursor.
    case touchpad
    /// A direct touch device (INPUT_PROP_DIRECT, or udev says touchscreen).
    case touchscreen
    /// A mouse or trackball (relative motion).
    case pointer
    /// A keyboard: only passes keys through.
    case keyboard
    /// Anything else (switches, joysticks...): ignored.
    case other

    /// The engine's input source for contacts of this kind; nil for kinds that make none.
    public var source: InputSource? {
        switch self {
        case .pen: .pen
        case .touchpad: .touchpad
        case .touchscreen: .touchscreen
        case .pointer: .pointer
        case .keyboard, .other: nil
        }
    }
}

/// Everything the decoder needs to know about a device: the evdev description
/// (`libinput record`'s `evdev:` block) and the udev properties.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var identity: DeviceIdentity?
    /// Supported codes per event type.
    public var codes: [UInt16: Set<UInt16>]
    public var absinfo: [UInt16: AbsInfo]
    public var properties: Set<UInt16>
    /// `ID_INPUT_TOUCHPAD=1` and friends; used only where the capabilities are ambiguous.
    public var udevProperties: [String: String]

    public init(
        name: String, identity: DeviceIdentity? = nil, codes: [UInt16: Set<UInt16>] = [:],
        absinfo: [UInt16: AbsInfo] = [:], properties: Set<UInt16> = [], udevProperties: [String: String] = [:]
    ) {
        self.name = name
        self.identity = identity
        self.codes = codes
        self.absinfo = absinfo
        self.properties = properties
        self.udevProperties = udevProperties
    }

    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func has(type: UInt16) -> Bool { !(codes[type]?.isEmpty ?? true) }
    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }

    /// The absinfo of an axis the device advertises (absinfo for an unadvertised code is ignored).
    public func axis(_ code: UInt16) -> AbsInfo? {
        guard has(type: EventType.abs, code: code) || codes[EventType.abs] == nil else { return nil }
        return absinfo[code]
    }

    private func udevFlag(_ key: String) -> Bool { udevProperties[key] == "1" }

    /// Capabilities first: udev properties in converted or hand-written recordings are guesses
    /// (the UC-Logic pen claims to be a touchscreen), but only pens have stylus buttons.
    public var kind: DeviceKind {
        let key = EventType.key
        // Tablet pads (express keys, rings) announce pen-like bits but have no tip.
        if udevFlag("ID_INPUT_TABLET_PAD") { return .other }
        let hasXY = axis(AbsCode.x) != nil || axis(AbsCode.mtPositionX) != nil
        if hasXY && (has(type: key, code: KeyCode.btnToolPen) || has(type: key, code: KeyCode.btnStylus)) {
            return .pen
        }
        if hasXY && (has(type: key, code: KeyCode.btnTouch) || axis(AbsCode.mtPositionX) != nil) {
            if hasProperty(InputProperty.direct) || udevFlag("ID_INPUT_TOUCHSCREEN") { return .touchscreen }
            if hasProperty(InputProperty.pointer) || hasProperty(InputProperty.buttonpad)
                || has(type: key, code: KeyCode.btnToolFinger) || udevFlag("ID_INPUT_TOUCHPAD")
            {
                return .touchpad
            }
            return .touchscreen
        }
        if hasXY && udevFlag("ID_INPUT_TABLET") { return .pen }
        if has(type: EventType.rel, code: RelCode.x) && has(type: EventType.rel, code: RelCode.y) { return .pointer }
        if let keys = codes[key], keys.contains(where: { !KeyCode.isButton($0) }) { return .keyboard }
        return .other
    }
}
