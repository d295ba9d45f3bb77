import CWaylandServer
import PreviewEngine

// Conversions between engine values and the wire's enums (raw values of the XML).

extension InputSource {
    /// The `source` enum entry.
    var wireValue: UInt32 { UInt32(rawValue) }
    /// This source's bit in the `sources` bitfield.
    var wireBit: UInt32 { 1 << (UInt32(rawValue) - 1) }
}

extension CancelReason {
    /// The `cancel_reason` enum entry. Version 1 has no `dismissed` (Escape): it is `system` there.
    var wireValue: UInt32 { UInt32(self == .dismissed ? CancelReason.system.rawValue : rawValue) }
}

enum WireSources {
    /// Every bit the `sources` bitfield defines at version 1 (the keyboard's bit is version 2's).
    static let all: UInt32 = [InputSource.pen, .touchpad, .touchscreen, .pointer].reduce(0) { $0 | $1.wireBit }
}

enum WireForce {
    static func value(simulated: Bool) -> UInt32 {
        simulated
            ? SPI_PREVIEW_INTERACTION_V1_FORCE_SIMULATED.rawValue : SPI_PREVIEW_INTERACTION_V1_FORCE_MEASURED.rawValue
    }
}

extension Double {
    /// Progress and coordinates as wl_fixed_t (24.8).
    var fixed: wl_fixed_t { cwl_fixed_from_double(self) }
}
