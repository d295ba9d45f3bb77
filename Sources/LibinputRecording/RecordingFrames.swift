import EvdevDecoder
import InputEvents

/// All devices' frames in time order (ties in file order). Each device streams from its own
/// file position, so multi-device files need no buffering either.
public final class RecordingFrames: IteratorProtocol {
    /// One device's frames: streamed from the file, or from the general YAML reader's nodes.
    private enum Stream {
        case file(DeviceFrameReader)
        case nodes(NodeFrameReader)

        func next() throws(RecordingError) -> EvdevFrame? {
            switch self {
            case .file(let reader): try reader.next()
            case .nodes(let reader): try reader.next()
            }
        }

        var eventLines: Int {
            switch self {
            case .file(let reader): reader.eventLines
            case .nodes(let reader): reader.eventLines
            }
        }
    }

    private var readers: [Stream] = []
    private var peeked: [EvdevFrame?] = []
    private var exhausted: [Bool] = []
    /// The first error, for `IteratorProtocol` use; `nextFrame()` throws it instead.
    public private(set) var error: RecordingError?

    init(recording: Recording) {
        for device in recording.devices {
            switch device.events {
            case .file(let location):
                readers.append(
                    .file(
                        DeviceFrameReader(
                            source: recording.source, device: device.index, location: location,
                            isLastDevice: device.index == recording.devices.count - 1, options: recording.options)))
            case .nodes(let items, _):
                readers.append(
                    .nodes(
                        NodeFrameReader(
                            file: recording.path, device: device.index, items: items, options: recording.options)))
            case nil:
                continue
            }
        }
        peeked = Array(repeating: nil, count: readers.count)
        exhausted = Array(repeating: false, count: readers.count)
    }

    /// Event lines read so far over all devices.
    public var eventLines: Int { readers.reduce(0) { $0 + $1.eventLines } }

    public func nextFrame() throws(RecordingError) -> EvdevFrame? {
        if readers.count == 1 { return try readers[0].next() }
        var best = -1
        for index in readers.indices {
            if peeked[index] == nil && !exhausted[index] {
                peeked[index] = try readers[index].next()
                if peeked[index] == nil { exhausted[index] = true }
            }
            guard let frame = peeked[index] else { continue }
            if best < 0 || frame.time < peeked[best]!.time { best = index }
        }
        guard best >= 0 else { return nil }
        defer { peeked[best] = nil }
        return peeked[best]
    }

    /// Iteration that stops at the first error (kept in `error`).
    public func next() -> EvdevFrame? {
        guard error == nil else { return nil }
        do {
            return try nextFrame()
        } catch {
            self.error = error
            return nil
        }
    }
}
