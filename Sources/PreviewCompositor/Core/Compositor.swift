import CWaylandServer
import InputEvents
import Logging
import PreviewEngine
import PreviewProtocolServer
import SystemLayer
import WaylandServer

/// The compositor as a library: tests create one (or a `CompositorThread`), hand it client
/// sockets, run it and stop it; the executable is a thin shell. It keeps the event loop, the
/// scene and the seat, and holds the chosen backends: where input comes from
/// (`InputBackend`: recordings, libinput) and where frames go (`OutputBackend`: headless).
/// Single-threaded: everything happens on the thread that calls `run()`/`dispatch`.
public final class Compositor: SeatObserver {
    /// As given, with the settings file's values in `engine` (the latest read of it).
    public private(set) var configuration: CompositorConfiguration
    /// The command line's settings, which the settings file overrides.
    private let userOptions: UserSettings
    let logger: Logger
    let display: Display
    /// The one clock (the display's, from the configuration): everything here reads time from it.
    var clock: MonotonicClock { configuration.clock }
    /// The socket clients connect to (nil when `listen` is false).
    public let socketName: String?
    public let scene: Scene
    public let keymap: Keymap
    // Each concern's state lives with the code that owns it; the compositor holds the concerns.
    /// wl_compositor: the live surfaces and the clients' numbers.
    let surfaces: SurfaceRegistry
    /// Where frames go (Backends/Output), the framebuffer, wl_output, frame callbacks.
    let output: CompositorOutput
    /// Where input comes from (Backends/Input) and its capabilities.
    let input: CompositorInput
    /// The globals advertised, wl_shm.
    private let globals: WaylandGlobals
    /// --exit-when-done: the clients settling after the last input.
    private let exitSettling = ExitSettling()
    /// The host core's shell (the interaction, Look Up's input, a replay's pacing).
    private(set) var interaction: InteractionHost!
    /// Input focus and core input delivery (wl_seat, tablet-v2).
    let seat: Seat
    /// The chain of grabbing popups.
    let popupGrabs: PopupGrabs
    /// Window placement and activation.
    let tiling: Tiling
    /// The selection, offered to the client with the keyboard focus.
    let clipboard = Clipboard()
    /// Look Up's drawing (Lookup/); nil when off.
    var lookup: LookupController?
    let screenshots: ScreenshotWriter?
    /// The phase screenshots (docs/compositor.md, "Screenshot moments"); nil without --screenshot-dir.
    private(set) var phaseScreenshots: PhaseScreenshots?
    private var signals: Signals?
    private var stalledClients: StalledClients?
    let children: ChildProcesses
    private(set) var exitStatus: Int32?
    /// What tests watch (called on the compositor thread).
    public var hooks = CompositorHooks()

    /// Made again when the output's mode changes (a window resized or rescaled).
    public var framebuffer: Framebuffer { output.framebuffer }
    /// What clients see of the output (wl_output).
    public var outputMode: OutputMode { output.mode }
    /// Frames painted so far (for tests and logs).
    public var framesPainted: Int { output.framesPainted }
    /// The mime types of the current selection (nil: none), for tests.
    public var selectionMimeTypes: [String]? { clipboard.selection?.mimeTypes }

