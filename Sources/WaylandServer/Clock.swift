import Glibc

/// The compositor's clock: CLOCK_MONOTONIC, the clock of libinput and of the time
/// argument of core input events. The engine never reads time; the I/O layers read it here.
public enum MonotonicClock {
    /// Now, in microseconds.
    public static func microseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }

    /// Now, in milliseconds truncated to 32 bits: the `time` argument of wl_pointer/wl_touch events.
    public static func eventTime() -> UInt32 {
        UInt32(truncatingIfNeeded: microseconds() / 1_000)
    }
}
