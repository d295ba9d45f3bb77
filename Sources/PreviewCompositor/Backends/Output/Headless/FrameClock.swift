/// The virtual output's vblank: ticks at fixed multiples of the refresh period from a
/// start time, so pacing does not drift when a repaint runs late. Pure: times passed in.
public struct FrameClock: Hashable, Sendable {
    /// Nanoseconds per frame (60 Hz: 16_666_666).
    public let period: Int64
    public let start: Int64

    /// `refreshMilliHertz` as wl_output.mode carries it (60 Hz = 60000).
    public init(refreshMilliHertz: Int32, start: Int64) {
        precondition(refreshMilliHertz > 0, "refresh must be positive")
        period = 1_000_000_000_000 / Int64(refreshMilliHertz)
        self.start = start
    }

    /// The first vblank strictly after `now` (nanoseconds on the same clock as `start`).
    public func nextTick(after now: Int64) -> Int64 {
        guard now >= start else { return start }
        return start + ((now - start) / period + 1) * period
    }
}
