import Logging
import WaylandServer

/// Where the compositor's frames are shown and when: the headless framebuffer with its virtual
/// vblank, or a window on another compositor (Backends/Wayland). The compositor paints the scene into
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

    /// The mode to start with when the output decides it (a window: the size its parent gave
    /// it); nil: the configured one.
    var mode: OutputMode? { get }
    /// Once, at start-up: the output's mode changed (a window resized, or moved to an output of
    /// another scale), or the output ended (a window closed: status 0; its parent went away:
    /// non-zero, with one line saying so).
    func watch(modeChanged: @escaping (OutputMode) -> Void, ended: @escaping (Int32, String) -> Void)
    /// An output that brings its own input (a window: its parent's seat), used when no other
    /// input is selected.
    var seatInput: InputBackend? { get }
    /// A client's toplevel was mapped (a window shows its first frame with a client in it).
    func windowMapped()
}

extension OutputBackend {
    var mode: OutputMode? { nil }
    func watch(modeChanged: @escaping (OutputMode) -> Void, ended: @escaping (Int32, String) -> Void) {}
    var seatInput: InputBackend? { nil }
    func windowMapped() {}
}

/// What clients see of the output (wl_output): its logical size, scale and refresh.
public struct OutputMode: Hashable, Sendable {
    public var width: Int32
    public var height: Int32
    public var scale: Int32
    public var refreshMilliHertz: Int32

    public init(width: Int32, height: Int32, scale: Int32 = 1, refreshMilliHertz: Int32 = 60_000) {
        self.width = width
        self.height = height
        self.scale = scale
        self.refreshMilliHertz = refreshMilliHertz
    }
}

extension CompositorConfiguration.OutputSelection {
    func makeBackend(configuration: CompositorConfiguration, logger: Logger) throws(CompositorError) -> OutputBackend {
        switch self {
        case .headless: HeadlessOutput(refreshMilliHertz: configuration.refreshMilliHertz, clock: configuration.clock)
        case .wayland: try WaylandBackend(configuration: configuration, logger: logger)
        }
    }
}