    /// Checks everything that can fail for reasons outside our control, then opens the
    /// socket and advertises the globals. Throws a one-line `CompositorError`.
    public init(configuration: CompositorConfiguration, logger: Logger = Logger(label: "preview-compositor"))
        throws(CompositorError)
    {
        var configuration = configuration
        userOptions = UserSettings(
            engine: configuration.engine, previewKeys: configuration.previewKeys, lookup: configuration.lookup)
        if let path = configuration.settingsPath {
            let settings = try SettingsFile.read(path, over: userOptions)
            (configuration.engine, configuration.previewKeys) = (settings.engine, settings.previewKeys)
            configuration.lookup = settings.lookup
        }
        self.configuration = configuration
        self.logger = logger
        let runtimeDirectory = configuration.listen ? try Preflight.runtimeDirectory() : ""
        let context = BackendContext(configuration: configuration, logger: logger)
        let output = try CompositorOutput(backend: try configuration.output.make(context), configuration: configuration)
        self.output = output
        input = CompositorInput(
            backend: try configuration.input.make(context) ?? output.seatInput, outputObserver: output.windowObserver)
        surfaces = SurfaceRegistry(logger: logger)
        if let directory = configuration.screenshotDirectory {
            try Preflight.screenshotDirectory(directory)
            screenshots = ScreenshotWriter(directory: directory)
        } else {
            screenshots = nil
        }
        scene = Scene(output: output.framebuffer.bounds)
        do {
            if let text = input.keymapText, configuration.keyboardLayout == nil {
                keymap = try Keymap(text: text)
            } else {
                keymap = try Keymap(layout: configuration.keyboardLayout)
            }
        } catch {
            throw .keymap(error.description)
        }
        do {
            display = try Display(clock: configuration.clock)
        } catch {
            throw .socketFailed(configuration.socketName ?? "wayland-N", "\(error)")
        }
        globals = WaylandGlobals(display: display)
        if configuration.listen {
            if let name = configuration.socketName,
                Preflight.socketLocked(runtimeDirectory: runtimeDirectory, name: name)
            {
                throw .socketInUse(name)
            }
            do {
                socketName = try display.addSocket(configuration.socketName)
            } catch {
                if let name = configuration.socketName {
                    throw Preflight.socketLocked(runtimeDirectory: runtimeDirectory, name: name)
                        ? .socketInUse(name) : .socketFailed(name, "\(error)")
                }
                throw .noFreeSocket
            }
        } else {
            socketName = nil
        }
        children = ChildProcesses(logger: logger, loop: display.eventLoop)
        seat = Seat(
            scene: scene, surfaces: surfaces, serials: Serials(display), clock: configuration.clock, keymap: keymap)
        popupGrabs = PopupGrabs(seat: seat)
        tiling = Tiling(scene: scene, output: output, seat: seat)
        seat.observer = self
        advertiseGlobals()
        interaction = try InteractionHost(compositor: self)
        try interaction.attach(display: display)
        if screenshots != nil { phaseScreenshots = PhaseScreenshots(compositor: self, loop: display.eventLoop) }
        input.attach(CompositorInputSink(compositor: self), loop: display.eventLoop)
        output.attach(to: CompositorPresentation(compositor: self), loop: display.eventLoop)
        if configuration.handleSignals { signals = Signals(compositor: self, loop: display.eventLoop) }
        stalledClients = StalledClients(
            display: display, graceMilliseconds: configuration.stalledClientMilliseconds, logger: logger
        ) { [unowned self] in "\(surfaces.clientID(for: $0))" }
        children.onExit = { [unowned self] child, status in childExited(child, status: status) }
        if let socketName { logger.notice("listening on \(socketName)") }
    }

    /// What `shutdown()` did not release (a compositor driven by `dispatch` and dropped).
    deinit {
        input.stop()  // its timers, before the loop they are on goes
        exitSettling.stop()
        output.stop()
        signals?.remove()
        stalledClients?.stop()
        children.terminateAll()
        globals.removeAll()
        display.destroy()
    }

    private func advertiseGlobals() {
        let add = globals.add
        add(cwl_interface_wl_compositor(), 4) { [unowned self] client, version, id in
            _ = CompositorResource(compositor: self, client: client, version: version, id: id)
        }
        add(cwl_interface_wl_subcompositor(), 1) { [unowned self] client, version, id in
            _ = SubcompositorResource(compositor: self, client: client, version: version, id: id)
        }
        globals.addShm()
        add(cwl_interface_wl_output(), 4) { [unowned self] client, version, id in
            _ = OutputResource(compositor: self, client: client, version: version, id: id)
        }
        add(cwl_interface_xdg_wm_base(), 2) { [unowned self] client, version, id in
            guard let wmBase = XdgWmBase(compositor: self, client: client, version: version, id: id) else { return }
            exitSettling.bound(wmBase)
        }
        add(cwl_interface_wl_seat(), 7) { [unowned self] client, version, id in
            _ = SeatResource(seat: seat, client: client, version: version, id: id)
        }
        add(cwl_interface_zwp_tablet_manager_v2(), 1) { [unowned self] client, version, id in
            _ = TabletManagerResource(seat: seat, client: client, version: version, id: id)
        }
        // Tiled windows without decorations: every toplevel is told "server side".
        add(cwl_interface_zxdg_decoration_manager_v1(), 1) { client, version, id in
            _ = DecorationManagerResource(client: client, version: version, id: id)
        }
        // The clipboard (no drag and drop).
        add(cwl_interface_wl_data_device_manager(), 3) { [unowned self] client, version, id in
            _ = DataDeviceManagerResource(clipboard: clipboard, client: client, version: version, id: id)
        }
    }

