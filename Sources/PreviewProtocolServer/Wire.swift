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
    func wireValue(version2: Bool) -> UInt32 {
        UInt32(self == .dismissed && !version2 ? CancelReason.system.rawValue : rawValue)
    }
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

/// One area of a surface's list of behaviours (set_behaviour).
struct BehaviourArea {
    /// More areas in one pending list are the protocol error too_many_behaviours.
    static let maximumPerList = 32
    var behaviour: PressureBehaviour
    var region: PreviewRegion
}

extension PressureBehaviour {
    static let acceleratorWire = SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_ACCELERATOR.rawValue

    /// set_behaviour's arguments; nil when the value names no behaviour or the stages do not fit it.
    init?(wire value: UInt32, stages: UInt32) {
        switch value {
        case SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_DEEP_CLICK.rawValue where stages == 0: self = .deepClick
        case SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_GENERIC.rawValue where stages == 0: self = .generic
        case Self.acceleratorWire:
            guard let count = UInt8(exactly: stages), PressureBehaviour.stageRange.contains(count) else { return nil }
            self = .accelerator(stages: count)
        default: return nil
        }
    }

    static func namesBehaviour(_ value: UInt32) -> Bool {
        (SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_DEEP_CLICK.rawValue...acceleratorWire).contains(value)
    }

    /// The behaviour event's arguments.
    var wireValue: UInt32 {
        switch self {
        case .deepClick: SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_DEEP_CLICK.rawValue
        case .generic: SPI_PREVIEW_INTERACTION_V1_BEHAVIOUR_GENERIC.rawValue
        case .accelerator: Self.acceleratorWire
        }
    }

    var wireStages: UInt32 {
        if case .accelerator(let stages) = self { UInt32(stages) } else { 0 }
    }
}
