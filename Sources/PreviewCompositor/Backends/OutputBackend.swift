import Logging
import WaylandServer

/// What an output backend drives: the compositor's presentation. The compositor implements it
/// (`CompositorPresentation`); an output never sees the compositor.
public protocol Presentation: AnyObject {
    /// The presentation time: the compositor paints what changed into its `Framebuffer`, hands
    /// it to `OutputBackend.present` and answers the clients' frame callbacks.
    func frameDue()
    /// The output's mode changed (a window resized, or moved to an output of another scale).
    func modeChanged(_ mode: OutputMode)
    /// The output ended (a window closed: status 0; its parent went away: non-zero, with one
    /// line saying so): the compositor stops.
    func ended(status: Int32, reason: String)
}

/// Where the compositor's frames are shown and when: the headless framebuffer with its virtual
/// vblank, or a window on another compositor (Backends/Output/Wayland). The output calls
/// `Presentation.frameDue` at each presentation time and is handed the painted frame in
/// `present`. A new output is one folder under Backends/Output (the backend and its
/// `OutputBackendDescriptor`) and one line in `BackendRegistry.standard`.
public protocol OutputBackend: AnyObject {
    /// Once, at start-up: where to report frames, mode changes and the end.
    func attach(to presentation: Presentation, loop: EventLoop)
    /// Something waits for a frame: call `frameDue` at the next presentation time (requests
    /// made before then coalesce into that one frame).
    func scheduleFrame()
    /// The frame was painted into `framebuffer` (a window copies it out; headless keeps it).
    func present(_ framebuffer: Framebuffer)
    /// No more frames (the teardown's last step).
    func stop()
    /// The mode to start with when the output decides it (a window: the size its parent gave
    /// it); nil: the configured one.
    var mode: OutputMode? { get }
}

extension OutputBackend {
    public var mode: OutputMode? { nil }
}

/// An output that brings its own input (a window: its parent's seat), used when no other input
/// is selected. Optional capability.
public protocol SeatOutput: OutputBackend {
    var seatInput: InputBackend { get }
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