    // MARK: running

    /// Runs until stopped (signal, `stop()`, or done with --exit-when-done). Returns the exit status.
    public func run() -> Int32 {
        start()
        while exitStatus == nil {
            display.dispatch(timeoutMilliseconds: -1)
            if !watchers.isEmpty { watchers.removeAll { $0() } }
        }
        shutdown()
        return exitStatus ?? 0
    }

    /// Checks run after every turn of the loop until they return true (state only changes in a
    /// turn): how an embedding thread waits for a state without polling (`CompositorThread.wait`).
    private var watchers: [() -> Bool] = []

    func watch(_ check: @escaping () -> Bool) {
        if !check() { watchers.append(check) }
    }

    private var started = false

    /// Starts the --run client and the input backend; `run()` calls it, tests driving
    /// `dispatch` themselves call it once.
    public func start() {
        guard !started else { return }
        started = true
        startLookup()
        if let command = configuration.runCommand {
            // No socket: the child gets its end of a socketpair.
            let started: Bool
            if socketName == nil, let fd = try? connectClient() {
                let socket = Descriptor(adopting: fd)  // ours closes once the child has its copy
                started = children.spawn(
                    command, environment: lookupSessionEnvironment(), socket: socket.rawValue, label: "--run")
            } else {
                let environment = lookupSessionEnvironment().merging(["WAYLAND_DISPLAY": socketName ?? ""]) { $1 }
                started = children.spawn(command, environment: environment, label: "--run")
            }
            if !started {
                logger.error("cannot start --run command: \(command)")
                stop(status: 1)
            }
        } else if configuration.exitWhenDone && !input.exists {
            stop(status: 0)
        }
        input.start()
    }

    /// Reads the settings file again (SIGHUP): new presses follow it and version 2 clients are
    /// told. A file that cannot be read or is wrong is logged and the current settings stay.
    public func reloadSettings() {
        guard let path = configuration.settingsPath else {
            logger.notice("settings: no --settings file to read again")
            return
        }
        do {
            let settings = try SettingsFile.read(path, over: userOptions)
            let engine = settings.engine
            (configuration.engine, configuration.previewKeys) = (engine, settings.previewKeys)
            interaction.reload(engine, previewKeys: settings.previewKeys)
            configuration.lookup = settings.lookup
            lookupSettingsChanged()
            let keys = settings.previewKeys.isEmpty ? ["none"] : settings.previewKeys.map(\.name)
            logger.notice(
                """
                settings: \(path) read: sensitivity \(engine.sensitivity.rawValue), \
                long-press \(engine.longPress.rawValue), completion \(engine.completion.rawValue), \
                preview keys \(keys.joined(separator: " "))
                """)
        } catch {
            logger.error("settings: \(error); keeping the current settings")
        }
    }

    /// What a replay's pacing reads of the host core for every event (`--fast` and
    /// `--await-clients`): a press in progress, a question open, the clients caught up.
    public var replayFacts: ReplayPacer.Facts {
        interaction.driver.replayFacts(hostCaughtUp: phaseScreenshots?.isIdle != false)
    }

    /// Called when acks arrive, screenshots are taken or a should-begin question may be settled:
    /// the host core may let a waiting replay go on.
    func clientsMayHaveCaughtUp() {
        interaction.driver.clientsMayHaveCaughtUp(hostCaughtUp: phaseScreenshots?.isIdle != false)
    }

