import LibinputBackend
import PreviewEngine
import Testing

/// A touchpad's force at a click's frame, read from the events, whatever the kernel's state says
/// now: a host that got the click late (libinput read it with the lift 8 ms later) still hands
/// over a click with the force it had.
struct ForceHistoryTests {
    static let evAbs: UInt16 = 3
    static let absPressure: UInt16 = 0x18
    static let absMTSlot: UInt16 = 0x2f
    static let absMTTrackingID: UInt16 = 0x39
    static let absMTPressure: UInt16 = 0x3a

    static func report(_ history: inout ForceHistory, at time: Int64) {
        history.ingest(type: 0, code: 0, value: 0, time: time)
    }

    @Test("A single-touch pad: the force of the last frame up to a time, the lift's after it")
    func singleTouch() throws {
        let normaliser = try #require(ForceNormaliser(minimum: 0, maximum: 1000))
        var history = ForceHistory(axis: .single, normaliser: normaliser, tracking: [-1], pressure: [0], at: 0)
        history.ingest(type: Self.evAbs, code: Self.absPressure, value: 165, time: 914_000)
        Self.report(&history, at: 914_000)
        history.ingest(type: Self.evAbs, code: Self.absPressure, value: 208, time: 922_000)
        Self.report(&history, at: 922_000)
        history.ingest(type: Self.evAbs, code: Self.absPressure, value: 0, time: 931_000)
        Self.report(&history, at: 931_000)
        #expect(history.force(at: 922_000) == 0.208)
        #expect(history.force(at: 922_999) == 0.208, "a host's millisecond covers the frame")
        #expect(history.force(at: 921_999) == 0.165)
        #expect(history.force(at: 931_000) == 0)
        history.ingest(type: 0, code: 0, value: 0, time: 939_000)
        #expect(history.force(at: 939_000) == 0, "a frame without a change still counts as read")
        #expect(history.force(at: 939_001) == nil, "no frame read that late: the caller reads the state")
        #expect(history.force(at: -1) == nil, "before the history: the caller reads the state")
    }

    @Test("Slots: the hardest finger that touches, from the state the history started with")
    func slots() throws {
        let normaliser = try #require(ForceNormaliser(minimum: 0, maximum: 1000))
        var history = ForceHistory(
            axis: .slots(count: 2), normaliser: normaliser, tracking: [7, -1], pressure: [300, 0], at: 100)
        #expect(history.force(at: 100) == 0.3)
        #expect(history.force(at: 101) == nil, "nothing read since the start")
        history.ingest(type: Self.evAbs, code: Self.absMTSlot, value: 1, time: 200)
        history.ingest(type: Self.evAbs, code: Self.absMTTrackingID, value: 8, time: 200)
        history.ingest(type: Self.evAbs, code: Self.absMTPressure, value: 500, time: 200)
        Self.report(&history, at: 200)
        history.ingest(type: Self.evAbs, code: Self.absMTTrackingID, value: -1, time: 300)
        Self.report(&history, at: 300)
        #expect(history.force(at: 250) == 0.5)
        #expect(history.force(at: 300) == 0.3, "the lifted finger's pressure no longer counts")
    }

    @Test("It keeps a bounded number of frames, the newest")
    func bounded() throws {
        let normaliser = try #require(ForceNormaliser(minimum: 0, maximum: 1000))
        var history = ForceHistory(axis: .single, normaliser: normaliser, tracking: [-1], pressure: [0], at: 0)
        for frame in 1...(ForceHistory.capacity + 10) {
            history.ingest(type: Self.evAbs, code: Self.absPressure, value: Int32(frame), time: Int64(frame))
            Self.report(&history, at: Int64(frame))
        }
        var kept: [Int64] = []
        history.forEachFrame(after: .min, through: .max) { kept.append($0.time) }
        #expect(kept == Array(11...Int64(ForceHistory.capacity + 10)), "the newest, oldest first")
        #expect(history.force(at: 5) == nil)
        #expect(history.force(at: 11) == 0.011)
        #expect(history.force(at: 100) == 0.1)
        #expect(history.force(at: Int64(ForceHistory.capacity + 10)) == Double(ForceHistory.capacity + 10) / 1000)
    }

    @Test("The frames between two times, oldest first: what a late host's click and release had between them")
    func framesBetween() throws {
        let normaliser = try #require(ForceNormaliser(minimum: 0, maximum: 1000))
        var history = ForceHistory(axis: .single, normaliser: normaliser, tracking: [-1], pressure: [0], at: 0)
        // Twice round the ring: the frames after the wrap still come in order.
        let frames = (1...(2 * ForceHistory.capacity + 7)).map { Int64($0) * 8_000 }
        for (index, time) in frames.enumerated() {
            history.ingest(type: Self.evAbs, code: Self.absPressure, value: Int32(index % 900 + 100), time: time)
            Self.report(&history, at: time)
            Self.report(&history, at: time + 1)  // a frame without a change is not one of them
        }
        var between: [ForceHistory.Sample] = []
        let last = try #require(frames.last)
        history.forEachFrame(after: last - 5 * 8_000, through: last - 8_000 + 500) { between.append($0) }
        #expect(between.map(\.time) == [4, 3, 2, 1].map { last - $0 * 8_000 })
        #expect(between.map(\.force) == [4, 3, 2, 1].map { Double((frames.count - 1 - $0) % 900 + 100) / 1000 })
        var none = 0
        history.forEachFrame(after: last, through: .max) { _ in none += 1 }
        #expect(none == 0)
    }
}
