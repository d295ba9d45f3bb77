import Synchronization
import SystemLayer

/// The one clock of the I/O layers (protocol server, compositor, the C API's host): monotonic
/// microseconds, CLOCK_MONOTONIC by default, the clock of libinput and of the `time`
/// argument of core input events. It belongs to the `Display` and everything that runs on
/// that display reads it there, so a test (or a host with its own clock) injects one.
/// The engine never reads a clock; the I/O layers pass this time in.
public struct MonotonicClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that reads `read` (microseconds, never going back).
    public init(_ read: @escaping @Sendable () -> Int64) { self.read = read }

    /// CLOCK_MONOTONIC.
    public static let system = MonotonicClock { MonotonicTime.microseconds() }

    /// Now, in microseconds.
    public func microseconds() -> Int64 { read() }

    /// Now, in milliseconds truncated to 32 bits: the `time` argument of wl_pointer/wl_touch events.
    public func eventTime() -> UInt32 {
        UInt32(truncatingIfNeeded: microseconds() / 1_000)
    }
}

/// A clock that moves only when told: tests step time instead of sleeping.
public final class ManualClock: Sendable {
    private let now: Atomic<Int64>

    public init(microseconds: Int64 = 1_000_000) { now = Atomic(microseconds) }

    public var clock: MonotonicClock { MonotonicClock { [self] in now.load(ordering: .acquiring) } }

    public func advance(microseconds: Int64) {
        now.wrappingAdd(max(0, microseconds), ordering: .acquiringAndReleasing)
    }
    public func advance(milliseconds: Int64) { advance(microseconds: milliseconds &* 1_000) }
}
