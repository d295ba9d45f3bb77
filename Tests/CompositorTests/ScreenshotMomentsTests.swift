import Foundation
import PreviewEngine
import Testing

@testable import PreviewCompositor

/// When the phase screenshots are taken: on the client's first commit after it acknowledged the
/// frame that carried the moment, else at a deadline (docs/compositor.md, "Screenshot moments").
@Suite struct ScreenshotMomentsTests {
    let one = InteractionID(1)
    let surface = SurfaceID(7)
    let other = SurfaceID(8)

    @Test func aMomentWaitsForItsFrameTheAckAndThenACommit() {
        var moments = ScreenshotMoments()
        moments.occurred(.preview, interaction: one, surface: surface, at: 0)
        #expect(moments.committed(surface: surface, requestedFrame: true, at: 1_000).isEmpty, "no frame sent yet")
        moments.frameSent(interaction: one, surface: surface, serial: 3)
        #expect(moments.committed(surface: surface, requestedFrame: true, at: 2_000).isEmpty, "not acknowledged")
        moments.acknowledged(surface: surface, serial: 2)
        #expect(moments.committed(surface: surface, requestedFrame: true, at: 3_000).isEmpty, "an older frame's ack")
        moments.acknowledged(surface: surface, serial: 3)
        #expect(moments.committed(surface: other, requestedFrame: true, at: 4_000).isEmpty, "another surface")
        let shots = moments.committed(surface: surface, requestedFrame: true, at: 5_000)
        #expect(shots == [.init(interaction: one, moment: .preview, trigger: .commit(frame: 3), delay: 5_000)])
        #expect(shots.first?.label == "interaction1-preview")
        #expect(moments.isEmpty)
    }

    @Test func aClientThatAcksOnReadingRepeatsTheFrameItDrewBeforeCommitting() {
        // The frame carrying the moment is acknowledged as soon as it is read (while the client
        // draws an older state); the client repeats the last serial it applied before each
        // commit: the stale commit is not photographed, the one drawn after applying it is.
        var moments = ScreenshotMoments()
        moments.occurred(.commitHalf, interaction: one, surface: surface, at: 0)
        moments.frameSent(interaction: one, surface: surface, serial: 5)
        moments.acknowledged(surface: surface, serial: 5)
        moments.acknowledged(surface: surface, serial: 4)
        #expect(moments.committed(surface: surface, requestedFrame: true, at: 1_000).isEmpty, "drawn before frame 5")
        moments.acknowledged(surface: surface, serial: 5)
        let shots = moments.committed(surface: surface, requestedFrame: true, at: 2_000)
        #expect(shots.map(\.trigger) == [.commit(frame: 5)])
    }

    @Test func aLaterAckCoversEarlierFramesAndMomentsDueTogetherKeepTheirOrder() {
        var moments = ScreenshotMoments()
        moments.occurred(.preview, interaction: one, surface: surface, at: 0)
        moments.frameSent(interaction: one, surface: surface, serial: 1)
        moments.occurred(.previewHalf, interaction: one, surface: surface, at: 10)
        moments.frameSent(interaction: one, surface: surface, serial: 2)
        moments.acknowledged(surface: surface, serial: 2)
        let shots = moments.committed(surface: surface, requestedFrame: true, at: 20)
        #expect(shots.map(\.moment) == [.preview, .previewHalf])
    }

    @Test func aClientThatNeverAcksOrCommitsGetsTheShotAtTheDeadline() {
        var moments = ScreenshotMoments()
        moments.occurred(.commit, interaction: one, surface: surface, at: 1_000)
        moments.frameSent(interaction: one, surface: surface, serial: 4)
        #expect(moments.nextDeadline == 1_000 + ScreenshotMoments.fallback)
        #expect(moments.expired(at: 1_000 + ScreenshotMoments.fallback - 1).isEmpty)
        let shots = moments.expired(at: 1_000 + ScreenshotMoments.fallback)
        #expect(shots.map(\.trigger) == [.fallback(.ack(4))])
    }

    @Test func timeTheCompositorSpentShootingDoesNotCountAgainstTheClient() {
        var moments = ScreenshotMoments()
        moments.occurred(.commit, interaction: one, surface: surface, at: 0)
        moments.postpone(by: 100_000)
        #expect(moments.expired(at: ScreenshotMoments.fallback).isEmpty)
        #expect(moments.expired(at: ScreenshotMoments.fallback + 100_000).count == 1)
    }

    @Test func settledWaitsForACommitWithoutAFrameCallback() {
        var moments = ScreenshotMoments()
        moments.occurred(.completed, interaction: one, surface: surface, at: 0)
        moments.frameSent(interaction: one, surface: surface, serial: 9)
        moments.acknowledged(surface: surface, serial: 9)
        // The pop animates: the client keeps asking for frame callbacks.
        #expect(moments.committed(surface: surface, requestedFrame: true, at: 10).map(\.moment) == [.completed])
        #expect(moments.committed(surface: surface, requestedFrame: true, at: 20).isEmpty)
        let settled = moments.committed(surface: surface, requestedFrame: false, at: 300_000)
        #expect(settled == [.init(interaction: one, moment: .settled, trigger: .commit(frame: 9), delay: 300_000)])
    }

    @Test func settledHasItsOwnLongerBound() {
        var moments = ScreenshotMoments()
        moments.occurred(.cancelled, interaction: one, surface: surface, at: 0)
        #expect(moments.expired(at: ScreenshotMoments.fallback).map(\.moment) == [.cancelled])
        #expect(moments.expired(at: ScreenshotMoments.settleBound - 1).isEmpty)
        #expect(moments.expired(at: ScreenshotMoments.settleBound).map(\.trigger) == [.fallback(.frame)])
    }

    @Test func interactionsOnOneSurfaceAreTrackedApart() {
        var moments = ScreenshotMoments()
        let two = InteractionID(2)
        moments.occurred(.preview, interaction: one, surface: surface, at: 0)
        moments.occurred(.preview, interaction: two, surface: surface, at: 0)
        moments.frameSent(interaction: two, surface: surface, serial: 5)
        moments.acknowledged(surface: surface, serial: 5)
        #expect(moments.committed(surface: surface, requestedFrame: true, at: 1).map(\.interaction) == [two])
        #expect(moments.flush(at: 2).map(\.interaction) == [one])
    }
}