    /// The host core says a replay's wait may end.
    func replayMayGoOn() { input.replayMayGoOn() }

    /// The engine's timer is about to handle `time`: a recording's events due by then go first.
    func deliverInput(dueBy time: Timestamp) { input.deliverDue(by: time) }

    /// Whether the input has played everything (nil for live input or none).
    public var replayFinishedAll: Bool? { input.finished }

    /// The input backend played everything. With --exit-when-done: once the engine has nothing
    /// pending, clients had 300 ms to redraw and every client has handled what it was sent, stop.
    func inputFinished() {
        guard configuration.exitWhenDone else { return }
        // Settled means every client acknowledged its frames and answered a ping sent after the
        // last input: a client handles its events in order, so it has handled the last key or
        // button (and printed what it does) before it pongs. A client that stops reading holds
        // the exit for `clientPatience` at most.
        exitSettling.start(
            loop: display.eventLoop, serial: display.nextSerial(), patience: configuration.clientPatience,
            owesAcknowledgement: { [unowned self] in interaction.awaitsAcknowledgement },
            busy: { [unowned self] in
                interaction.timerPending || interaction.contactsDown > 0 || phaseScreenshots?.isIdle == false
            },
            settled: { [unowned self] in
                logger.info("input done and clients settled: exiting")
                stop(status: 0)
            })
    }

    /// Hands one decoded device event (timed on CLOCK_MONOTONIC) to the input path, as the
    /// input backends do: for tests and benchmarks driving the compositor directly.
    public func inject(_ event: DeviceEvent) { interaction.handle(event) }

    /// Sends what is queued for clients now (the event loop does it before it sleeps).
    public func flushClients() { display.flushClients() }

