import InputEvents
import PreviewEngine

/// One decoder per device of a recording (or any host numbering its devices 0, 1, 2 …), looked
/// up by `EvdevFrame.device` in an array: the per-frame lookup neither hashes nor allocates (a
/// dictionary's in-place modify of a decoder allocated three times per frame).
public struct DeviceDecoders: Sendable {
    private var decoders: [EvdevDecoder?] = []

    public init() {}

    /// Decoders beyond this index are refused (a host's numbering, not a file's, sets it).
    public static let maximumIndex = 4095

    /// Adds (or replaces) the decoder of device `index`; false when the index is out of range.
    @discardableResult
    public mutating func set(_ decoder: EvdevDecoder, at index: Int) -> Bool {
        guard index >= 0, index <= Self.maximumIndex else { return false }
        if index >= decoders.count {
            decoders.append(contentsOf: repeatElement(nil, count: index + 1 - decoders.count))
        }
        decoders[index] = decoder
        return true
    }

    /// The decoder of device `index`, if any (read only).
    public subscript(index: Int) -> EvdevDecoder? {
        index >= 0 && index < decoders.count ? decoders[index] : nil
    }

    /// Decodes one frame with its device's decoder; a frame of an unknown device is dropped.
    public mutating func decode(_ frame: EvdevFrame, into output: inout [DeviceEvent]) {
        guard frame.device >= 0, frame.device < decoders.count else { return }
        decoders[frame.device]?.decode(frame, into: &output)
    }

    /// Ends every contact of every device, in device order (input over).
    public mutating func endAllContacts(at time: Timestamp, reason: CancelReason, into output: inout [DeviceEvent]) {
        for index in decoders.indices {
            decoders[index]?.endAllContacts(at: time, reason: reason, into: &output)
        }
    }
}
