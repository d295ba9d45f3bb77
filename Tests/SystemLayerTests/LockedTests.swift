import SystemLayer
import Testing

/// The lock the C libraries use in both builds (Mutex is missing from Embedded Swift).
@Suite struct LockedTests {
    struct Refusal: Error, Equatable {}

    @Test func aThrowingBodyLeavesItsChangesAndReleasesTheLock() {
        let counter = Locked(0)
        #expect(throws: Refusal.self) {
            try counter.withLock { (value: inout Int) throws(Refusal) in
                value = 5
                throw Refusal()
            }
        }
        // Not held any more: a second withLock would deadlock otherwise.
        #expect(counter.withLock { $0 } == 5)
    }

    @Test func threadsIncrementingTogetherLoseNoUpdate() {
        let counter = Locked(0)
        let threads = (0..<4).compactMap { _ in
            JoinableThread.start {
                for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
            }
        }
        #expect(threads.count == 4)
        for thread in threads { thread.join() }
        #expect(counter.withLock { $0 } == 40_000)
    }
}
