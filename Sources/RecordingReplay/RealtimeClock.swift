import PreviewEngine
import SystemLayer

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
        MonotonicTime.sleep(microseconds: target - Self.now())
    }
}
