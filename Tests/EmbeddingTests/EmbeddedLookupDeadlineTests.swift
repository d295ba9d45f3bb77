import CCompositorModule
import CWaylandClient
import CompositorModule
import Foundation
import Testing
import _PreviewProtocolTestSupport

/// Look Up's deadline is the user's, which the host passes through
/// `preview_interaction_set_lookup_deadline`: the same slow answer (preview-lookup's stand-in,
/// Tests/Fixtures/lookup/fake-lookup.py, answers 300 ms after it read the question) is late
/// under a 100 ms deadline, and finds its word under a 5 s one.
@Suite struct EmbeddedLookupDeadlineTests {
    /// The outcomes of the answers the host heard of (lookup_event).
    final class News {
        var outcomes: [preview_interaction_lookup_outcome] = []
        var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    }

    /// A firm pen press on a window without a preview area, held until its lookup's answer
    /// came (10 s at most), Look Up's deadline set to `deadline` ms: the answers' outcomes.
    func outcomes(deadline: UInt32) throws -> [preview_interaction_lookup_outcome] {
        let standIn = Paths.scratch("lookup-deadline") + "/slow-lookup"
        let fake = Paths.root + "/Tests/Fixtures/lookup/fake-lookup.py"
        try "#!/bin/sh\nexec /usr/bin/env FAKE_LOOKUP_DELAY_MS=300 /usr/bin/python3 \(fake)\n".write(
            toFile: standIn, atomically: true, encoding: .utf8)
        chmod(standIn, 0o755)
        let news = News()
        var callbacks = preview_interaction_callbacks()
        callbacks.size = MemoryLayout<preview_interaction_callbacks>.size
        callbacks.lookup_event = { data, event in
            guard let data, let event, event.pointee.kind == PREVIEW_INTERACTION_LOOKUP_ANSWERED else { return }
            Unmanaged<News>.fromOpaque(data).takeUnretainedValue().outcomes.append(event.pointee.outcome)
        }
        let host = try EmbeddedHost(callbacks: callbacks, userData: news.userData)
        let client = try PreviewClient(display: host.display, version: 2)
        let surface = client.surface()
        wl_surface_commit(surface)
        let window = try #require(host.serverResource(of: surface, for: client))
        #expect(previewInteractionSurfaceCommit(host.context, window) == 0)
        #expect(previewInteractionSetLookupDeadline(host.context, deadline) == 0)
        #expect(previewInteractionSetLookup(host.context, true, standIn) == 0)
        var device: OpaquePointer?
        #expect(previewInteractionDeviceAdd(host.context, PREVIEW_INTERACTION_DEVICE_PEN, "pen", 0, 1, 0, &device) == 0)
        let pen = try #require(device)
        func now() -> UInt64 { UInt64(host.display.clock.microseconds()) }
        // The force rises over about 200 ms, as a person presses (the display dispatched between
        // samples, where preview-lookup's connection is served).
        #expect(previewInteractionContactDown(pen, 0, window, 40, 30, 0.05, now()) == 0)
        for step in 1...40 {
            host.display.dispatch(timeoutMilliseconds: 5)
            #expect(previewInteractionContactUpdate(pen, 0, 40, 30, 0.05 + 0.95 * Double(step) / 40, now()) == 0)
        }
        let until = Date().addingTimeInterval(10)
        while news.outcomes.isEmpty && Date() < until { host.display.dispatch(timeoutMilliseconds: 20) }
        var swallow = false
        #expect(previewInteractionContactUp(pen, 0, now(), &swallow) == 0)
        #expect(previewInteractionSetLookup(host.context, false, nil) == 0)
        _ = client
        return news.outcomes
    }

    @Test("An answer after the deadline the host set is late: the press stays the app's")
    func anAnswerAfterAShortDeadlineIsLate() throws {
        #expect(try outcomes(deadline: 100) == [PREVIEW_INTERACTION_LOOKUP_OUTCOME_LATE])
    }

    @Test("The same answer within a longer deadline finds its word")
    func theSameAnswerWithinALongerDeadlineIsFound() throws {
        #expect(try outcomes(deadline: 5000) == [PREVIEW_INTERACTION_LOOKUP_OUTCOME_FOUND])
    }
}
