import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// CLOCK_MONOTONIC in microseconds: the one clock reading of the project's processes (the
/// clock of libinput and of the `time` argument of core input events). Microseconds are the one
/// unit; the engine's `Timestamp` and the display's `MonotonicClock` carry them.
public enum MonotonicTime {
    public static func microseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }

    /// Sleeps `delay` microseconds (the whole delay: a signal's interruption sleeps the rest).
    /// For a program's own pacing (a replay in real time, a slow app on purpose); tests wait on
    /// events instead.
    public static func sleep(microseconds delay: Int64) {
        guard delay > 0 else { return }
        var request = timespec(tv_sec: Int(delay / 1_000_000), tv_nsec: Int(delay % 1_000_000) * 1_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// The one rule for arming a millisecond timer (a wl_event_loop timer) for a deadline: rounded
/// up, so it never fires before the deadline, and at least 1, because 0 disarms the timer.
public enum TimerRounding {
    public static func milliseconds(afterMicroseconds delay: Int64) -> Int32 {
        Int32(clamping: max(1, delay / 1_000 + (delay % 1_000 > 0 ? 1 : 0)))
    }

    public static func milliseconds(afterNanoseconds delay: Int64) -> Int32 {
        Int32(clamping: max(1, delay / 1_000_000 + (delay % 1_000_000 > 0 ? 1 : 0)))
    }
}
