import CWaylandServer
import WaylandServer

/// The output concern's state: the backend frames go to, the framebuffer and its mode, the
/// wl_output resources told about the mode, and the frame callbacks answered at each frame.
/// The compositor asks it to damage, schedule and present; nothing else touches its state.
final class CompositorOutput {
    private let backend: OutputBackend
    /// Made again when the output's mode changes (a window resized or rescaled).
    private(set) var framebuffer: Framebuffer
    /// What clients see of the output (wl_output).
    private(set) var mode: OutputMode
    /// Bound wl_output resources, told when the mode changes.
    private var resources: [Weak<OutputResource>] = []
    /// Committed frame callbacks, answered at the next frame.
    private var frameCallbacks: [Callback] = []
    /// Frames painted so far (for tests and logs).
    private(set) var framesPainted = 0
    /// What the backend calls (it holds it unowned).
    private var presentation: Presentation?

    /// The backend's own mode (a window's), else the configured size. Throws when no
    /// framebuffer of that size can be made.
    init(backend: OutputBackend, configuration: CompositorConfiguration) throws(CompositorError) {
        self.backend = backend
        let mode =
            backend.mode
            ?? OutputMode(
                width: configuration.outputWidth, height: configuration.outputHeight,
                refreshMilliHertz: configuration.refreshMilliHertz)
        guard let framebuffer = Framebuffer(width: mode.width, height: mode.height, scale: mode.scale)
        else { throw .outputTooLarge(mode.width, mode.height) }
        self.framebuffer = framebuffer
        self.mode = mode
    }

    /// The backend's seat, for a window output whose parent gives the input.
    var seatInput: InputBackend? { (backend as? SeatOutput)?.seatInput }
    /// The backend, when it watches windows being mapped (a window shows its first frame then).
    var windowObserver: WindowMapObserver? { backend as? WindowMapObserver }

    func attach(to presentation: Presentation, loop: EventLoop) {
        self.presentation = presentation
        backend.attach(to: presentation, loop: loop)
    }

    func stop() { backend.stop() }

    func damage(_ rect: Rect) { framebuffer.addDamage(rect) }

    /// Asks the backend for a frame if anything waits for one.
    func scheduleFrame() {
        guard framebuffer.hasDamage || !frameCallbacks.isEmpty else { return }
        backend.scheduleFrame()
    }

    /// A client bound wl_output: it is told the mode now and at every change.
    func bound(_ resource: OutputResource) {
        resources.removeAll { $0.value?.isAlive != true }
        resources.append(Weak(resource))
        resource.sendMode(mode)
    }

    /// wl_surface.enter (`shown`) or leave of our one output, to the client's wl_outputs.
    func setShown(_ surface: Surface, _ shown: Bool) {
        guard let surfaceResource = surface.resource else { return }
        for output in resources.compactMap(\.value) where output.client == surface.client {
            guard let outputResource = output.resource else { continue }
            if shown {
                wl_surface_send_enter(surfaceResource, outputResource)
            } else {
                wl_surface_send_leave(surfaceResource, outputResource)
            }
        }
    }

    /// A surface's committed frame callbacks, answered at the next frame.
    func frameRequested(_ callbacks: [Callback]) { frameCallbacks.append(contentsOf: callbacks) }

    /// The presentation time: paints the damage of `placements` and shows it (true when a frame
    /// was painted), then answers the frame callbacks with `time`.
    func present(_ placements: [Framebuffer.Placement], time: UInt32) -> Bool {
        let painted = framebuffer.repaint(placements)
        if painted {
            framesPainted += 1
            backend.present(framebuffer)
        }
        let callbacks = frameCallbacks
        frameCallbacks.removeAll(keepingCapacity: true)
        for callback in callbacks { callback.done(milliseconds: time) }
        return painted
    }

    /// A new size or scale: a new framebuffer, the mode told to every bound wl_output. Nil when
    /// it is the mode already; false when no framebuffer of that size can be made.
    func change(to mode: OutputMode) -> Bool? {
        guard mode != self.mode else { return nil }
        guard let resized = Framebuffer(width: mode.width, height: mode.height, scale: mode.scale) else { return false }
        self.mode = mode
        framebuffer = resized
        resources.removeAll { $0.value?.isAlive != true }
        for resource in resources { resource.value?.sendMode(mode) }
        return true
    }
}
