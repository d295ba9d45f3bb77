import PreviewEngine

/// A touchpad's recent force, frame by frame, from the events of a descriptor of its own: the
/// force of the hardest finger at each `SYN_REPORT`, stamped with the frame's time. The kernel
/// state says only what the force is now; a host hands over a click after libinput read it, and
/// when libinput read the click and the frames after it in one go (a late dispatch: an 8 ms
/// click and its lift) the state is already past the click. The frame's time is the click's,
/// so the force at the click is read here whatever the dispatch's batching.
public struct ForceHistory: Sendable {
    public enum Axis: Sendable {
        /// ABS_MT_PRESSURE per slot (protocol B).
        case slots(count: Int)
        /// ABS_PRESSURE: a touch is a pressure above the normaliser's minimum.
        case single
    }

    public struct Sample: Hashable, Sendable {
        public var time: Int64
        public var force: Double
    }

    /// Frames kept: over a second of a 125 Hz pad.
    public static let capacity = 160

    let axis: Axis
    let normaliser: ForceNormaliser
    private var slot = 0
    private var tracking: [Int32]
    private var pressure: [Int32]
    private var changed = false
    /// The frames whose force changed, a ring of `capacity` allocated once: `start` is the
    /// oldest once it is full (reading a frame allocates nothing).
    private var ring: [Sample] = []
    private var start = 0
    /// The time of the last frame read, changed or not: the history knows nothing later.
    public private(set) var latest: Int64

    /// `tracking` and `pressure`: the kernel state at `time`, when the descriptor was opened,
    /// per slot (one value for `.single`): events carry only changes.
    public init(axis: Axis, normaliser: ForceNormaliser, tracking: [Int32], pressure: [Int32], at time: Int64) {
        self.axis = axis
        self.normaliser = normaliser
        let count =
            switch axis {
            case .slots(let count): max(1, count)
            case .single: 1
            }
        self.tracking = (tracking + Array(repeating: -1, count: count)).prefix(count).map { $0 }
        self.pressure = (pressure + Array(repeating: 0, count: count)).prefix(count).map { $0 }
        latest = time
        ring.reserveCapacity(Self.capacity)
        ring.append(Sample(time: time, force: hardestForce))
    }

    static let evSyn: UInt16 = 0x00
    static let synReport: UInt16 = 0
    static let synDropped: UInt16 = 3

    /// One event read from the descriptor. A `SYN_DROPPED` loses the frames since the last
    /// report: the history starts again from `state` (the kernel's, re-read by the caller).
    public mutating func ingest(type: UInt16, code: UInt16, value: Int32, time: Int64) {
        switch (type, code) {
        case (Self.evSyn, Self.synReport):
            latest = max(latest, time)
            guard changed else { return }
            changed = false
            record(Sample(time: time, force: hardestForce))
        case (Self.evSyn, Self.synDropped):
            break  // the caller restarts the history from the kernel's state
        case (UInt16(evAbs), UInt16(absMTSlot)):
            slot = Int(value)
        case (UInt16(evAbs), UInt16(absMTTrackingID)):
            guard let slot = currentSlot else { return }
            tracking[slot] = value
            changed = true
        case (UInt16(evAbs), UInt16(absMTPressure)):
            guard let slot = currentSlot else { return }
            pressure[slot] = value
            changed = true
        case (UInt16(evAbs), UInt16(absPressure)):
            if case .single = axis {
                pressure[0] = value
                tracking[0] = value > normaliser.minimum ? 0 : -1
                changed = true
            }
        default:
            break
        }
    }

    /// After a `SYN_DROPPED`: the frames in between are lost, the state is the kernel's at `time`.
    public mutating func restart(tracking: [Int32], pressure: [Int32], at time: Int64) {
        self = ForceHistory(axis: axis, normaliser: normaliser, tracking: tracking, pressure: pressure, at: time)
    }

    /// The slot the device's events are about (nil: not one we keep, or a single-touch pad).
    private var currentSlot: Int? {
        guard case .slots = axis, slot >= 0, slot < tracking.count else { return nil }
        return slot
    }

    private var hardestForce: Double {
        var force = 0.0
        for index in tracking.indices where tracking[index] >= 0 {
            force = max(force, normaliser.normalise(pressure[index]))
        }
        return force
    }

    /// The force of the last frame at or before `time` (µs of the descriptor's clock); nil when
    /// the history does not reach back that far, or has read no frame as late (the descriptor
    /// got no events, or not yet): then the kernel's state is as good, and the caller asks it.
    public func force(at time: Int64) -> Double? {
        guard let first = frame(0), first.time <= time, time <= latest else { return nil }
        var index = ring.count - 1
        while index > 0, let sample = frame(index), sample.time > time { index -= 1 }
        return frame(index)?.force
    }

    /// The frames whose force changed after `after` up to `through`, oldest first.
    public func forEachFrame(after: Int64, through: Int64, _ body: (Sample) -> Void) {
        for index in 0..<ring.count {
            guard let sample = frame(index), sample.time <= through else { return }
            if sample.time > after { body(sample) }
        }
    }

    /// The `index`th frame kept, oldest first.
    private func frame(_ index: Int) -> Sample? {
        guard index >= 0, index < ring.count else { return nil }
        let position = start + index
        return ring[position < ring.count ? position : position - ring.count]
    }

    private mutating func record(_ sample: Sample) {
        guard ring.count == Self.capacity else {
            ring.append(sample)
            return
        }
        ring[start] = sample
        start = start + 1 == ring.count ? 0 : start + 1
    }
}
