import CWaylandServer
import InputEvents
import Logging
import PreviewEngine
import PreviewProtocolServer
import SystemLayer
import WaylandServer

/// The compositor as a library: tests create one (or a `CompositorThread`), hand it client
/// sockets, run it and stop it; the executable is a thin shell. It makes its concerns (the
/// scene, the seat, window placement, the host core's side, the output and input with their
/// backends: `InputBackend`, `OutputBackend`), each given only what it needs, wires them
/// (`Compositor+Windows.swift` hands what the resources and the seat say to them), and runs
/// and tears them down. Single-threaded: everything happens on the thread that calls
/// `run()`/`dispatch`.
public final class Compositor {
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
    /// The host core's side here (the interaction, Look Up's input, a replay's pacing).
    let interaction: InteractionHost
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
    /// Pictures of the output; nil without --screenshot-dir.
    let screenshots: ScreenshotWriter?
    /// The phase screenshots (docs/compositor.md, "Screenshot moments"); nil without --screenshot-dir.
    let phaseScreenshots: PhaseScreenshots?
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
        if let directory = configuration.screenshotDirectory { try Preflight.screenshotDirectory(directory) }
        let scene = Scene(output: output.framebuffer.bounds)
        self.scene = scene
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
        popupGrabs = PopupGrabs(seat: seat, scene: scene, surfaces: surfaces)
        tiling = Tiling(scene: scene, output: output, seat: seat)
        let screenshots = configuration.screenshotDirectory.map {
            ScreenshotWriter(directory: $0, output: output, scene: scene)
        }
        self.screenshots = screenshots
        let loop = display.eventLoop
        phaseScreenshots = screenshots.map {
            PhaseScreenshots(writer: $0, clock: configuration.clock, logger: logger, loop: loop)
        }
        let surfaceHost = SurfaceHostReference()
        Self.advertiseGlobals(
            globals, surfaceHost: surfaceHost, seat: seat, clipboard: clipboard, exitSettling: exitSettling)
        // The host core's global after the core ones, in the order clients have always seen.
        do {
            interaction = try InteractionHost(
                configuration: configuration, display: display, socketName: socketName, logger: logger, scene: scene,
                surfaces: surfaces, seat: seat, input: input, keymap: keymap, phaseScreenshots: phaseScreenshots)
        } catch {
            // What `deinit` does, which does not run for a compositor never made whole.
            input.stop()
            exitSettling.stop()
            output.stop()
            children.terminateAll()
            globals.removeAll()
            display.destroy()
            throw error
        }
        surfaceHost.host = self
        seat.observer = self
        let sink = CompositorInputSink(
            interaction: interaction, seat: seat, scene: scene, observe: { [unowned self] in hooks.onInputEvent?($0) },
            finished: { [unowned self] in inputFinished() })
        input.attach(sink, loop: display.eventLoop)
        output.attach(to: CompositorPresentation(compositor: self, logger: logger), loop: display.eventLoop)
        if configuration.handleSignals { signals = Signals(compositor: self, logger: logger, loop: display.eventLoop) }
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

    /// The core globals. Binds reach the compositor through `surfaceHost` (set once it is whole).
    private static func advertiseGlobals(
        _ globals: WaylandGlobals, surfaceHost: SurfaceHostReference, seat: Seat, clipboard: Clipboard,
        exitSettling: ExitSettling
    ) {
        let add = globals.add
        add(cwl_interface_wl_compositor(), 4) { client, version, id in
            guard let host = surfaceHost.host else { return }
            _ = CompositorResource(host: host, client: client, version: version, id: id)
        }
        add(cwl_interface_wl_subcompositor(), 1) { client, version, id in
            _ = SubcompositorResource(client: client, version: version, id: id)
        }
        globals.addShm()
        add(cwl_interface_wl_output(), 4) { client, version, id in
            guard let host = surfaceHost.host else { return }
            _ = OutputResource(host: host, client: client, version: version, id: id)
        }
        add(cwl_interface_xdg_wm_base(), 2) { client, version, id in
            guard let wmBase = XdgWmBase(client: client, version: version, id: id) else { return }
            exitSettling.bound(wmBase)
        }
        add(cwl_interface_wl_seat(), 7) { [unowned seat] client, version, id in
            _ = SeatResource(seat: seat, client: client, version: version, id: id)
        }
        add(cwl_interface_zwp_tablet_manager_v2(), 1) { [unowned seat] client, version, id in
            _ = TabletManagerResource(seat: seat, client: client, version: version, id: id)
        }
        // Tiled windows without decorations: every toplevel is told "server side".
        add(cwl_interface_zxdg_decoration_manager_v1(), 1) { client, version, id in
            _ = DecorationManagerResource(client: client, version: version, id: id)
        }
        // The clipboard (no drag and drop).
        add(cwl_interface_wl_data_device_manager(), 3) { [unowned clipboard] client, version, id in
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
    public var replayFacts: ReplayPacer.Facts { interaction.replayFacts }

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
            busy: { [unowned self] in !interaction.isQuiet },
            settled: { [unowned self] in
                logger.info("input done and clients settled: exiting")
                stop(status: 0)
            })
    }

    /// Hands one decoded device event (timed on CLOCK_MONOTONIC) to the input path, as the
    /// input backends do: for tests and benchmarks driving the compositor directly.
    public func inject(_ event: DeviceEvent) { interaction.handle(event) }

    /// Runs `body` on the compositor's thread whenever `fd` is readable (an embedding thread's
    /// wake-up).
    func whenReadable(_ fd: Int32, _ body: @escaping () -> Void) -> EventSource? {
        display.eventLoop.addFD(fd, events: .readable) { _ in body() }
    }

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
