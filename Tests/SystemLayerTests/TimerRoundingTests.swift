import SystemLayer
import Testing

/// The one rule every millisecond timer is armed by: never early, never 0 (0 disarms).
@Suite struct TimerRoundingTests {
    @Test(arguments: [
        (Int64(1_500), Int32(2)), (1_000, 1), (1_001, 2), (1, 1), (0, 1), (-5_000, 1), (Int64.max, Int32.max),
    ])
    func microseconds(delay: Int64, milliseconds: Int32) {
        #expect(TimerRounding.milliseconds(afterMicroseconds: delay) == milliseconds)
    }

    @Test func nanosecondsFollowTheSameRule() {
        #expect(TimerRounding.milliseconds(afterNanoseconds: 16_666_667) == 17)
        #expect(TimerRounding.milliseconds(afterNanoseconds: 2_000_000) == 2)
        #expect(TimerRounding.milliseconds(afterNanoseconds: -1) == 1)
    }

    @Test func theClockNeverGoesBack() {
        let first = MonotonicTime.microseconds()
        let second = MonotonicTime.microseconds()
        #expect(first > 0 && second >= first)
    }
}
