import WaylandServer

/// Where the compositor's frames are shown and when: the headless framebuffer with its virtual
/// vblank today, a window on another compositor tomorrow. The compositor paints the scene into
/// its `Framebuffer` at each presentation time the output gives it, answers the clients' frame
/// callbacks, and hands the painted frame to `present`. A new output is one more folder under
/// Backends/Output and one case in `CompositorConfiguration.OutputSelection`.
protocol OutputBackend: AnyObject {
    /// Once, at start-up: `frame` is what to call at each presentation time.
    func attach(to loop: EventLoop, frame: @escaping () -> Void)
    /// Something waits for a frame: call `frame` at the next presentation time (requests made
    /// before then coalesce into that one frame).
    func scheduleFrame()
    /// The frame was painted into `framebuffer` (a window copies it out; headless keeps it).
    func present(_ framebuffer: Framebuffer)
    /// No more frames (the teardown's last step).
    func stop()
}

extension CompositorConfiguration.OutputSelection {
    func makeBackend(configuration: CompositorConfiguration) -> OutputBackend {
        switch self {
        case .headless: HeadlessOutput(refreshMilliHertz: configuration.refreshMilliHertz, clock: configuration.clock)
        }
    }
}
