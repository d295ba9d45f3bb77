import Testing

@testable import PreviewInteraction

// The pure part: wire groups → UIKit's calls, whatever the wire brings; merging for a slow app;
// the scrubbing curve.

@Suite struct PressMachineTests {
    func group(_ id: UInt32 = 1, _ edit: (inout WireGroup) -> Void) -> WireGroup {
        var group = WireGroup(interaction: id)
        edit(&group)
        return group
    }

    func machine() -> PressMachine {
        PressMachine(id: 1, source: 1, force: 2, location: PreviewPoint(x: 1, y: 2), time: 10)
    }

    @Test func aCompletionWithoutPreviewEndedStillEndsThePreviewFirst() {
        var press = machine()
        #expect(Array(press.apply(group { $0.shouldBegin = (1, 2) })) == [.shouldBegin])
        #expect(Array(press.apply(group { $0.preview = 0.5 })) == [.preview(0.5, ended: false)])
        #expect(Array(press.apply(group { $0.completed = true })) == [.preview(1, ended: true), .commit(1, ended: true)])
        #expect(press.press.phase == .completed && press.isFinished)
        #expect(Array(press.apply(group { $0.cancelled = 1 })).isEmpty, "nothing after the end")
    }

    @Test func progressIsClampedAndLateOrOutOfOrderEventsAreDropped() {
        var press = machine()
        _ = press.apply(group { $0.shouldBegin = (1, 1) })
        #expect(Array(press.apply(group { $0.preview = 7 })) == [.preview(1, ended: false)])
        #expect(Array(press.apply(group { $0.preview = .nan })) == [.preview(0, ended: false)])
        #expect(Array(press.apply(group { $0.previewEnded = true })) == [.preview(1, ended: true)])
        #expect(Array(press.apply(group { $0.preview = 0.2 })).isEmpty, "no preview call after ended")
        #expect(Array(press.apply(group { $0.commit = -3 })) == [.commit(0, ended: false)])
    }

    @Test func aPressOverBeforeTheAppHeardOfItMakesNoCall() {
        var press = machine()
        #expect(Array(press.apply(group { $0.shouldBegin = (1, 1); $0.cancelled = 4 })).isEmpty)
        #expect(press.isFinished)
    }

    @Test func aDeclineMakesNoCancelCallButOtherReasonsDo() {
        var declined = machine()
        _ = declined.apply(group { $0.shouldBegin = (1, 1) })
        #expect(Array(declined.apply(group { $0.cancelled = 3 })).isEmpty)
        var timedOut = machine()
        _ = timedOut.apply(group { $0.shouldBegin = (1, 1) })
        #expect(Array(timedOut.apply(group { $0.cancelled = 4 })) == [.cancel(.timeout)])
        var unknown = machine()
        _ = unknown.apply(group { $0.shouldBegin = (1, 1) })
        #expect(Array(unknown.apply(group { $0.cancelled = 99 })) == [.cancel(.other(99))])
    }

    @Test func aLocalCancelIsReportedOnceAndTheWireEndIsSilent() {
        var press = machine()
        _ = press.apply(group { $0.shouldBegin = (1, 1) })
        _ = press.apply(group { $0.preview = 0.3 })
        #expect(Array(press.cancelLocally()) == [.cancel(.clientCancelled)])
        #expect(Array(press.cancelLocally()).isEmpty)
        #expect(Array(press.apply(group { $0.preview = 0.4 })).isEmpty)
        #expect(!press.isFinished)
        #expect(Array(press.apply(group { $0.cancelled = 2 })).isEmpty)
        #expect(press.isFinished)
    }

    @Test func mergedGroupsKeepThePhaseChangesAndTheLatestValues() {
        var merged = group { $0.preview = 0.2; $0.serial = 3 }
        merged.merge(group { $0.preview = 0.6; $0.location = PreviewPoint(x: 5, y: 5); $0.serial = 4 })
        merged.merge(group { $0.previewEnded = true; $0.serial = 5 })
        merged.merge(group { $0.commit = 0.4; $0.serial = 6 })
        #expect(merged.preview == nil && merged.previewEnded && merged.commit == 0.4 && merged.serial == 6)
        var press = machine()
        _ = press.apply(group { $0.shouldBegin = (1, 1) })
        #expect(Array(press.apply(merged)) == [.preview(1, ended: true), .commit(0.4, ended: false)])
        #expect(press.press.location == PreviewPoint(x: 5, y: 5))
    }

    @Test func theScrubberEasesAndClamps() {
        var scrubber = TransitionScrubber(curve: .linear)
        scrubber.fractionComplete = 2
        #expect(scrubber.fractionComplete == 1)
        scrubber.fractionComplete = 0.25
        #expect(scrubber.interpolate(from: 10, to: 20) == 12.5)
        scrubber.isReversed = true
        #expect(scrubber.value == 0.75)
        let ease = PreviewTimingCurve.easeInOut
        #expect(ease.value(at: 0) == 0 && abs(ease.value(at: 1) - 1) < 1e-6)
        #expect(abs(ease.value(at: 0.5) - 0.5) < 1e-3, "symmetric")
        #expect(ease.value(at: 0.1) < 0.1 && PreviewTimingCurve.easeOut.value(at: 0.1) > 0.1)
        var last = -1.0
        for step in 0...100 {
            let value = PreviewTimingCurve.cubicBezier(x1: 0.2, y1: 0.9, x2: 0.3, y2: 1).value(at: Double(step) / 100)
            #expect(value >= last - 1e-9, "monotonic")
            last = value
        }
    }
}
