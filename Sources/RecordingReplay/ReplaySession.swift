import InputEvents
import LibinputRecording
import PreviewEngine
import PreviewLog
import PreviewProtocolServer
import PreviewTrace
import WaylandServer

/// Waits until a replay time has come: not at all (virtual clock, as fast as possible) or in
/// step with the recording (`--realtime`).
public protocol ReplayClock {
    mutating func wait(until time: Timestamp)
}

/// As fast as possible: time is whatever the recording says.
public struct VirtualClock: ReplayClock {
    public init() {}
    public mutating func wait(until time: Timestamp) {}
}

/// What a replay saw, for the summary and the tests.
public struct ReplaySummary: Hashable, Sendable {
    public var contacts = 0
    public var interactions = 0
    public var previews = 0
    public var completed = 0
    public var cancelled: [CancelReason: Int] = [:]
    /// Highest force a contact reported (sensor force, before the engine).
    public var peakForce = 0.0
    public var peakProgress = 0.0
    public var lastTime = Timestamp(microseconds: 0)
    /// Per device: what it did, for `--verbose`'s "why nothing happened".
    public var devices: [DeviceID: DeviceActivity] = [:]

    public init() {}
}

/// What one device did in a replay.
public struct DeviceActivity: Hashable, Sendable {
    public var contacts = 0
    public var interactions = 0
    /// Highest sensor force of its contacts.
    public var peakForce = 0.0

    public init() {}

    mutating func raise(_ force: Double) { peakForce = max(peakForce, force) }
}

/// Replays decoded device events through the host core (`InteractionDriver`), as a compositor
/// does, over one virtual output of `outputSize` logical pixels with one surface of the host's own
/// covering it (every press there an interaction, accepted at once: there is no client);
/// absolute devices map onto it, touchpads and mice move a cursor. The core's clock is the
/// replay's: it is set to each event's time, and the engine's timers due before an event fire
/// first, in replay time (`Clock` waits for them, or not). What the core decides is reported:
/// the phases (`emit`), the haptic moments of devices with `FF_HAPTIC` (`played`, decided by the
/// core from the pad's buttons, the commit and the lift, as for a compositor's pad).
public final class ReplaySession<Clock: ReplayClock> {
    public private(set) var cursor: Point
    /// What the replay saw so far.
    public var summary: ReplaySummary { host.summary }
    public let outputSize: (width: Double, height: Double)
    public let surface = SurfaceID(1)
    /// What force means on the one surface (`--behaviour`): contacts that begin take it.
    public var behaviour: PressureBehaviour = .deepClick {
        didSet { driver.ownSurface(surface, behaviour: behaviour) }
    }
    /// The device column of human lines: the longest name, never cut.
    public let nameWidth: Int
    private var clock: Clock
    private let time: ReplayTime
    private let display: Display
    private let host: ReplayHost
    private let driver: InteractionDriver
    private let verbose: Bool
    private let note: (String) -> Void

    /// Throws when the host core cannot be made (no Wayland display: out of memory).
    public init(
        configuration: EngineConfiguration, devices: [ReplayDevice], outputSize: (width: Double, height: Double),
        clock: Clock, verbose: Bool, emit: @escaping (TraceRecord) -> Void, note: @escaping (String) -> Void,
        played: @escaping (HapticRecord) -> Void = { _ in }
    ) throws(ReplaySessionError) {
        self.outputSize = outputSize
        cursor = Point(x: outputSize.width / 2, y: outputSize.height / 2)
        self.clock = clock
        self.verbose = verbose
        self.note = note
        nameWidth = TraceColumns.nameWidth(for: devices.map(\.name))
        let time = ReplayTime()
        self.time = time
        let host = ReplayHost(verbose: verbose, emit: emit, played: played)
        self.host = host
        do {
            display = try Display(clock: MonotonicClock { time.microseconds })
            driver = try InteractionDriver(
                display: display, configuration: configuration, handler: host,
                logger: .discarding)
        } catch {
            throw ReplaySessionError(description: "the host core could not start: \(error)")
        }
        driver.ownSurface(surface, behaviour: behaviour)
        for device in devices { add(device) }
    }

    deinit {
        driver.close(hearingClients: false)
        display.destroy()
    }

    /// A device that arrived after the session started (a live seat's hotplug).
    public func add(_ device: ReplayDevice) {
        host.names[device.id] = device.name
        guard device.haptic else { return }
        host.pads.insert(device.id)
        driver.hapticPadAdded(device.id, clicksFollow: .buttons)
    }

    /// Fires every engine timer due up to `time`, each at its own time.
    public func advance(to time: Timestamp) {
        var guardCount = 0
        while let due = driver.nextDeadline, due <= time, guardCount < 100_000 {
            guardCount += 1
            clock.wait(until: due)
            self.time.microseconds = max(self.time.microseconds, due.microseconds)
            driver.runDueTimers()
        }
        self.time.microseconds = max(self.time.microseconds, time.microseconds)
    }

