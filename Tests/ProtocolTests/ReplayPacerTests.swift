import PreviewProtocolServer
import Testing

/// The one replay pacing every host asks (pure): when a recording's next event is due, from
/// what the host core knows of its clients.
@Suite struct ReplayPacerTests {
    static let idle = ReplayPacer.Facts(idle: true, awaitsAnswer: false, clientsCaughtUp: true)
    static let busy = ReplayPacer.Facts(idle: false, awaitsAnswer: false, clientsCaughtUp: true)

    /// Offers `event` until it goes (each wait passing on the host's clock, as a timer would).
    func deliver(
        _ pacer: inout ReplayPacer, _ event: ReplayPacer.Event, now: inout Int64, facts: ReplayPacer.Facts
    ) -> Int64 {
        for _ in 0..<10 {
            switch pacer.next(event, now: now, facts: facts) {
            case .deliver(let offset): return event.recorded + offset
            case .wait(let microseconds): now += microseconds
            }
        }
        Issue.record("\(event) never went")
        return -1
    }

    @Test func theRecordedTimingIsKeptAndTheFirstEventGoesAtOnce() {
        var pacer = ReplayPacer(options: ReplayPacer.Options())
        var now: Int64 = 1_000_000
        #expect(deliver(&pacer, .init(recorded: 50), now: &now, facts: Self.idle) == 1_000_000)
        #expect(deliver(&pacer, .init(recorded: 300_050), now: &now, facts: Self.idle) == 1_300_000)
        #expect(now == 1_300_000, "it waited the recorded 300 ms")
    }

    @Test func fastSkipsAnIdleGapOnceTheClientsCaughtUpAndNeverInsideAGesture() {
        var pacer = ReplayPacer(options: ReplayPacer.Options(fast: true))
        var now: Int64 = 0
        _ = deliver(&pacer, .init(recorded: 0), now: &now, facts: Self.idle)
        // Inside a gesture: the recorded 16 ms.
        #expect(deliver(&pacer, .init(recorded: 16_000), now: &now, facts: Self.busy) == 16_000)
        // Idle, a client behind: it is waited for (woken when it catches up), not skipped.
        let behind = ReplayPacer.Facts(idle: true, awaitsAnswer: false, clientsCaughtUp: false)
        let held = pacer.next(.init(recorded: 2_016_000), now: now, facts: behind)
        #expect(held != .deliver(offset: 0))
        let woken = pacer.clientsMayHaveCaughtUp(now: now + 40_000, facts: Self.idle)
        #expect(woken)
        // Caught up 40 ms later: the rest of the 2 s gap is skipped.
        now += 40_000
        #expect(deliver(&pacer, .init(recorded: 2_016_000), now: &now, facts: Self.idle) == 56_000)
    }

    @Test func anOpenQuestionStopsTheRecordingsClockUntilTheAnswer() {
        var pacer = ReplayPacer(options: ReplayPacer.Options(clientPatience: 5_000_000))
        var now: Int64 = 0
        _ = deliver(&pacer, .init(recorded: 0), now: &now, facts: Self.busy)
        pacer.questionAsked(at: 10_000)
        let asking = ReplayPacer.Facts(idle: false, awaitsAnswer: true, clientsCaughtUp: true)
        guard case .wait = pacer.next(.init(recorded: 20_000), now: 20_000, facts: asking) else {
            Issue.record("the recording went on while the question was open")
            return
        }
        // Answered at 310 ms: the 300 ms the question was open are added to the rest.
        let woken = pacer.clientsMayHaveCaughtUp(now: 310_000, facts: Self.busy)
        #expect(woken)
        now = 310_000
        #expect(deliver(&pacer, .init(recorded: 20_000), now: &now, facts: Self.busy) == 320_000)
    }

    @Test func awaitClientsHoldsTheNextStrokeUntilTheLastOnesEndIsShown() {
        var pacer = ReplayPacer(options: ReplayPacer.Options(awaitsClients: true))
        var now: Int64 = 0
        _ = deliver(&pacer, .init(recorded: 0, beginsStroke: true), now: &now, facts: Self.busy)
        let notShown = ReplayPacer.Facts(idle: true, awaitsAnswer: false, clientsCaughtUp: true, strokeEndShown: false)
        now = 500_000
        guard case .wait = pacer.next(.init(recorded: 500_000, beginsStroke: true), now: now, facts: notShown) else {
            Issue.record("the stroke went before the last one's end was shown")
            return
        }
        // Shown 200 ms later: the stroke goes then, and the recording moves on from there.
        let woken = pacer.clientsMayHaveCaughtUp(now: 700_000, facts: Self.idle)
        #expect(woken)
        now = 700_000
        #expect(deliver(&pacer, .init(recorded: 500_000, beginsStroke: true), now: &now, facts: Self.idle) == 700_000)
        #expect(deliver(&pacer, .init(recorded: 510_000), now: &now, facts: Self.busy) == 710_000)
    }

    @Test func aNewFileWaitsItsGapAndALongPauseIsShortened() {
        var pacer = ReplayPacer(options: ReplayPacer.Options(fast: true, longestGap: 1_000_000))
        var now: Int64 = 0
        _ = deliver(&pacer, .init(recorded: 0), now: &now, facts: Self.busy)
        // A 60 s pause inside a gesture is replayed as the longest gap.
        #expect(deliver(&pacer, .init(recorded: 60_000_000), now: &now, facts: Self.busy) == 1_000_000)
        #expect(pacer.note == nil)
        // A new file: not before the gap after the last event, idle and caught up or not.
        let first = deliver(&pacer, .init(recorded: 0, startsFile: true), now: &now, facts: Self.idle)
        #expect(first == 1_000_000 + ReplayPacer.gapBetweenFiles)
    }
}