    /// One turn of the event loop (tests drive the compositor with this).
    public func dispatch(timeoutMilliseconds: Int32 = 0) {
        display.dispatch(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Asks `run()` to return `status` after the current turn.
    public func stop(status: Int32 = 0) {
        if exitStatus == nil { exitStatus = status }
    }

    public var isStopped: Bool { exitStatus != nil }

    /// The one teardown path, in order: input stops, pending work settles (the last phase
    /// screenshots, the trace), children end, clients go (their resources unwind while
    /// everything they call into is alive), then the frames and signals stop.
    private func shutdown() {
        input.stop()
        exitSettling.stop()
        stalledClients?.stop()
        phaseScreenshots?.flush()
        interaction.logFlowStatistics()
        interaction.close()
        children.terminateAll()
        wl_display_destroy_clients(display.raw)
        display.flushClients()
        output.stop()
        signals?.remove()
    }

    /// A new client on a socketpair: returns the client's end (for wl_display_connect_to_fd
    /// or WAYLAND_SOCKET). The caller owns the fd.
    public func connectClient() throws -> Int32 {
        try display.connectedClientSocket().clientFD
    }

    /// `connectClient()`, also returning the compositor's side of the new client.
    public func connectClientWithHandle() throws -> (fd: Int32, client: Client) {
        let (client, fd) = try display.connectedClientSocket()
        return (fd, client)
    }

    private func childExited(_ child: ChildProcesses.Child, status: Int32) {
        logger.info("\(child.label) command exited with status \(status)")
        if child.label == "--run" && configuration.exitWhenDone {
            stop(status: status)
        }
    }

    // MARK: clients and surfaces

    /// From wl_surface.commit, once its state is applied: a phase screenshot may be due, and
    /// what is under the pointer may have changed (a new size, a subsurface moved).
    func surfaceCommitted(_ surface: SurfaceID, requestedFrame: Bool) {
        phaseScreenshots?.committed(surface: surface, requestedFrame: requestedFrame)
        seat.repick()
    }

    func surfaceDestroyed(_ surface: Surface) {
        interaction.surfaceDestroyed(surface.node.id)
        surfaces.remove(surface.node.id)
        // A window whose wl_surface goes before its toplevel leaves its column now.
        surface.xdgSurface?.toplevel?.withdraw()
        if surface.node.isMapped && scene.windows.contains(where: { $0 === surface.node.root }) {
            damage(scene.extents(of: surface.node))
            scheduleFrame()
        }
        surface.node.texture = nil
        scene.hide(surface.node)
        seat.surfaceUnmapped(surface.node)
        surface.node.discard()
    }

    // MARK: toplevels (placed by `Tiling`)

    func toplevelAppeared(_ toplevel: XdgToplevel) { tiling.appeared(toplevel) }

    func toplevelMapped(_ toplevel: XdgToplevel) {
        guard let node = toplevel.node else { return }
        scene.show(node)
        tiling.place(toplevel)
        damage(scene.extents(of: node))
        scheduleFrame()
        logger.debug(
            "toplevel \(node.id) of \(node.client) mapped at \(scene.extents(of: node)) title=\(toplevel.title)")
        if let surface = surfaces[node.id] {
            setOnOutput(surface, true)
            popupGrabs.dismissAll()  // a new window ends any menu
            seat.setKeyboardFocus(surface)
        }
        seat.repick()
        hooks.onToplevelMapped?(node.id)
        input.windowMapped()
    }

    func toplevelUnmapped(_ toplevel: XdgToplevel) {
        if let node = toplevel.node {
            if let surface = surfaces[node.id] { setOnOutput(surface, false) }
            damage(scene.extents(of: node))
            scene.hide(node)
            seat.surfaceUnmapped(node)
        }
        scheduleFrame()
        tiling.gone(toplevel)
        if seat.keyboardFocus == nil, let last = scene.toplevels.last, let surface = surfaces[last.id] {
            seat.setKeyboardFocus(surface)
        }
    }

    func toplevelCommitted(_ toplevel: XdgToplevel) { tiling.place(toplevel) }

    /// Asks a window's client to close it (xdg_toplevel.close), as a window manager's close
    /// button does; the client decides (tests close a nested compositor's window with it).
    public func requestClose(_ surface: SurfaceID) { tiling.requestClose(surface) }

    func keyboardFocusChanged(to surface: Surface?) {
        interaction.keyboardFocusChanged()
        tiling.focusChanged(to: surface)
        clipboard.focusChanged(to: surface?.client)
    }

    func pressed(on surface: Surface?) { popupGrabs.pointerPressed(on: surface) }

    func windowDragged(_ toplevel: XdgToplevel, to position: (x: Int32, y: Int32)) {
        tiling.pin(toplevel, at: position)
    }

    // MARK: output

    func damage(_ rect: Rect) { output.damage(rect) }

    /// The output has a new size or scale: a new framebuffer, the new mode to every bound
    /// wl_output, every toplevel its new column (a configure), the cursor kept inside.
    func outputModeChanged(_ mode: OutputMode) {
        switch output.change(to: mode) {
        case nil: return
        case false?:
            logger.error(
                "cannot allocate a \(mode.width)x\(mode.height) output at scale \(mode.scale): keeping the old one")
            return
        case true?:
            logger.info("output mode \(mode.width)x\(mode.height) scale \(mode.scale)")
        }
        scene.output = output.framebuffer.bounds
        tiling.outputChanged()
        seat.outputChanged()
        scheduleFrame()
    }

    /// Asks the output for a frame if anything waits for one.
    func scheduleFrame() { output.scheduleFrame() }

    /// The output's presentation time: paint the damage, show it, answer the frame callbacks.
    func frame() {
        if output.present(scene.placements(), time: clock.eventTime()) { lookup?.framePresented() }
    }

    /// The surfaces of mapped toplevels, bottom to top, with their clients and output rectangles.
    public var windows: [(surface: SurfaceID, client: ClientID, rect: Rect)] {
        scene.toplevels.map { ($0.id, $0.client, scene.extents(of: $0)) }
    }

    /// The mapped popups (menus, popovers), bottom to top, with their output rectangles.
    public var popups: [(surface: SurfaceID, client: ClientID, rect: Rect)] {
        scene.windows.filter { $0.role != .toplevel && $0.isMapped }.map { ($0.id, $0.client, scene.extents(of: $0)) }
    }
}
