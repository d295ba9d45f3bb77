import Logging
import PreviewEngine
import SystemLayer
import WaylandServer
import WaylandWindow

/// What the window output is given.
public struct WaylandOutputOptions: Sendable {
    /// The compositor the window opens on: a socket name or path; nil: WAYLAND_SOCKET /
    /// WAYLAND_DISPLAY of our environment, as every Wayland client reads them.
    public var parentDisplay: String?

    public init(parentDisplay: String? = nil) { self.parentDisplay = parentDisplay }
}

extension CompositorConfiguration.OutputSelection {
    public static func wayland(_ options: WaylandOutputOptions = .init()) -> Self {
        Self(name: "wayland") { context throws(CompositorError) in
            try WaylandBackend(options: options, context: context)
        }
    }
}

extension WaylandBackend {
    static let descriptor = OutputBackendDescriptor(
        name: "wayland",
        help: """
            A window on the Wayland compositor we run in, fed by its seat: pointer, keyboard, touch and \
            pens with their pressure. The default when WAYLAND_DISPLAY or WAYLAND_SOCKET is set.
            """,
        isDefault: { environment in
            // As wlroots chooses: a window when our own environment names a Wayland compositor.
            ["WAYLAND_DISPLAY", "WAYLAND_SOCKET"].contains { !(environment[$0] ?? "").isEmpty }
        }
    ) { _ in .wayland() }
}

/// `--backend wayland`: the compositor as a window on the Wayland compositor it runs in (its
/// "parent"), like weston's wayland backend or wlroots' nested mode. The output is our
/// framebuffer in an xdg_toplevel (wl_shm, damage only, paced by the parent's frame callbacks);
/// the input is the parent's seat as the window receives it (`ParentSeat` → `ParentInput`).
/// The window's size and scale are our output's; closing it stops us with status 0; losing the
/// parent stops us with one line and status 1.
final class WaylandBackend: OutputBackend, SeatOutput, WindowMapObserver {
    private let connection: ParentConnection
    private let window: ParentWindow
    private let logger: Logger
    private let refreshMilliHertz: Int32
    private weak var presentation: Presentation?
    /// A frame was asked for and not yet given.
    private var frameWanted = false
    /// Paces frames while the parent sends no frame callback (before the window is shown).
    private var clock: FrameClock
    private var timer: EventSource?
    private var source: EventSource?
    /// A `--run` client gets this long to map its first window before ours is shown empty.
    private var mapTimer: EventSource?
    static let firstWindowWait: Int32 = 10_000
    /// The framebuffer last painted, shown again when a buffer frees up or the window may map.
    private var painted: Framebuffer?
    private var unshown = false
    private var stopped = false
    private let input: ParentSeatInput
    /// The compositor's one clock.
    private let monotonic: MonotonicClock

    init(options: WaylandOutputOptions, context: BackendContext) throws(CompositorError) {
        let configuration = context.configuration
        logger = context.logger
        refreshMilliHertz = configuration.refreshMilliHertz
        monotonic = configuration.clock
        clock = FrameClock(refreshMilliHertz: configuration.refreshMilliHertz, start: monotonic.microseconds() * 1000)
        do {
            let monotonic = monotonic
            connection = try ParentConnection(
                display: options.parentDisplay, clock: { Timestamp(microseconds: monotonic.microseconds()) })
        } catch {
            throw .backend(error)
        }
        do {
            window = try ParentWindow(
                connection: connection, preferredSize: (configuration.outputWidth, configuration.outputHeight),
                fitsParentOutput: configuration.windowFitsParentOutput, title: "preview-compositor")
        } catch {
            connection.destroy()
            throw .backend(error)
        }
        connection.seat?.outputResized(width: window.size.width, height: window.size.height)
        input = ParentSeatInput(seat: connection.seat, logger: logger)
        if configuration.runCommand != nil { window.mapWhenReady() }
        logger.notice(
            "window on the parent compositor: \(window.size.width)x\(window.size.height), decorations: \(window.decorations)"
        )
    }

    var mode: OutputMode? { currentMode }

    private var currentMode: OutputMode {
        OutputMode(
            width: window.size.width, height: window.size.height, scale: window.scale,
            refreshMilliHertz: refreshMilliHertz)
    }

    /// The output changes size or scale: a frame painted for the old one is never shown.
    private func outputChanged() {
        painted = nil
        unshown = false
        presentation?.modeChanged(currentMode)
    }

    var seatInput: InputBackend { input }

    // MARK: OutputBackend

    func attach(to presentation: Presentation, loop: EventLoop) {
        self.presentation = presentation
        timer = loop.addTimer { [unowned self] in giveFrame() }
        connection.onLost = { [unowned self] reason in
            source?.remove()
            self.presentation?.ended(status: 1, reason: "\(reason): stopping")
        }
        connection.onOutputsChanged = { [unowned self] in window.outputsChanged() }
        window.onFrame = { [unowned self] in
            showUnshown()
            if frameWanted { giveFrame() }
        }
        window.onResize = { [unowned self] width, height in
            connection.seat?.outputResized(width: width, height: height)
            logger.info("window resized to \(width)x\(height)")
            outputChanged()
        }
        window.onScale = { [unowned self] scale in
            logger.info("window scale \(scale)")
            outputChanged()
        }
        window.onClose = { [unowned self] in
            self.presentation?.ended(status: 0, reason: "the window was closed: shutting down")
        }
        window.onBufferReleased = { [unowned self] in showUnshown() }
        if !window.mayMap {
            mapTimer = loop.addTimer { [unowned self] in
                logger.warning(
                    "no client mapped a window in \(Self.firstWindowWait / 1000) s: showing the window empty")
                windowMapped()
            }
            mapTimer?.arm(milliseconds: Self.firstWindowWait)
        }
        source = loop.addFD(connection.fileDescriptor, events: .readable) { [unowned self] mask in
            if mask.contains(.hangup) || mask.contains(.error) { connection.hangUp() } else { connection.readEvents() }
        }
        connection.flush()
    }

    func scheduleFrame() {
        guard !frameWanted, !stopped else { return }
        frameWanted = true
        // The parent's frame callback gives the next frame; without one pending, our own clock.
        guard !window.waitingForParentFrame else { return }
        let now = monotonic.microseconds() * 1000
        let next = clock.nextTick(after: now)
        timer?.arm(milliseconds: TimerRounding.milliseconds(afterNanoseconds: next - now))
    }

    private func giveFrame() {
        guard frameWanted, !stopped else { return }
        frameWanted = false
        timer?.arm(milliseconds: 0)
        presentation?.frameDue()
    }

    func present(_ framebuffer: Framebuffer) {
        guard !stopped else { return }
        window.framePainted(damage: framebuffer.repainted)
        painted = framebuffer
        unshown = !window.present(framebuffer.pixels)
    }

    /// A frame painted while the window could not take it (every buffer held, or not mapped yet).
    private func showUnshown() {
        guard unshown, let painted, !stopped else { return }
        unshown = !window.present(painted.pixels)
    }

    func windowMapped() {
        mapTimer?.remove()
        mapTimer = nil
        guard !window.mayMap else { return }
        window.allowMap()
        if painted != nil {
            unshown = true
            showUnshown()
        }
        scheduleFrame()
    }

    /// The teardown's last step: the window and the connection go.
    func stop() {
        guard !stopped else { return }
        stopped = true
        input.stop()
        timer?.remove()
        mapTimer?.remove()
        source?.remove()
        window.destroy()
        connection.destroy()
    }
}
