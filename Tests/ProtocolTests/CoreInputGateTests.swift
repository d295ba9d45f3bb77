import PreviewEngine
import PreviewProtocolServer
import PreviewProtocolTestSupport
import Testing

/// The core-input rules: no click after completion, core input untouched before commit.
@Suite struct CoreInputGateTests {
    let contact = ContactKey(device: DeviceID(1))

    @Test func aCompletedInteractionTakesTheContactAwayAndSwallowsItsRelease() {
        var gate = CoreInputGate()
        var change = gate.apply(.askShouldBegin(.test(1)))
        #expect(change == nil)
        change = gate.apply(.phase(.previewProgress, .test(1, progress: 0.5)))
        #expect(change == nil)
        #expect(!gate.isTakenAway(contact), "core events flow during the preview phase")
        change = gate.apply(.phase(.previewEnded, .test(1, progress: 1)))
        #expect(change == .takeAway(contact, SurfaceID(1)))
        #expect(gate.isTakenAway(contact))
        change = gate.apply(.phase(.commitProgress, .test(1, progress: 0.5)))
        #expect(change == nil)
        change = gate.apply(.phase(.completed, .test(1, progress: 1)))
        #expect(change == .giveBack(contact, SurfaceID(1)))
        #expect(!gate.isTakenAway(contact), "the pointer may enter again")
        var swallow = gate.release(contact)
        #expect(swallow, "but its release is never delivered")
        swallow = gate.release(contact)
        #expect(!swallow, "only once")
    }

    @Test func aPreviewCancelledByLiftingKeepsItsClick() {
        var gate = CoreInputGate()
        _ = gate.apply(.phase(.previewProgress, .test(1, progress: 0.4)))
        let change = gate.apply(.phase(.cancelled(.lifted), .test(1)))
        #expect(change == nil)
        let swallow = gate.release(contact)
        #expect(!swallow, "deliver the release: an ordinary click after a cancelled preview")
    }

    @Test(arguments: CancelReason.allCases)
    func anyCancelDuringCommitGivesTheContactBack(reason: CancelReason) {
        var gate = CoreInputGate()
        _ = gate.apply(.phase(.previewEnded, .test(1, progress: 1)))
        let change = gate.apply(.phase(.cancelled(reason), .test(1)))
        #expect(change == .giveBack(contact, SurfaceID(1)))
        let swallow = gate.release(contact)
        #expect(swallow)
    }

    @Test func contactsAreIndependent() {
        var gate = CoreInputGate()
        let other = ContactKey(device: DeviceID(2))
        _ = gate.apply(.phase(.previewEnded, .test(1, progress: 1)))
        #expect(!gate.isTakenAway(other))
        let swallow = gate.release(other)
        #expect(!swallow)
        // A stale end for another interaction on the same contact changes nothing.
        let change = gate.apply(.phase(.cancelled(.system), .test(9)))
        #expect(change == nil)
        #expect(gate.isTakenAway(contact))
    }
}
