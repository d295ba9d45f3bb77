/// Smooths one contact's force with a two-tap moving average: half a sample of group delay,
/// and a step is fully reflected one sample later. Because evdev sends nothing while the
/// pressure is constant, "one sample later" may never come; the filter then asks for a
/// settle deadline one and a half estimated sample periods after the last sample, at which the
/// smoothed value snaps to the raw one (as if the device had repeated its last reading).
/// Half a period later than the next sample would come: a deadline due exactly then raced the
/// sample (hosts' timers round to milliseconds, devices jitter), and the settle's progress and
/// the sample's left microseconds apart, so flow control held the second for an ack_frame.
public struct ForceFilter: Hashable, Sendable {
    /// The last raw reading, clamped to 0...1.
    public private(set) var raw: Double
    /// What the state machine compares against thresholds.
    public private(set) var smoothed: Double
    public private(set) var lastSample: Timestamp
    /// When `smoothed` will settle to `raw` unless another sample comes first (nil: settled).
    public private(set) var settleDeadline: Timestamp?

    /// The first reading of a contact is taken as is: there is nothing to average it with.
    public init(force: Double, at time: Timestamp) {
        let value = ForceFilter.sanitised(force, fallback: 0)
        raw = value
        smoothed = value
        lastSample = time
        settleDeadline = nil
    }

    @inlinable
    static func sanitised(_ force: Double, fallback: Double) -> Double {
        force.isNaN ? fallback : min(1, max(0, force))
    }

    /// Takes a new reading; `time` must not be before `lastSample` (the caller clamps it).
    public mutating func add(_ force: Double, at time: Timestamp, settleRange: ClosedRange<Int64>) {
        let value = ForceFilter.sanitised(force, fallback: raw)
        let gap = (time - lastSample).microseconds
        smoothed = (raw + value) / 2
        raw = value
        lastSample = time
        let period = min(settleRange.upperBound, max(settleRange.lowerBound, gap))
        settleDeadline = smoothed == raw ? nil : time + Timestamp.Duration(microseconds: period + period / 2)
    }

    /// The settle deadline has come: the device held its last reading.
    public mutating func settle() {
        smoothed = raw
        settleDeadline = nil
    }
}
