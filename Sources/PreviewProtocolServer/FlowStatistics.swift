/// How flow control treated the progress values (preview and commit samples) the host
/// performed: sent at once, held until the client's ack_frame and then sent, or superseded
/// while held (a newer value, a phase change or the end replaced it). A client that keeps
/// reading and acknowledging while it draws gets almost every value at once; one that stops
/// reading while it draws gets holds as long as its draws. Fixed size: recording a value
/// allocates nothing.
public struct FlowStatistics: Sendable, Equatable {
    /// Width of one bucket of `holdHistogram`, µs.
    public static let bucketMicroseconds: Int64 = 50
    /// Buckets of 50 µs up to 100 ms; the last one also counts every longer hold.
    public static let bucketCount = 2000

    public private(set) var sentAtOnce = 0
    public private(set) var held = 0
    public private(set) var superseded = 0
    /// How long held values waited, in buckets of `bucketMicroseconds`.
    public private(set) var holdHistogram = [Int](repeating: 0, count: FlowStatistics.bucketCount)

    public init() {}

    /// Every progress value performed.
    public var values: Int { sentAtOnce + held + superseded }

    /// Share of values that were not sent at once (held, or superseded while held), 0...1.
    public var heldOrDropped: Double { values == 0 ? 0 : Double(held + superseded) / Double(values) }

    /// The hold (µs) under which `fraction` (0...1) of the held values were sent: the upper
    /// edge of the histogram bucket, so a bound, never an underestimate. Nil without holds.
    public func holdPercentile(_ fraction: Double) -> Int64? {
        guard held > 0 else { return nil }
        let rank = max(1, Int((Double(held) * min(max(fraction, 0), 1)).rounded(.up)))
        var seen = 0
        for (bucket, count) in holdHistogram.enumerated() {
            seen += count
            if seen >= rank { return Int64(bucket + 1) * Self.bucketMicroseconds }
        }
        return Int64(Self.bucketCount) * Self.bucketMicroseconds
    }

    mutating func recordSentAtOnce() { sentAtOnce += 1 }
    mutating func recordSuperseded() { superseded += 1 }

    mutating func recordHeld(microseconds: Int64) {
        held += 1
        let bucket = Int(min(max(microseconds, 0) / Self.bucketMicroseconds, Int64(Self.bucketCount - 1)))
        holdHistogram[bucket] += 1
    }

    /// The non-empty histogram buckets as `lowerEdgeMicroseconds:count` words, for tools that
    /// add up several runs (scripts/measure-holds).
    public var histogramText: String {
        holdHistogram.enumerated().filter { $0.element > 0 }
            .map { "\(Int64($0.offset) * Self.bucketMicroseconds):\($0.element)" }.joined(separator: " ")
    }

    /// One line for logs: `N progress values: X% held or dropped (H held, S superseded), hold p50 … p99 …`.
    public var summary: String {
        func ms(_ us: Int64?) -> String {
            guard let us else { return "-" }
            let tenths = (us + 50) / 100
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        let percent = (heldOrDropped * 1000).rounded() / 10
        return "\(values) progress values: \(percent)% held or dropped (\(held) held, \(superseded) superseded), "
            + "hold p50 \(ms(holdPercentile(0.5))) p99 \(ms(holdPercentile(0.99))) max \(ms(holdPercentile(1)))"
    }
}
