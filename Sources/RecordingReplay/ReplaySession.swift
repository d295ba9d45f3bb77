import InputEvents
import LibinputRecording
import PreviewEngine
import PreviewTrace

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

/// Drives one engine from decoded device events: one virtual output of `outputSize` logical
/// pixels with one surface covering it; absolute devices map onto it, touchpads and mice move a
/// cursor. Should-begin is answered "yes" at once; the engine's timers fire in replay time.
public struct ReplaySession<Clock: ReplayClock> {
    public private(set) var engine: InteractionEngine
    public private(set) var cursor: Point
    public private(set) var summary = ReplaySummary()
    public let outputSize: (width: Double, height: Double)
    public let surface = SurfaceID(1)
    private var clock: Clock
    private var timer: Timestamp?
    private var names: [DeviceID: String] = [:]
    private var sources: [DeviceID: InputSource] = [:]
    private let verbose: Bool
    private let emit: (TraceRecord) -> Void
    private let note: (String) -> Void
    private var seen = Set<InteractionID>()
    /// Devices with FF_HAPTIC: the clicks a compositor in host mode would play on them.
    private var clicks: [DeviceID: HapticClicks] = [:]
    private let played: (HapticRecord) -> Void
    /// What force means on the one surface (`--behaviour`): contacts that begin take it.
    public var behaviour: PressureBehaviour = .deepClick
    /// The device column of human lines: the longest name, never cut.
    public let nameWidth: Int

    public init(
        configuration: EngineConfiguration, devices: [ReplayDevice], outputSize: (width: Double, height: Double),
        clock: Clock, verbose: Bool, emit: @escaping (TraceRecord) -> Void, note: @escaping (String) -> Void,
        played: @escaping (HapticRecord) -> Void = { _ in }
    ) {
        self.played = played
        engine = InteractionEngine(configuration: configuration)
        self.outputSize = outputSize
        cursor = Point(x: outputSize.width / 2, y: outputSize.height / 2)
        self.clock = clock
        self.verbose = verbose
        self.emit = emit
        self.note = note
        nameWidth = TraceColumns.nameWidth(for: devices.map(\.name))
        for device in devices {
            names[device.id] = device.name
            if let source = device.kind.source { sources[device.id] = source }
            if device.haptic { clicks[device.id] = HapticClicks() }
        }
    }

    /// The click a haptic device plays for one of its events or phases, reported to `played`.
    private mutating func haptic(
        _ device: DeviceID, _ moment: (inout HapticClicks) -> HapticMoment?, at time: Timestamp
    ) {
        guard clicks[device] != nil, let moment = moment(&clicks[device]!) else { return }
        played(HapticRecord(device: name(device), effect: moment.rawValue, waveform: moment.waveform, time: time))
    }

    private func name(_ device: DeviceID) -> String { names[device] ?? device.description }

    /// A device that arrived after the session started (a live seat's hotplug).
    public mutating func add(_ device: ReplayDevice) {
        names[device.id] = device.name
        if let source = device.kind.source { sources[device.id] = source }
        if device.haptic { clicks[device.id] = HapticClicks() }
    }

    /// Fires every engine timer due up to `time`.
    public mutating func advance(to time: Timestamp) {
        var guardCount = 0
        while let due = timer, due <= time, guardCount < 100_000 {
            guardCount += 1
            timer = nil
            clock.wait(until: due)
            var actions = Actions()
            engine.timerFired(at: due, into: &actions)
            perform(actions)
        }
    }

    /// One decoded event: timers due before it fire first.
    public mutating func handle(_ event: DeviceEvent) {
        let time = event.time
        advance(to: time)
        clock.wait(until: time)
        summary.lastTime = max(summary.lastTime, time)
        switch event {
        case .contactBegan(let contact):
            summary.contacts += 1
            summary.peakForce = max(summary.peakForce, contact.force)
            summary.devices[contact.key.device, default: DeviceActivity()].contacts += 1
            summary.devices[contact.key.device, default: DeviceActivity()].raise(contact.force)
            if verbose { note(transition("CONTACT_BEGIN", contact)) }
            feed(event, at: location(of: contact))
        case .contactChanged(let contact):
            summary.peakForce = max(summary.peakForce, contact.force)
            summary.devices[contact.key.device, default: DeviceActivity()].raise(contact.force)
            feed(event, at: location(of: contact))
        case .contactEnded(let key, let time, let reason):
            if verbose {
                note("\(columns(key.device, "CONTACT_END", time))contact \(key.contact)  \(reason)")
            }
            feed(event, at: cursor)
            haptic(key.device, { $0.moment(for: event) }, at: time)
        case .button(let key):
            haptic(key.device, { $0.moment(for: event) }, at: time)
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
    public mutating func finish(at time: Timestamp) {
        advance(to: time)
        var rounds = 0
        while let due = timer, rounds < 1_000 {
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

    /// A contact event to the engine, its actions performed (in a buffer on the stack, read by
    /// index: the per-event path copies no `Actions`).
    private mutating func feed(_ event: DeviceEvent, at location: Point) {
        var actions = Actions()
        if engine.apply(event, location: location, surface: surface, behaviour: behaviour, into: &actions) {
            perform(actions)
        }
    }

    private mutating func perform(_ actions: Actions) {
        for index in actions.indices {
            let action = actions[index]
            switch action {
            case .askShouldBegin(let update):
                count(update)
                if verbose, let record = TraceRecord(action, device: name(update.contact.device)) { emit(record) }
                var answers = Actions()
                engine.clientAnswered(update.interaction, accept: true, at: update.time, into: &answers)
                perform(answers)
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
                haptic(update.contact.device, { $0.moment(for: event, at: update.time) }, at: update.time)
            case .scheduleTimer(let time):
                timer = time
            }
        }
    }

    private mutating func count(_ update: PhaseUpdate) {
        guard seen.insert(update.interaction).inserted else { return }
        summary.interactions = seen.count
        summary.devices[update.contact.device, default: DeviceActivity()].interactions += 1
    }

    /// The device, kind and time columns, as the phase lines have them.
    private func columns(_ device: DeviceID, _ kind: String, _ time: Timestamp) -> String {
        TraceColumns.prefix(name: name(device), nameWidth: nameWidth, kind: kind, time: time)
    }

    private func transition(_ what: String, _ contact: DeviceContact) -> String {
        let at = location(of: contact)
        return "\(columns(contact.key.device, what, contact.time))contact \(contact.key.contact)  "
            + (contact.hasForce ? "force \(Fixed.format(contact.force, digits: 3))" : "no force (long press)")
            + "  at (\(Fixed.format(at.x, digits: 1)), \(Fixed.format(at.y, digits: 1)))"
    }
}
