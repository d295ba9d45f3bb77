import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// A display with the mini compositor and the preview interaction global: the host side
/// of every protocol test. Records what clients report to the engine; `react` plays the
/// engine's part when a test (or the scripted test server) wants one.
public final class ProtocolHarness: PreviewProtocolHost {
    public let display: Display
    /// A clock the test steps (`init(clock:)`): what depends on time (flow control's
    /// unresponsive client) is then decided by the test, not by the machine's load.
    public let clock: ManualClock?
    public let compositor: MiniCompositor
    public private(set) var server: PreviewInteractionServer!
    /// Every input the protocol layer reported, in order.
    public private(set) var inputs: [PreviewClientInput] = []
    /// The engine's stand-in: the actions to perform for an input.
    public var react: (PreviewClientInput) -> [Action] = { _ in [] }

    /// With `clock` nil the display runs on CLOCK_MONOTONIC, and a client owing an ack for a few
    /// milliseconds on a loaded machine never counts as unresponsive (flow-control tests that
    /// depend on it step a `ManualClock`).
    /// `version`: the protocol version the global advertises (an older compositor's).
    public init(clock: ManualClock? = nil, advertising version: Int32 = PreviewInteractionServer.version) throws {
        self.clock = clock
        display = try Display(clock: clock?.clock ?? .system)
        compositor = try MiniCompositor(display: display)
        server = try PreviewInteractionServer(display: display, host: self, advertising: version)
        if clock == nil { server.unresponsiveAfter = .milliseconds(60_000) }
        compositor.onCommit = { [unowned self] surface in self.server.surfaceCommitted(surface) }
    }

    public func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? {
        compositor.surfaceID(of: resource)
    }

    public func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? {
        compositor.region(of: resource)
    }

    public func previewServer(_ server: PreviewInteractionServer, received input: PreviewClientInput) {
        inputs.append(input)
        for action in react(input) { server.perform(action) }
    }

    /// Whether the interactions' device plays haptic effects (the haptics event of version 2).
    public var playsHaptics = false
    /// The effects clients asked for on running interactions, in order.
    public private(set) var playedHaptics: [(interaction: InteractionID, effect: AppHapticEffect)] = []

    public func hapticsAvailable(for interaction: InteractionID) -> Bool { playsHaptics }

    public func playHaptic(_ effect: AppHapticEffect, for interaction: InteractionID) {
        playedHaptics.append((interaction, effect))
    }
}

extension PhaseUpdate {
    /// A phase update with test defaults.
    public static func test(
        _ interaction: UInt32, surface: UInt64 = 1, progress: Double = 0,
        at location: Point = Point(x: 10, y: 20), time: Int64 = 1_000, source: InputSource = .touchscreen,
        simulated: Bool = false
    ) -> PhaseUpdate {
        PhaseUpdate(
            interaction: InteractionID(interaction), surface: SurfaceID(surface),
            contact: ContactKey(device: DeviceID(1)), time: Timestamp(microseconds: time), progress: progress,
            location: location, source: source, simulated: simulated)
    }
}
