import LibinputBackend
import Logging
import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// Everything the command line selects; tests build one directly.
public struct CompositorConfiguration: Sendable {
    /// nil: the first free wayland-N in $XDG_RUNTIME_DIR. Tests that only hand the
    /// compositor client fds can set `listen` to false and open no socket at all.
    public var socketName: String?
    public var listen = true
    public var outputWidth: Int32 = 1280
    public var outputHeight: Int32 = 800
    /// `.wayland`: the window shrinks to fit the parent's output when the output size above
    /// would not fit there (false: the size was asked for, the parent may still configure another).
    public var windowFitsParentOutput = true
    public var refreshMilliHertz: Int32 = 60_000
    /// The backends (Backends/), each with its own options: `.replay(...)`, `.wayland(...)`, or
    /// what a `BackendRegistry` made of the command line.
    public var input: InputSelection = .none
    public var output: OutputSelection = .headless
    public var screenshotDirectory: String?
    public var tracePath: String?
    public var exitWhenDone = false
    /// A shell command started with WAYLAND_DISPLAY set once the socket listens.
    public var runCommand: String?
    public var engine = EngineConfiguration()
    /// The keys that begin a keyboard interaction (protocol version 2): Menu and Shift+F10
    /// unless the user chose others; empty: none.
    public var previewKeys = PreviewKeyBinding.defaults
    /// The user's settings file (`SettingsFile`): applied over `engine` and `previewKeys` at
    /// start and on SIGHUP (`Compositor.reloadSettings()`).
    public var settingsPath: String?
    /// Look Up (docs/look-up.md): `enabled` nil means on when an accessibility bus is there.
    public var lookup = LookupSettings()
    /// preview-lookup's path; nil: beside this executable.
    public var lookupExecutable: String?
    /// The preview-interaction version advertised (version 2 only where a host opts in).
    public var previewProtocolVersion: Int32 = PreviewInteractionServer.version
    public var keyboardLayout: String?
    /// SIGINT/SIGTERM (shut down), SIGUSR1 (screenshot), SIGHUP (settings file) through
    /// the event loop. Only for the process's one compositor: `CompositorThread` turns it off.
    public var handleSignals = true
    /// A toplevel's or popup's buffer is accepted before its first configure was acked (or even
    /// sent), mapping it with that commit, as Mir does; xdg-shell makes that `unconfigured_buffer`.
    /// Off everywhere but the WLCS module: WLCS 1.5.0's helpers and many of its tests attach a
    /// window's buffer that early (its helper acks first since WLCS 1.7).
    public var toleratesBufferBeforeFirstAck = false
    /// The user's haptics on pads with FF_HAPTIC (--libinput): host-mode clicks at this
    /// intensity, or none at all (`off`: the pad keeps its own clicks).
    public var haptics: HapticIntensity = .medium
    /// Log engine transitions; the trace also gets should-begin lines.
    public var verbose = false
    /// Where every part of the compositor reads the time (tests step a `ManualClock`).
    public var clock = MonotonicClock.system
    /// A client whose socket stays full this long (it stopped reading) is disconnected.
    public var stalledClientMilliseconds: Int32 = 500

    /// Where device events come from (Backends/Input): a backend's name and how to make it with
    /// its options. Each backend's folder adds its own (`.replay`, `.libinput`, `.injected`).
    public struct InputSelection: Sendable {
        public let name: String
        let make: @Sendable (BackendContext) throws(CompositorError) -> (any InputBackend)?

        public init(
            name: String, make: @escaping @Sendable (BackendContext) throws(CompositorError) -> any InputBackend
        ) {
            self.name = name
            self.make = { context throws(CompositorError) in try make(context) }
        }

        private init(none: Void) {
            name = "none"
            make = { _ in nil }
        }

        /// Headless: no keyboard, pointer or contacts at all (a window's output brings its seat).
        public static let none = InputSelection(none: ())
    }

    /// Where frames go (Backends/Output): a backend's name and how to make it with its options.
    public struct OutputSelection: Sendable {
        public let name: String
        let make: @Sendable (BackendContext) throws(CompositorError) -> any OutputBackend

        public init(
            name: String, make: @escaping @Sendable (BackendContext) throws(CompositorError) -> any OutputBackend
        ) {
            self.name = name
            self.make = make
        }
    }

    public init() {}

    /// How long (µs) the compositor waits for a client that is slow but not gone: a replay
    /// paused for its should-begin answer, `exitWhenDone` for its last pong. 5 s, or the
    /// should-begin timeout and a margin (for the engine's own timer) if the user allows longer.
    var clientPatience: Int64 {
        max(5_000_000, min(engine.shouldBeginTimeout.microseconds, 60_000_000) + 100_000)
    }
}

/// What a backend is made with, before the socket opens: the configuration's general options
/// (output size and refresh, the clock, haptics, --run) and the logger.
public struct BackendContext {
    public let configuration: CompositorConfiguration
    public let logger: Logger
    /// The compositor's one clock.
    public var clock: MonotonicClock { configuration.clock }
}

/// Why the compositor cannot start or had to stop: one line each, for the user.
public enum CompositorError: Error, CustomStringConvertible, Equatable {
    case noRuntimeDirectory
    case socketInUse(String)
    case noFreeSocket
    case socketFailed(String, String)
    case outputTooLarge(Int32, Int32)
    case keymap(String)
    case screenshotDirectory(String, String)
    case trace(String, String)
    case runFailed(String, String)
    /// The settings file is unreadable or wrong: `path:line: reason`.
    case settings(String)
    /// A backend cannot start: its own error (the backend's folder defines it), one line.
    case backend(BackendFailure)

    /// A backend's error as the compositor's.
    public static func backend(_ error: some Error & CustomStringConvertible & Sendable) -> CompositorError {
        .backend(BackendFailure(error))
    }

    public var description: String {
        switch self {
        case .noRuntimeDirectory: "XDG_RUNTIME_DIR is not set: there is nowhere to put the Wayland socket"
        case .socketInUse(let name): "the Wayland socket \(name) is already in use by another compositor"
        case .noFreeSocket: "no free wayland-N socket name in XDG_RUNTIME_DIR"
        case .socketFailed(let name, let reason): "cannot create the Wayland socket \(name): \(reason)"
        case .outputTooLarge(let w, let h): "cannot allocate a \(w)x\(h) output"
        case .keymap(let reason): "cannot build the keymap: \(reason)"
        case .screenshotDirectory(let path, let reason): "cannot use screenshot directory \(path): \(reason)"
        case .trace(let path, let reason): "cannot write trace \(path): \(reason)"
        case .runFailed(let command, let reason): "cannot run \(command): \(reason)"
        case .settings(let reason): reason
        case .backend(let failure): failure.description
        }
    }
}

/// What a backend threw when it could not start: its own error, kept for those who know the
/// backend (`error as? ReplayError`), and its one line for everyone else.
public struct BackendFailure: Error, CustomStringConvertible, Equatable, Sendable {
    public let error: any Error & CustomStringConvertible & Sendable

    public init(_ error: some Error & CustomStringConvertible & Sendable) { self.error = error }

    public var description: String { error.description }

    public static func == (left: BackendFailure, right: BackendFailure) -> Bool {
        type(of: left.error) == type(of: right.error) && left.description == right.description
    }
}
