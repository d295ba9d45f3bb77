import PreviewEngine
import SystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--realtime`: replay time 0 is the moment of the first wait; later times are slept to.
public struct RealtimeClock: ReplayClock {
    private var origin: (wall: Int64, replay: Int64)?

    public init() {}

    private static func now() -> Int64 { MonotonicTime.microseconds() }

    public mutating func wait(until time: Timestamp) {
        guard let origin else {
            origin = (Self.now(), time.microseconds)
            return
        }
        let target = origin.wall + (time.microseconds - origin.replay)
        let delay = target - Self.now()
        guard delay > 0 else { return }
        var request = timespec(tv_sec: Int(delay / 1_000_000), tv_nsec: Int(delay % 1_000_000) * 1_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
