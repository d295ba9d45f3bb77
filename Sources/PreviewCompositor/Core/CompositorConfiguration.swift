import LibinputBackend
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
    public var input: InputSelection = .none
    public var output: OutputSelection = .headless
    /// The compositor a `.wayland` output opens its window on: a socket name or path; nil:
    /// WAYLAND_SOCKET / WAYLAND_DISPLAY of our environment, as every Wayland client reads them.
    public var parentDisplay: String?
    /// Replay recordings as fast as the event loop allows instead of on their own clock.
    public var fast = false
    /// Replay: input starts when a client maps a window, or after this long without one.
    public var mapTimeoutMilliseconds: Int32 = 10_000
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
    /// The preview-interaction version advertised (version 2 only where a host opts in).
    public var previewProtocolVersion: Int32 = PreviewInteractionServer.version
    public var keyboardLayout: String?
    /// SIGINT/SIGTERM (shut down), SIGUSR1 (screenshot), SIGCHLD (reap --run children) through
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
    /// --replay waits at most this long between two events (a recording may hold any gap).
    public var longestReplayGapMilliseconds: Int32 = 10_000

    /// Where device events come from (Backends/Input).
    public enum InputSelection: Sendable, Equatable {
        /// Headless: no keyboard, pointer or contacts at all.
        case none
        case replay([String])
        case libinput(seat: String)
        /// Devices the host drives itself through `Compositor.injectedInput` (WLCS).
        case injected
    }

    /// Where frames go (Backends/Output).
    public enum OutputSelection: String, Sendable, Equatable, CaseIterable {
        /// Off-screen: the framebuffer, read by screenshots.
        case headless
        /// A window on the Wayland compositor we run in (WAYLAND_DISPLAY / WAYLAND_SOCKET),
        /// fed by its seat: pointer, keyboard, touch and tablet-v2 pens with their pressure.
        case wayland

        /// As wlroots chooses: a window when our own environment names a Wayland compositor
        /// (WAYLAND_DISPLAY or WAYLAND_SOCKET set and not empty), headless otherwise.
        public static func automatic(environment: [String: String]) -> OutputSelection {
            let named = ["WAYLAND_DISPLAY", "WAYLAND_SOCKET"].contains { !(environment[$0] ?? "").isEmpty }
            return named ? .wayland : .headless
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

/// Why the compositor cannot start or had to stop: one line each, for the user.
public enum CompositorError: Error, CustomStringConvertible, Equatable {
    case noRuntimeDirectory
    case socketInUse(String)
    case noFreeSocket
    case socketFailed(String, String)
    case unreadableRecording(String, String)
    /// A recording that is not one: its `file:line: reason`.
    case invalidRecording(String)
    case libinputUnavailable(String)
    case outputTooLarge(Int32, Int32)
    case keymap(String)
    case screenshotDirectory(String, String)
    case trace(String, String)
    case runFailed(String, String)
    case parent(String)
    /// The settings file is unreadable or wrong: `path:line: reason`.
    case settings(String)

    public var description: String {
        switch self {
        case .noRuntimeDirectory: "XDG_RUNTIME_DIR is not set: there is nowhere to put the Wayland socket"
        case .socketInUse(let name): "the Wayland socket \(name) is already in use by another compositor"
        case .noFreeSocket: "no free wayland-N socket name in XDG_RUNTIME_DIR"
        case .socketFailed(let name, let reason): "cannot create the Wayland socket \(name): \(reason)"
        case .unreadableRecording(let path, let reason): "cannot read recording \(path): \(reason)"
        case .invalidRecording(let reason): reason
        case .libinputUnavailable(let reason): "cannot use libinput: \(reason)"
        case .outputTooLarge(let w, let h): "cannot allocate a \(w)x\(h) output"
        case .keymap(let reason): "cannot build the keymap: \(reason)"
        case .screenshotDirectory(let path, let reason): "cannot use screenshot directory \(path): \(reason)"
        case .trace(let path, let reason): "cannot write trace \(path): \(reason)"
        case .runFailed(let command, let reason): "cannot run \(command): \(reason)"
        case .parent(let reason): reason
        case .settings(let reason): reason
        }
    }
}
