// Human names for evdev numbers, as libevdev prints them (`EV_ABS`, `ABS_MT_SLOT`, `BTN_LEFT`).
// For human output and error messages only; the decoder itself works on numbers.

public enum EvdevNames {
    /// `EV_KEY` for 1; `EV_0x1e` for a type without a name.
    public static func typeName(_ type: UInt16) -> String {
        evTable[type] ?? "EV_0x" + String(type, radix: 16)
    }

    /// `ABS_PRESSURE` for (3, 24); `ABS_0x2b` or `EV_0x1e/0x5` when there is no name.
    public static func codeName(type: UInt16, code: UInt16) -> String {
        let table: [UInt16: String]?
        let prefix: String
        switch type {
        case EventType.syn: (table, prefix) = (synTable, "SYN_")
        case EventType.key: (table, prefix) = (keyTable, "KEY_")
        case EventType.rel: (table, prefix) = (relTable, "REL_")
        case EventType.abs: (table, prefix) = (absTable, "ABS_")
        case EventType.msc: (table, prefix) = (mscTable, "MSC_")
        case EventType.sw: (table, prefix) = (swTable, "SW_")
        case EventType.led: (table, prefix) = (ledTable, "LED_")
        default: (table, prefix) = (nil, typeName(type) + "/")
        }
        return table?[code] ?? prefix + "0x" + String(code, radix: 16)
    }

    /// `INPUT_PROP_BUTTONPAD` for 2.
    public static func propertyName(_ property: UInt16) -> String {
        propTable[property] ?? "INPUT_PROP_0x" + String(property, radix: 16)
    }
}
