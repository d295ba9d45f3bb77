import Testing

@testable import PreviewEngine

@Suite("Engine contract")
struct ContractTests {
    @Test("Actions stores up to its capacity inline and iterates in order")
    func actionsOrder() {
        var actions = Actions()
        for millisecond in 0..<Int64(Actions.capacity) {
            actions.append(.scheduleTimer(Timestamp(milliseconds: millisecond)))
        }
        #expect(actions.count == Actions.capacity)
        #expect(actions.map { $0 } == (0..<Int64(Actions.capacity)).map { .scheduleTimer(Timestamp(milliseconds: $0)) })
    }

    @Test("prepend puts an action first and keeps the rest in order")
    func prepend() {
        var actions = Actions()
        for millisecond in 1..<Int64(Actions.capacity) {
            actions.append(.scheduleTimer(Timestamp(milliseconds: millisecond)))
        }
        actions.prepend(.scheduleTimer(nil))
        #expect(
            actions.map { $0 } == [.scheduleTimer(nil)]
                + (1..<Int64(Actions.capacity)).map { .scheduleTimer(Timestamp(milliseconds: $0)) })
    }

    @Test("Normalisation clamps to the absinfo range")
    func normaliser() throws {
        let normaliser = try #require(ForceNormaliser(minimum: 0, maximum: 2047))
        #expect(normaliser.normalise(0) == 0)
        #expect(normaliser.normalise(2047) == 1)
        #expect(normaliser.normalise(4000) == 1)
        #expect(normaliser.normalise(-3) == 0)
        #expect(ForceNormaliser(minimum: 5, maximum: 5) == nil)
    }
}
