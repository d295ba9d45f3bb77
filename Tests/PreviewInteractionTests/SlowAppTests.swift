import CWaylandClient
import Foundation
import Glibc
import PreviewEngine
import PreviewInteraction
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

// An app that draws slowly (6 ms a frame, like peek-client's blurred grid) while a pen reports
// every 4 ms: the compositor must not hold progress back waiting for the app. The library reads
// and acknowledges on its own thread while the app draws; the control is an app that reads,
// acknowledges in its frame handler and then draws, on one thread (the pattern the protocol's
// flow control was designed around). BENCHMARKS.md has the figures from quieter runs.

@Suite(.serialized) struct SlowAppTests {
    static let samples = 150
    static let intervalMilliseconds: Int32 = 4
    static let drawMicroseconds = 6_000.0

    /// A frame's worth of CPU work (not a sleep: drawing keeps a core busy).
    static func draw() {
        let end = AppHarness.now() + drawMicroseconds / 1e6
        var spin = 0.0
        while AppHarness.now() < end { spin += 1 }
        _ = spin
    }

    static func progress(_ index: Int) -> Double { 0.1 + 0.8 * Double(index % 50) / 50 }

    @Test func theLibraryKeepsHoldsShortWhileTheAppDraws() throws {
        let app = try AppHarness()
        app.ask(7)
        #expect(app.waitForInputs(1))
        var drawn = 0
        app.delegate.onCall = { _ in
            drawn += 1
            Self.draw()
        }
        let finished = app.server.emit(count: Self.samples, everyMilliseconds: Self.intervalMilliseconds) {
            .phase(.previewProgress, .test(7, progress: Self.progress($0)))
        }
        #expect(app.dispatch(until: { finished.wait(timeout: .now()) == .success }, seconds: 30))
        // A value still held when the emitter finishes is counted once it is sent or superseded,
        // which takes the app's acknowledgement: dispatch until it is.
        _ = app.dispatch(until: { app.server.sync { $0.server.flowStatistics }.values == Self.samples }, seconds: 30)
        let library = app.server.sync { $0.server.flowStatistics }

        let control = try Self.singleThreadedControl()
        let report =
            "library: \(library.summary) (\(drawn) draws); one thread, ack then draw: \(control.summary)"
        print("SlowAppTests: \(report)")
        #expect(library.values == Self.samples && control.values == Self.samples, "\(report)")
        // Counted and compared with the control in the same run, never timed against a
        // constant: a loaded machine preempts both apps alike (and then stretches or squeezes
        // either's hold times), but only the one-thread app cannot acknowledge while it draws,
        // so most of its values wait or are dropped. Quiet: the library 0–1 %, the control
        // 92–98 %; at a load of 17–20 on two cores: 0–3 % and 77–99 %. The hold times are in
        // the report (BENCHMARKS.md).
        #expect(control.heldOrDropped > 0.5, "the control should hold values while it draws: \(report)")
        #expect(library.heldOrDropped * 2 < control.heldOrDropped, "\(report)")
    }

    /// The same device and the same drawing cost, read by one thread that acknowledges in the
    /// frame handler and then draws (its reads wait for each draw).
    static func singleThreadedControl() throws -> FlowStatistics {
        let server = try ServerThread()
        let display = wl_display_connect_to_fd(server.clientFD)!
        defer {
            server.stop()
            wl_display_disconnect(display)
        }
        let recorder = ControlClient(display: display)
        server.sync { harness in
            harness.server.perform(.askShouldBegin(.test(7)))
        }
        #expect(recorder.dispatch(until: { recorder.asked }))
        recorder.accept()
        #expect(recorder.dispatch(until: { server.sync { $0.inputs.count } == 1 }))
        let finished = server.emit(count: samples, everyMilliseconds: intervalMilliseconds) {
            .phase(.previewProgress, .test(7, progress: progress($0)))
        }
        var done = false
        while !done {
            done = finished.wait(timeout: .now()) == .success
            if recorder.dispatchOnce() { draw() }
        }
        _ = recorder.dispatch(until: { server.sync { $0.server.flowStatistics }.values == samples })
        return server.sync { $0.server.flowStatistics }
    }
}

/// The control app: binds the global, one surface, acks every frame in its handler.
final class ControlClient {
    let display: OpaquePointer
    private let box = ControlState()

    init(display: OpaquePointer) {
        self.display = display
        let registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, &controlRegistry, Unmanaged.passUnretained(box).toOpaque())
        wl_display_roundtrip(display)
        let surface = wl_compositor_create_surface(box.compositor)
        box.object = spi_preview_interaction_manager_v1_get_interaction(box.manager, surface)
        spi_preview_interaction_v1_add_listener(box.object, &controlListener, Unmanaged.passUnretained(box).toOpaque())
        wl_surface_commit(surface)
        wl_display_roundtrip(display)
    }

    var asked: Bool { box.asked }

    func accept() {
        spi_preview_interaction_v1_accept(box.object, 1)
        wl_display_flush(display)
    }

    /// Reads what arrived (waiting up to 1 ms), dispatches it: true if progress came.
    func dispatchOnce() -> Bool {
        box.progressed = false
        _ = AppHarness.dispatchOnce(display, timeoutMilliseconds: 1)
        wl_display_flush(display)
        return box.progressed
    }

    func dispatch(until condition: () -> Bool) -> Bool {
        let deadline = AppHarness.now() + 10
        while !condition() {
            guard AppHarness.now() < deadline, AppHarness.dispatchOnce(display, timeoutMilliseconds: 10) else {
                return false
            }
        }
        return true
    }
}

private final class ControlState {
    var compositor: OpaquePointer?
    var manager: OpaquePointer?
    var object: OpaquePointer?
    var asked = false
    var progressed = false
}

private func state(_ data: UnsafeMutableRawPointer?) -> ControlState {
    Unmanaged<ControlState>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private var controlRegistry = wl_registry_listener(
    global: { data, registry, name, interface, _ in
        switch String(cString: interface!) {
        case "wl_compositor":
            state(data).compositor = OpaquePointer(cwlc_registry_bind(registry, name, cwl_interface_wl_compositor(), 4))
        case "spi_preview_interaction_manager_v1":
            state(data).manager = OpaquePointer(
                cwlc_registry_bind(registry, name, cwl_interface_spi_preview_interaction_manager_v1(), 1))
        default: break
        }
    },
    global_remove: { _, _, _ in })

nonisolated(unsafe) private var controlListener = spi_preview_interaction_v1_listener(
    should_begin: { data, _, _, _, _ in state(data).asked = true },
    location: { _, _, _, _, _ in },
    preview: { data, _, _, _ in state(data).progressed = true },
    preview_ended: { _, _, _ in },
    commit: { _, _, _, _ in },
    completed: { _, _, _ in },
    cancelled: { _, _, _, _ in },
    frame: { _, object, _, serial, _, _ in spi_preview_interaction_v1_ack_frame(object, serial) },
    // Version 2's events never reach a version 1 object.
    behaviour: nil, stage: nil, haptics: nil)
