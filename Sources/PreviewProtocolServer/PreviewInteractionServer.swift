import CWaylandServer
import PreviewEngine
import PreviewLog
import WaylandServer

/// The server side of preview-interaction-v1, for a host that owns the engine, the surfaces
/// and the regions. `InteractionDriver` is that host for the compositor and the C library, and
/// does all of the following; a test's minimal host does them itself.
///
/// The host's duties:
/// - before `engine.contactBegan(sample, surface:)`, pass the surface only if
///   `allowsInteraction(on:at:source:)` says so (region, sources, object present), else nil;
/// - hand every engine `Action` to `perform(_:)` (it ignores `.scheduleTimer`, the host's own);
/// - call `surfaceCommitted(_:)` from wl_surface.commit (double-buffered region/sources);
/// - implement `PreviewProtocolHost`: map wl_surface/wl_region resources, and feed
///   `PreviewClientInput`s to the engine, performing the resulting actions.
/// Everything runs on the display's thread.
public final class PreviewInteractionServer {
    /// The version advertised by default: every request and event up to it is implemented.
    public static let version: Int32 = 3
    /// Objects of this version and later have the acknowledgement window (ack_frame in the XML).
    public static let acknowledgementWindowSince: UInt32 = 3
    /// How many frames may be unacknowledged on an object of version 3 before its progress is
    /// held (the XML's number).
    public static let acknowledgementWindow: UInt32 = 16

    /// The version this server's global advertises.
    public let advertisedVersion: Int32

    /// The host that owns this server: it clears this in its teardown (`detachHost()`), and
    /// outlives the server otherwise. A host that makes its server in its own `init` passes nil
    /// and attaches itself once it is whole (`attachHost`): clients can call in only later, from
    /// the event loop.
    public private(set) unowned(unsafe) var host: PreviewProtocolHost?
    /// What the protocol objects and pending idle reports hold: nil once this server is gone.
    private(set) lazy var backlink = Backlink(self)
    let logger: Log
    private let display: Display
    /// The display's clock: every time this layer reads (answers, flow control) is from it.
    public var clock: MonotonicClock { display.clock }
    private var global: Global?
    private var objects: [SurfaceID: InteractionResource] = [:]
    /// Managers of version 2 or later: they hear the settings group again on every change.
    private var settingsListeners: [ObjectIdentifier: ManagerResource] = [:]
    /// The user's settings, sent at bind and on every change to managers of version 2 or later.
    public var settings = PreviewSettings() {
        didSet {
            guard settings != oldValue else { return }
            for manager in settingsListeners.values { manager.send(settings) }
            if settings.haptics != oldValue.haptics {
                for object in objects.values { object.hapticsMayHaveChanged() }
            }
        }
    }
    /// Live protocol objects (managers and interaction objects), for leak checks in tests.
    public private(set) var liveManagers = 0
    public var liveInteractionObjects: Int { objects.count }
    /// A client that has owed an ack_frame for this long is not asked should_begin (flow
    /// control: it is not reading, so nothing more is queued for it). 0: any unacknowledged
    /// frame counts (tests use it to be independent of time).
    public var unresponsiveAfter = Timestamp.Duration.milliseconds(150)
    /// Observers of the frame flow (the compositor's screenshot moments): a frame event about
    /// an interaction was sent to the client of a surface with this serial, and the client
    /// sent ack_frame with a serial: every one, repeats of older serials included (the most
    /// recent ack before a wl_surface.commit names the last frame that commit shows, see
    /// ack_frame in the XML). Serials count per interaction object.
    public var onFrameSent: ((SurfaceID, InteractionID, UInt32) -> Void)?
    public var onFrameAcknowledged: ((SurfaceID, UInt32) -> Void)?
    /// How flow control treated every progress value performed so far (all clients).
    public internal(set) var flowStatistics = FlowStatistics()

    public init(
        display: Display, host: PreviewProtocolHost?, logger: Log = .discarding,
        advertising version: Int32 = PreviewInteractionServer.version
    ) throws(WaylandServerError) {
        advertisedVersion = version
        self.display = display
        self.host = host
        self.logger = logger
        global = Global(
            display: display, interface: cwl_interface_spi_preview_interaction_manager_v1(), version: version
        ) { [unowned(unsafe) self] client, version, id in
            // Unretained: the global is this server's, removed when it goes.
            guard let manager = ManagerResource(client: client, version: version, id: id, server: self)
            else { return }
            liveManagers += 1
            if version >= UInt32(SPI_PREVIEW_INTERACTION_MANAGER_V1_SETTINGS_DONE_SINCE_VERSION) {
                settingsListeners[ObjectIdentifier(manager)] = manager
                manager.send(settings)
            }
        }
        guard global != nil else { throw WaylandServerError("cannot create the preview interaction global") }
    }