    /// One decoded event: timers due before it fire first.
    public func handle(_ event: DeviceEvent) {
        let time = event.time
        advance(to: time)
        clock.wait(until: time)
        host.summary.lastTime = max(host.summary.lastTime, time)
        switch event {
        case .contactBegan(let contact):
            host.summary.contacts += 1
            host.summary.peakForce = max(host.summary.peakForce, contact.force)
            host.summary.devices[contact.key.device, default: DeviceActivity()].contacts += 1
            host.summary.devices[contact.key.device, default: DeviceActivity()].raise(contact.force)
            if verbose { note(transition("CONTACT_BEGIN", contact)) }
            _ = try? driver.contactBegan(
                contact.key, source: contact.source, at: location(of: contact), over: SurfaceHit(surface: surface),
                force: contact.hasForce ? contact.force : nil, time: contact.time)
        case .contactChanged(let contact):
            host.summary.peakForce = max(host.summary.peakForce, contact.force)
            host.summary.devices[contact.key.device, default: DeviceActivity()].raise(contact.force)
            _ = try? driver.contactMoved(contact.key, to: location(of: contact), force: contact.force, at: contact.time)
        case .contactEnded(let key, let time, let reason):
            if verbose {
                note("\(columns(key.device, "CONTACT_END", time))contact \(key.contact)  \(reason)")
            }
            _ = try? driver.contactEnded(key, at: time, reason: reason)
        case .button(let key):
            driver.buttonChanged(key)
        case .pointerMotion(let motion):
            cursor.x = min(outputSize.width, max(0, cursor.x + motion.dx))
            cursor.y = min(outputSize.height, max(0, cursor.y + motion.dy))
        case .toolProximity(let state, let inProximity):
            if verbose {
                note(
                    "\(columns(state.device, inProximity ? "PROXIMITY_IN" : "PROXIMITY_OUT", state.time))\(state.axes.tool)"
                )
            }
        case .toolMotion, .scroll, .key, .frame:
            break
        }
    }

    /// The end of the input: remaining timers up to `time`, then any that the last events
    /// scheduled (bounded, in case the engine keeps asking).
    public func finish(at time: Timestamp) {
        advance(to: time)
        var rounds = 0
        while let due = driver.nextDeadline, rounds < 1_000 {
            rounds += 1
            advance(to: due)
        }
    }

    private func location(of contact: DeviceContact) -> Point {
        switch contact.positioning {
        case .absolute: Point(x: contact.position.x * outputSize.width, y: contact.position.y * outputSize.height)
        case .cursor: cursor
        }
    }

    /// The device, kind and time columns, as the phase lines have them.
    private func columns(_ device: DeviceID, _ kind: String, _ time: Timestamp) -> String {
        TraceColumns.prefix(name: host.name(device), nameWidth: nameWidth, kind: kind, time: time)
    }

    private func transition(_ what: String, _ contact: DeviceContact) -> String {
        let at = location(of: contact)
        return "\(columns(contact.key.device, what, contact.time))contact \(contact.key.contact)  "
            + (contact.hasForce ? "force \(Fixed.format(contact.force, digits: 3))" : "no force (long press)")
            + "  at (\(Fixed.format(at.x, digits: 1)), \(Fixed.format(at.y, digits: 1)))"
    }
}

/// The host core could not be made for a replay.
public struct ReplaySessionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
}

/// The replay's clock, as the host core reads it: set by the session, never by the machine.
final class ReplayTime: @unchecked Sendable {
    var microseconds: Int64 = 0
}

/// What the host core tells the replay: the phases it would send a client, the haptic moments
/// it decided. There is no client and no core input: the host's surface answers for itself.
final class ReplayHost: InteractionDriverHandler {
    var names: [DeviceID: String] = [:]
    /// Devices with `FF_HAPTIC`: the moments the core decides for them are played.
    var pads: Set<DeviceID> = []
    var summary = ReplaySummary()
    private var seen = Set<InteractionID>()
    private let verbose: Bool
    private let emit: (TraceRecord) -> Void
    private let played: (HapticRecord) -> Void

    init(verbose: Bool, emit: @escaping (TraceRecord) -> Void, played: @escaping (HapticRecord) -> Void) {
        self.verbose = verbose
        self.emit = emit
        self.played = played
    }

    func name(_ device: DeviceID) -> String { names[device] ?? device.description }

    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? { nil }
    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? { nil }

    func willPerform(_ action: Action) {
        switch action {
        case .askShouldBegin(let update):
            count(update)
            if verbose, let record = TraceRecord(action, device: name(update.contact.device)) { emit(record) }
        case .phase(let event, let update):
            count(update)
            switch event {
            case .previewBegan, .previewProgress, .previewEnded:
                summary.previews += 1
                summary.peakProgress = max(summary.peakProgress, update.progress)
            case .commitProgress, .stage: break
            case .completed: summary.completed += 1
            case .cancelled(let reason): summary.cancelled[reason, default: 0] += 1
            }
            if let record = TraceRecord(action, device: name(update.contact.device)) { emit(record) }
        case .scheduleTimer:
            break
        }
    }

    func hasHaptics(_ contact: ContactKey) -> Bool { pads.contains(contact.device) }

    func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp) {
        guard pads.contains(device) else { return }
        played(HapticRecord(device: name(device), effect: moment.rawValue, waveform: moment.waveform, time: time))
    }

    private func count(_ update: PhaseUpdate) {
        guard seen.insert(update.interaction).inserted else { return }
        summary.interactions = seen.count
        summary.devices[update.contact.device, default: DeviceActivity()].interactions += 1
    }
}
