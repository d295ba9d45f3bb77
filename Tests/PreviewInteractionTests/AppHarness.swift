import CWaylandClient
import Glibc
import PreviewEngine
import PreviewInteraction
import PreviewProtocolServer
import SystemLayer
import _PreviewProtocolTestSupport

/// An app on the test's thread: its own connection to the scripted server, a wl_surface, the
/// library's client and one PreviewInteraction with a recording delegate. The test plays the
/// engine through `server.sync`, then waits (dispatching like an app) for the delegate calls.
final class AppHarness {
    let server: ServerThread
    let display: OpaquePointer
    let client: PreviewInteractionClient
    private(set) var compositor: OpaquePointer?
    private(set) var surface: OpaquePointer?
    let interaction: PreviewInteraction
    let delegate = RecordingDelegate()

    init(answer: RecordingDelegate.Answering = .yes) throws {
        server = try ServerThread()
        display = wl_display_connect_to_fd(server.clientFD)!
        client = try PreviewInteractionClient(display: display)
        compositor = Self.bindCompositor(display)
        surface = wl_compositor_create_surface(compositor)
        interaction = PreviewInteraction(surface: surface!, client: client)
        delegate.answering = answer
        interaction.delegate = delegate
        wl_surface_commit(surface)
        wl_display_roundtrip(display)
    }

    deinit { shutdown() }

    func shutdown() {
        interaction.invalidate()
        if let surface { wl_surface_destroy(surface) }
        surface = nil
        client.close()
        if let compositor { wl_compositor_destroy(compositor) }
        compositor = nil
        wl_display_roundtrip(display)
        server.stop()
        wl_display_disconnect(display)
    }

    /// Destroys the wl_surface first (the race the protocol resolves with surface_gone).
    func destroySurfaceKeepingTheInteraction() {
        if let surface { wl_surface_destroy(surface) }
        surface = nil
        wl_display_flush(display)
    }

    /// The engine's id for the n-th interaction the test starts, and its surface.
    static let surfaceID = SurfaceID(1)

    /// Asks should-begin for a new engine interaction `id` at `point`.
    func ask(_ id: UInt64, at point: Point = Point(x: 10, y: 20), source: InputSource = .pen, simulated: Bool = false) {
        server.sync {
            $0.server.perform(
                .askShouldBegin(
                    .test(UInt32(id), at: point, time: 1_000 + Int64(id), source: source, simulated: simulated)))
        }
    }

    func perform(_ action: Action) { server.sync { $0.server.perform(action) } }

    /// What the library told the server (answers, cancels), in order.
    var inputs: [PreviewClientInput] { server.sync { $0.inputs } }

    /// Dispatches the app's queue like an app's event loop until `condition` holds or `seconds`
    /// pass (then returns false). Blocks in poll, never sleeps.
    @discardableResult
    func dispatch(until condition: () -> Bool, seconds: Double = 10) -> Bool {
        let deadline = Self.now() + seconds
        while !condition() {
            let left = deadline - Self.now()
            guard left > 0 else { return false }
            guard Self.dispatchOnce(display, timeoutMilliseconds: Int32(min(left, 0.05) * 1000)) else { return false }
        }
        return true
    }

    /// Waits until the server has received `count` inputs.
    @discardableResult
    func waitForInputs(_ count: Int, seconds: Double = 10) -> Bool {
        dispatch(until: { inputs.count >= count }, seconds: seconds)
    }