    deinit { backlink.invalidate() }

    public func attachHost(_ host: PreviewProtocolHost) { self.host = host }

    /// The host is going: nothing is reported to it from now on.
    public func detachHost() { host = nil }

    /// Stops advertising the global (existing objects keep working until their clients go).
    public func removeGlobal() { global = nil }

    // MARK: host → clients

    /// True if a press at `point` (surface-local) from `source` may begin an interaction on
    /// `surface`: its client has an interaction object, the point is in its region and the
    /// source in its set.
    public func allowsInteraction(on surface: SurfaceID, at point: Point, source: InputSource) -> Bool {
        objects[surface]?.accepts(point, source: source) ?? false
    }

    /// What force means at `point` (surface-local) on `surface`: the client's list of behaviours
    /// (version 2's set_behaviour); deep click where it declared none.
    public func behaviour(on surface: SurfaceID, at point: Point) -> PressureBehaviour {
        objects[surface]?.behaviour(at: point) ?? .deepClick
    }

    /// Where a keyboard interaction on `surface` begins (surface-local): the client's focus
    /// point, or the default point of its region; nil when the surface has no object.
    public func keyboardPoint(on surface: SurfaceID, surfaceSize: Point) -> Point? {
        objects[surface]?.keyboardPoint(surfaceSize: surfaceSize)
    }

    /// Performs one engine action: events go to the client of the action's surface only.
    /// Never calls the host back synchronously (declines on a client's behalf are
    /// delivered from an idle callback).
    public func perform(_ action: Action) {
        switch action {
        case .askShouldBegin(let update):
            guard let object = objects[update.surface], object.accepts(update.location, source: update.source),
                !isUnresponsive(object.client)
            else {
                declineLater(update.interaction)
                return
            }
            object.ask(update)
        case .phase(let event, let update):
            objects[update.surface]?.perform(event, update)
        case .scheduleTimer:
            break  // the host's: it owns the clock and the timer
        }
    }

    /// Performs `action`, and `next` with it when the two belong in one frame: preview_ended and
    /// the same interaction's commit progress, which the engine produces from one sample. Sent
    /// apart, the commit progress would be a progress-only frame behind the unacknowledged
    /// preview_ended frame and wait for the client's ack. Returns true when `next` went out too
    /// (the host then does not perform it again).
    @discardableResult
    public func perform(_ action: Action, joining next: Action?) -> Bool {
        guard case .phase(.previewEnded, let update) = action, case .phase(.commitProgress, let commit)? = next,
            commit.interaction == update.interaction, commit.surface == update.surface,
            let object = objects[update.surface]
        else {
            perform(action)
            return false
        }
        return object.previewEnded(update, commit: commit)
    }

    /// Applies the double-buffered state of the surface's interaction object.
    public func surfaceCommitted(_ surface: SurfaceID) {
        objects[surface]?.applyPendingState()
    }

    // MARK: resources → server

    func interactionObject(for surface: SurfaceID) -> InteractionResource? { objects[surface] }

    func register(_ object: InteractionResource) { objects[object.surface] = object }

    func objectDestroyed(_ object: InteractionResource) {
        if objects[object.surface] === object { objects[object.surface] = nil }
    }

    func managerDestroyed(_ manager: ManagerResource) {
        liveManagers -= 1
        settingsListeners[ObjectIdentifier(manager)] = nil
    }

    func report(_ input: PreviewClientInput) {
        host?.previewServer(self, received: input)
    }

    private func declineLater(_ interaction: InteractionID) {
        reportWhenIdle { .answered(interaction, accept: false, at: $0) }
    }

    /// Reports once the loop has dispatched everything it read this round (the rest of the
    /// client's batch of requests included), at the time it is reported.
    func reportWhenIdle(_ input: @escaping (Timestamp) -> PreviewClientInput) {
        let clock = clock
        let server = backlink
        display.eventLoop.addIdle {
            server.target?.report(input(Timestamp(microseconds: clock.microseconds())))
        }
    }

    /// Whether some client has not acknowledged every frame sent to it yet (it has events it
    /// has not read): a host waiting for clients to settle waits for this to turn false.
    /// Counted as objects start and stop owing, not found by scanning every object: the replay
    /// asks on every event.
    public var awaitsAcknowledgement: Bool { owingObjects > 0 }
    private var owingObjects = 0

    func owingChanged(by delta: Int) { owingObjects += delta }

    private func isUnresponsive(_ client: Client) -> Bool {
        let now = clock.microseconds()
        return objects.values.contains { object in
            guard object.client == client, let since = object.owingSince else { return false }
            return now - since >= unresponsiveAfter.microseconds
        }
    }
}