    static func dispatchOnce(_ display: OpaquePointer, timeoutMilliseconds: Int32) -> Bool {
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return false }
        }
        wl_display_flush(display)
        var pfd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, timeoutMilliseconds) > 0 {
            guard wl_display_read_events(display) >= 0 else { return false }
        } else {
            wl_display_cancel_read(display)
        }
        return wl_display_dispatch_pending(display) >= 0
    }

    static func now() -> Double { Double(MonotonicTime.microseconds()) / 1e6 }

    static func bindCompositor(_ display: OpaquePointer) -> OpaquePointer? {
        let box = CompositorBox()
        let registry = wl_display_get_registry(display)
        withExtendedLifetime(box) {
            wl_registry_add_listener(registry, &compositorListener, Unmanaged.passUnretained(box).toOpaque())
            wl_display_roundtrip(display)
        }
        defer { wl_registry_destroy(registry) }
        guard let name = box.name else { return nil }
        return OpaquePointer(cwlc_registry_bind(registry, name, cwl_interface_wl_compositor(), 4))
    }
}

private final class CompositorBox { var name: UInt32? }

nonisolated(unsafe) private var compositorListener = wl_registry_listener(
    global: { data, _, name, interface, _ in
        guard let interface, String(cString: interface) == "wl_compositor" else { return }
        Unmanaged<CompositorBox>.fromOpaque(data!).takeUnretainedValue().name = name
    },
    global_remove: { _, _, _ in })

/// Records every delegate call as a line (`id: call`), and answers should-begin as told.
final class RecordingDelegate: PreviewInteractionDelegate {
    enum Answering {
        case yes
        case no
        /// Keep the answer for the test (asynchronous answers).
        case later
        /// As the sample apps do: accept while no press of the app's runs (it drives one peek
        /// at a time), decline the rest.
        case oneAtATime
    }

    /// The press the app took (`oneAtATime`), until its end.
    private(set) var active: UInt32?

    var answering = Answering.yes
    private(set) var calls: [String] = []
    private(set) var answers: [PreviewAnswer] = []
    /// Runs at every call (a slow app draws here).
    var onCall: (PreviewInteraction) -> Void = { _ in }
    /// Every press seen at a call, for checks on location and source.
    private(set) var pressesSeen: [PreviewPress] = []
    /// Whether every call came on the thread that created the delegate.
    private(set) var offThread = false
    private let thread = pthread_self()

    private func record(_ interaction: PreviewInteraction, _ call: String) {
        if pthread_equal(pthread_self(), thread) == 0 { offThread = true }
        let press = interaction.currentPress!
        pressesSeen.append(press)
        calls.append("\(press.id): \(call)")
        onCall(interaction)
    }

    func previewInteraction(_ previewInteraction: PreviewInteraction, shouldBegin answer: PreviewAnswer) {
        record(previewInteraction, "shouldBegin")
        switch answering {
        case .yes: answer.accept()
        case .no: answer.decline()
        case .later: answers.append(answer)
        case .oneAtATime:
            guard active == nil else {
                answer.decline()
                return
            }
            active = previewInteraction.currentPress?.id
            answer.accept()
        }
    }

    /// A press the app took ended: it takes the next.
    private func ended(_ interaction: PreviewInteraction) {
        if interaction.currentPress?.id == active { active = nil }
    }

    func previewInteraction(
        _ previewInteraction: PreviewInteraction, didUpdatePreviewTransition transitionProgress: Double, ended: Bool
    ) {
        record(previewInteraction, "preview \(transitionProgress)\(ended ? " ended" : "")")
    }

    func previewInteraction(
        _ previewInteraction: PreviewInteraction, didUpdateCommitTransition transitionProgress: Double, ended: Bool
    ) {
        record(previewInteraction, "commit \(transitionProgress)\(ended ? " ended" : "")")
        if ended { self.ended(previewInteraction) }
    }

    func previewInteractionDidCancel(_ previewInteraction: PreviewInteraction) {
        record(previewInteraction, "cancel \(previewInteraction.currentPress!.cancelReason!)")
        ended(previewInteraction)
    }

    func previewInteraction(_ previewInteraction: PreviewInteraction, didChangeStage stage: UInt32) {
        record(previewInteraction, "stage \(stage)")
    }

    func previewInteraction(_ previewInteraction: PreviewInteraction, didChangeHapticsAvailability available: Bool) {
        record(previewInteraction, "haptics \(available)")
    }
}
