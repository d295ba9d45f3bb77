import CCompositorModule
import CWaylandServer
import InputEvents
import LibinputBackend
import PreviewEngine
import PreviewLog
import PreviewProtocolServer
import SystemLayer
import WaylandServer

/// The library on one host's wl_display: a thin shell over the host core, the shared
/// `InteractionDriver` (engine, timer, protocol server, core-input gate, the contact table,
/// routing, preview keys, haptic moments). It turns the host's device and wl_surface handles
/// into the core's ids, its raw pressure into force, and what the core says into the host's
/// callbacks. Runs on the display's thread only.
final class EmbeddedContext: InteractionDriverHandler {
    static let maximumDevices = 256

    private(set) var handle: OpaquePointer?
    let display: Display
    /// The host's wl_display, claimed in `Handles` while this context lives.
    private let raw: OpaquePointer
    let host: HostCallbacks
    let logger: Log
    let logThreshold: LogThreshold
    private let thread = ThreadIdentity.current
    /// Implicitly unwrapped only because the driver is made with `self` as its handler: set in
    /// `init` (which throws otherwise) before any call can reach it, never set to nil.
    var driver: InteractionDriver!
    private var displayGone: Listener?
    /// Look Up's drawing shell, while the host has it on (the host core runs Look Up).
    var lookup: EmbeddedLookup?
    /// The user's Look Up long-press and deadline settings, kept while Look Up is off.
    var lookupLongPress = false
    var lookupDeadline = LookupConfiguration.defaultDeadline

    struct Device {
        let handle: OpaquePointer
        let id: DeviceID
        let source: InputSource
        let name: String
        /// The raw pressure range; nil: no pressure (long press).
        let pressure: (minimum: Double, maximum: Double)?
        let seat: UInt32
        /// A libinput device's kernel state, for touch pressure libinput does not report.
        let evdev: EvdevPressure?
        /// A libinput touchpad's node: a haptic pad while the user has haptics on.
        let hapticNode: String?
        var haptic: HapticPad?
        /// The host's pointer for the device (`device_set_user_data`), never read here.
        var userData: UnsafeMutableRawPointer?
        /// A pointer's or touchpad's click buttons down (`pointer_button`): bit 0 left, 1 right, 2 middle.
        var clickButtons: UInt8 = 0
    }
    var devices: [DeviceID: Device] = [:]
    private var deviceIDs: [UInt: DeviceID] = [:]
    private var nextDevice: UInt32 = 1

    /// The host's wl_surface resources we have seen, numbered, each with a destroy listener.
    private var surfaces: [UInt: (id: SurfaceID, listener: Listener)] = [:]
    private var surfaceResources: [SurfaceID: OpaquePointer] = [:]
    private var nextSurface: UInt64 = 1

    /// Calls in progress (API calls and loop callbacks): a destroy asked for inside one
    /// (from a callback) waits until the outermost returns.
    private var depth = 0
    private var destroyRequested = false
    private(set) var destroyed = false

    /// The host's choices for how it talks to the library (since 1.3).
    var timeUnit = HostTimeUnit.microseconds
    var takeAwayMode = TakeAwayMode.untilEnd
    /// Give-backs held until their contact is up (`TakeAwayMode.untilRelease`).
    var heldGiveBacks: [ContactKey: SurfaceID] = [:]
    /// Seat names the host asked numbers for: a name's number is its index.
    var seatNames: [String] = []
    /// The wl_surface.commit hook (a protocol logger on the display).
    private var commitHook: OpaquePointer?

    /// A context on the host's display, which no other context may have. The claim comes
    /// before the object: Embedded Swift does not free an instance whose initialiser throws
    /// before every property is set.
    static func attach(display raw: OpaquePointer, host: HostCallbacks) throws(Status) -> EmbeddedContext {
        guard Handles.shared.claim(display: raw) else { throw .displayInUse }
        return try EmbeddedContext(claimed: raw, host: host)
    }

    /// `raw` is claimed in `Handles`; released again when this throws.
    private init(claimed raw: OpaquePointer, host: HostCallbacks) throws(Status) {
        self.host = host
        self.raw = raw
        display = Display(attachingTo: raw, clock: host.clock)
        let threshold = LogThreshold()
        logThreshold = threshold
        logger = .host(host, threshold: threshold)
        do {
            driver = try InteractionDriver(
                display: display, configuration: EngineConfiguration(), handler: self, logger: logger)
        } catch {
            Handles.shared.release(display: raw)
            throw .wayland
        }
        // A host that destroys its display first: tear down while the loop still exists.
        // Unretained: the context owns the listener and removes it in `tearDown()`, which
        // always runs before the handle table lets the context go.
        let listener = Listener { [unowned(unsafe) self] _ in
            logger.warning("the wl_display was destroyed before preview_interaction_destroy")
            tearDown()
        }
        listener.listen(toDestroyOf: display)
        displayGone = listener
        let handle = Handles.shared.register(self)
        self.handle = handle
        commitHook = Self.hookCommits(of: raw, context: handle)
    }

    // MARK: entry

    var onDisplayThread: Bool { thread == ThreadIdentity.current }

    /// Runs `body` as one call: destroy requested inside it happens when the outermost ends.
    func entered<T>(_ body: () throws(Status) -> T) throws(Status) -> T {
        depth += 1
        defer {
            depth -= 1
            if depth == 0 && destroyRequested { tearDown() }
        }
        return try body()
    }

    func entered(_ body: () -> Void) {
        depth += 1
        body()
        depth -= 1
        if depth == 0 && destroyRequested { tearDown() }
    }

    func now() -> Timestamp { driver.now() }

    // MARK: settings

    func configure(_ change: (inout EngineConfiguration) -> Void) {
        var configuration = driver.configuration
        change(&configuration)
        // A client behind on its acks gets the time a should-begin answer gets (the driver's rule).
        driver.configure(configuration)
    }

    // MARK: devices

    func addDevice(
        source: InputSource, name: String, pressure: (minimum: Double, maximum: Double)?, seat: UInt32,
        evdev: EvdevPressure? = nil, hapticNode: String? = nil
    ) throws(Status) -> OpaquePointer {
        guard devices.count < Self.maximumDevices else { throw .limit }
        let id = DeviceID(nextDevice)
        nextDevice &+= 1
        let handle = Handles.shared.registerDevice(of: self)
        devices[id] = Device(
            handle: handle, id: id, source: source, name: name, pressure: pressure, seat: seat, evdev: evdev,
            hapticNode: hapticNode, haptic: HapticPad(node: hapticNode, name: name, intensity: haptics, logger: logger))
        if devices[id]?.haptic != nil { driver.hapticPadAdded(id) }
        deviceIDs[UInt(bitPattern: handle)] = id
        logger.info(
            "device added: \(name) as \(source) \(id), force: \(evdev?.origin ?? (pressure == nil ? "none (long press)" : "the host's pressure"))"
        )
        if let evdev { watch(evdev, of: id) }
        return handle
    }

    func device(_ handle: OpaquePointer) throws(Status) -> Device {
        guard let id = deviceIDs[UInt(bitPattern: handle)], let device = devices[id] else { throw .unknownDevice }
        return device
    }

    /// A device that makes contacts: a keyboard device's keys go through `keyboardKey`.
    func pressingDevice(_ handle: OpaquePointer) throws(Status) -> Device {
        let device = try device(handle)
        guard device.source != .keyboard else { throw .unsupported }
        return device
    }

    func removeDevice(_ handle: OpaquePointer, at time: UInt64) throws(Status) {
        let device = try device(handle)
        // The cancels (device_removed) still name the device in their callbacks; then it goes
        // (its contacts leave the core's table).
        driver.deviceRemoved(device.id, at: timestamp(time))
        giveBackHeld { $0.device == device.id }
        devices[device.id] = nil
        deviceIDs[UInt(bitPattern: handle)] = nil
        Handles.shared.forget(device: handle)
        device.evdev?.stop()
        device.haptic?.close()
        logger.info("device removed: \(device.name) \(device.id)")
    }

    /// Touch pressure libinput does not report: whenever the kernel has news for the device,
    /// the contacts that are down get a touchpad's frames (each at its time), or the force of
    /// the device's state.
    private func watch(_ evdev: EvdevPressure, of id: DeviceID) {
        // Unretained: the device's watch is stopped when the device is removed or in `tearDown()`.
        evdev.watch(on: display.eventLoop) { [unowned(unsafe) self] in
            entered {
                for (key, contact) in driver.contacts.contacts where key.device == id {
                    guard !catchUp(evdev, key, through: nil) else { continue }
                    guard let force = evdev.force(contact: key.contact), force != contact.force else { continue }
                    _ = try? driver.contactMoved(key, to: nil, force: force, at: now())
                }
            }
        }
    }

    /// Gives the engine the device's frames since the contact's last up to `time` (the host's,
    /// nil: all read), each at its own time: when the host's dispatch read a click, the frames
    /// of its press and its release in one go, the engine still sees every force in between.
    @discardableResult
    private func catchUp(_ evdev: EvdevPressure, _ key: ContactKey, through time: UInt64?) -> Bool {
        evdev.catchUp(contact: key.contact, through: time.map { eventTime($0).microseconds }) { force, at in
            guard let contact = driver.contacts[key], contact.force != force else { return }
            _ = try? driver.contactMoved(key, to: nil, force: force, at: at)
        }
    }

    // MARK: contacts

    func contactDown(
        _ handle: OpaquePointer, contact: Int32, surface resource: OpaquePointer?, x: Double, y: Double,
        pressure: Double, at time: UInt64
    ) throws(Status) {
        let device = try pressingDevice(handle)
        guard x.isFinite, y.isFinite else { throw .invalidArgument }
        let key = ContactKey(seat: device.seat, device: device.id, contact: contact)
        do { try driver.admits(key) } catch { throw Status(error) }
        let force = try normalised(pressure, of: device, contact: contact, at: time)
        // The host's positions are local to the surface it routed the contact to.
        let hit = try resource.map { resource throws(Status) in SurfaceHit(surface: try surfaceID(checking: resource)) }
        do {
            try driver.contactBegan(
                key, source: device.source, at: Point(x: x, y: y), over: hit, force: force, time: timestamp(time))
        } catch {
            throw Status(error)
        }
        device.evdev?.began(contact: contact, at: eventTime(time).microseconds)
    }

    func contactMotion(_ handle: OpaquePointer, contact: Int32, x: Double, y: Double, at time: UInt64) throws(Status) {
        let device = try pressingDevice(handle)
        guard x.isFinite, y.isFinite else { throw .invalidArgument }
        let key = ContactKey(seat: device.seat, device: device.id, contact: contact)
        if let evdev = device.evdev { catchUp(evdev, key, through: time) }
        // A libinput touch device: the kernel's pressure for the contact at the event.
        do {
            try driver.contactMoved(
                key, to: Point(x: x, y: y), force: device.evdev.flatMap { evdevForce($0, contact: contact, at: time) },
                at: timestamp(time))
        } catch {
            throw Status(error)
        }
    }

    func contactForce(_ handle: OpaquePointer, contact: Int32, pressure: Double, at time: UInt64) throws(Status) {
        let device = try pressingDevice(handle)
        let key = ContactKey(seat: device.seat, device: device.id, contact: contact)
        guard driver.contacts[key] != nil else { throw .unknownContact }
        if let evdev = device.evdev { catchUp(evdev, key, through: time) }
        // No pressure axis: nothing to tell.
        guard let force = try normalised(pressure, of: device, contact: contact, at: time) else { return }
        do {
            try driver.contactMoved(key, to: nil, force: force, at: timestamp(time))
        } catch {
            throw Status(error)
        }
    }

    func contactUpdate(
        _ handle: OpaquePointer, contact: Int32, x: Double, y: Double, pressure: Double, at time: UInt64
    ) throws(Status) {
        let device = try pressingDevice(handle)
        guard x.isFinite, y.isFinite else { throw .invalidArgument }
        let key = ContactKey(seat: device.seat, device: device.id, contact: contact)
        guard driver.contacts[key] != nil else { throw .unknownContact }
        if let evdev = device.evdev { catchUp(evdev, key, through: time) }
        let force = try normalised(pressure, of: device, contact: contact, at: time)
        do {
            try driver.contactMoved(key, to: Point(x: x, y: y), force: force, at: timestamp(time))
        } catch {
            throw Status(error)
        }
    }

    /// Returns whether the release must be swallowed. The protocol's order: the interaction
    /// ends before the core release (the core plays the pad's release after).
    func contactEnded(_ handle: OpaquePointer, contact: Int32, at time: UInt64, reason: CancelReason) throws(Status)
        -> Bool
    {
        let device = try pressingDevice(handle)
        let key = ContactKey(seat: device.seat, device: device.id, contact: contact)
        if let evdev = device.evdev, driver.contacts[key] != nil {
            catchUp(evdev, key, through: time)
            evdev.ended(contact: contact)
        }
        let swallow: Bool
        do { swallow = try driver.contactEnded(key, at: timestamp(time), reason: reason).swallow } catch {
            throw Status(error)
        }
        giveBackHeld { $0 == key }
        return swallow
    }

    func isTakenAway(_ handle: OpaquePointer, contact: Int32) throws(Status) -> Bool {
        let device = try pressingDevice(handle)
        let key = ContactKey(seat: device.seat, device: device.id, contact: contact)
        guard driver.contacts[key] != nil else { throw .unknownContact }
        return driver.isTakenAway(key) || heldGiveBacks[key] != nil
    }

    /// The force in 0...1, nil for a device without pressure. `time`: the event's, in the host's unit.
    private func normalised(_ pressure: Double, of device: Device, contact: Int32, at time: UInt64 = 0)
        throws(Status) -> Double?
    {
        if let evdev = device.evdev { return evdevForce(evdev, contact: contact, at: time) ?? 0 }
        guard let range = device.pressure else { return nil }
        guard pressure.isFinite else { throw .invalidArgument }
        return min(1, max(0, (pressure - range.minimum) / (range.maximum - range.minimum)))
    }

    /// A libinput device's force at the host's event time (a click libinput read together with
    /// the frames after it is judged on its own frame's force); now when the host gave no time.
    private func evdevForce(_ evdev: EvdevPressure, contact: Int32, at time: UInt64) -> Double? {
        guard time != 0 else { return evdev.force(contact: contact) }
        return evdev.force(contact: contact, at: eventTime(time))
    }

    /// The last microsecond of a host's event time (a millisecond covers a thousand of a
    /// device's frames' times): the frames up to the event, not past it.
    private func eventTime(_ time: UInt64) -> Timestamp {
        let slack: Int64 = timeUnit == .milliseconds && time != 0 ? 999 : 0
        return timestamp(time) + Timestamp.Duration(microseconds: slack)
    }

    // MARK: surfaces

    /// The id of a wl_surface of this display's clients (numbered on first sight).
    func surfaceID(checking resource: OpaquePointer) throws(Status) -> SurfaceID {
        if let known = surfaces[UInt(bitPattern: resource)] { return known.id }
        guard let client = wl_resource_get_client(resource), wl_client_get_display(client) == display.raw,
            let name = wl_resource_get_class(resource), String(cString: name) == "wl_surface"
        else { throw .notASurface }
        let id = SurfaceID(nextSurface)
        nextSurface &+= 1
        // Unretained: the context owns the listener (`surfaces`) and removes it in
        // `forgetSurface` or `tearDown()`.
        let listener = Listener { [unowned(unsafe) self] _ in
            entered {
                forgetSurface(resource)
                driver.surfaceDestroyed(id, at: now())
            }
        }
        listener.listen(toDestroyOfResource: resource)
        surfaces[UInt(bitPattern: resource)] = (id, listener)
        surfaceResources[id] = resource
        return id
    }

    /// The id of a wl_surface seen before; nil for one the library never needed.
    func knownSurface(_ resource: OpaquePointer) -> SurfaceID? { surfaces[UInt(bitPattern: resource)]?.id }

    private func forgetSurface(_ resource: OpaquePointer) {
        guard let entry = surfaces.removeValue(forKey: UInt(bitPattern: resource)) else { return }
        entry.listener.remove()
        surfaceResources[entry.id] = nil
    }

    func surfaceCommitted(_ resource: OpaquePointer) throws(Status) {
        driver.surfaceCommitted(try surfaceID(checking: resource))
    }

    func surfaceGone(_ resource: OpaquePointer, at time: UInt64) throws(Status) {
        let id = try surfaceID(checking: resource)
        driver.surfaceDestroyed(id, at: timestamp(time))
    }

    /// The wl_surface resource of a surface id this context numbered.
    func surfaceResource(_ id: SurfaceID) -> OpaquePointer? { surfaceResources[id] }

    /// Interactions running: asked should-begin, previewing or committing (the engine counts).
    var runningCount: Int { driver.runningCount }

    /// Interactions whose client has been asked should-begin and has not answered yet.
    var awaitingAnswerCount: Int { driver.awaitingAnswerCount }

    // MARK: InteractionDriverHandler

    func takeAway(_ contact: RoutedContact, surface: SurfaceID) {
        callBack(host.table.take_away, contact.key, surface)
    }

    func giveBack(_ contact: RoutedContact, surface: SurfaceID, stillDown: Bool) {
        if stillDown && takeAwayMode == .untilRelease {
            heldGiveBacks[contact.key] = surface
            return
        }
        callBack(host.table.give_back, contact.key, surface)
    }

    /// The held give-backs of contacts that are up now (or of every contact, at teardown).
    func giveBackHeld(where ended: (ContactKey) -> Bool) {
        for (key, surface) in heldGiveBacks where ended(key) {
            heldGiveBacks[key] = nil
            callBack(host.table.give_back, key, surface)
        }
    }

    func didPerform(_ event: PhaseEvent, _ update: PhaseUpdate) { notify(event, update) }

    /// The driver's own inputs (timer, clients) are calls too: a destroy inside waits for them.
    func run(_ input: () -> Void) { entered(input) }

    /// A replay's wait may end: the host asks again (since 1.4).
    func replayMayGoOn() { host.table.replay_wake?(host.userData) }

    func client(of surface: SurfaceID) -> Client? {
        surfaceResources[surface].flatMap { wl_resource_get_client($0) }.map(Client.init)
    }

    typealias ContactCallback =
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, Int32, OpaquePointer?
        ) -> Void

    func callBack(_ callback: ContactCallback?, _ contact: ContactKey, _ surface: SurfaceID) {
        guard let callback, let device = devices[contact.device] else { return }  // the keyboard: no device
        callback(host.userData, device.handle, contact.contact, surfaceResources[surface])
    }

    /// An accelerator's stages go to the stage callback (since 1.2), every other phase to the
    /// phase callback: a host built against 1.1 sees only the phases its header names.
    private func notify(_ event: PhaseEvent, _ update: PhaseUpdate) {
        var level: UInt32 = 0
        let callback: PhaseCallback?
        if case .stage(let stage) = event {
            level = UInt32(stage)
            callback = host.table.stage
        } else {
            callback = host.table.phase
        }
        guard let callback else { return }
        var info = preview_interaction_phase_event()
        info.interaction = update.interaction.rawValue
        info.phase = Self.wire(event)
        info.reason = preview_interaction_cancel_reason(rawValue: UInt32(event.cancelReason?.rawValue ?? 0))
        info.progress = update.progress
        info.device = devices[update.contact.device]?.handle
        info.contact = update.contact.contact
        info.surface = surfaceResources[update.surface]
        info.x = update.location.x
        info.y = update.location.y
        info.time_usec = UInt64(clamping: max(0, update.time.microseconds))
        info.simulated = update.simulated
        info.source = preview_interaction_device_kind(rawValue: UInt32(update.source.rawValue))
        info.stage = level
        callback(host.userData, &info)
    }

    private typealias PhaseCallback =
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<preview_interaction_phase_event>?) -> Void

    private static func wire(_ event: PhaseEvent) -> preview_interaction_phase {
        switch event {
        case .previewBegan: PREVIEW_INTERACTION_PHASE_PREVIEW_BEGAN
        case .previewProgress: PREVIEW_INTERACTION_PHASE_PREVIEW_PROGRESS
        case .previewEnded: PREVIEW_INTERACTION_PHASE_PREVIEW_ENDED
        case .commitProgress: PREVIEW_INTERACTION_PHASE_COMMIT_PROGRESS
        case .completed: PREVIEW_INTERACTION_PHASE_COMPLETED
        case .cancelled: PREVIEW_INTERACTION_PHASE_CANCELLED
        case .stage: PREVIEW_INTERACTION_PHASE_STAGE
        }
    }

    /// A time the host passed, in its unit; 0 is now.
    func timestamp(_ time: UInt64) -> Timestamp {
        time == 0 ? now() : timeUnit.timestamp(time, now: now())
    }

    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? {
        try? surfaceID(checking: resource)
    }

    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? {
        guard let boxes = host.table.region_boxes else { return nil }
        var storage = [preview_interaction_box](repeating: preview_interaction_box(), count: 64)
        var count = boxes(host.userData, resource, &storage, Int32(storage.count))
        if count > Int32(storage.count), count <= 65_536 {
            storage = [preview_interaction_box](repeating: preview_interaction_box(), count: Int(count))
            count = boxes(host.userData, resource, &storage, count)
        }
        guard count >= 0 else { return nil }
        let used = storage.prefix(Int(min(count, Int32(storage.count))))
        return PreviewRegion(
            operations: used.map { .add(.init(x: $0.x, y: $0.y, width: $0.width, height: $0.height)) })
    }

    // MARK: teardown

    /// preview_interaction_destroy: now, or when the call that is running returns.
    func destroy() {
        guard depth == 0 else {
            destroyRequested = true
            return
        }
        tearDown()
    }

    /// The one teardown path: interactions cancelled (system), global and sources gone,
    /// handles invalid.
    private func tearDown() {
        guard !destroyed else { return }
        destroyed = true
        destroyRequested = false
        if let handle { Handles.shared.forget(context: handle) }
        Handles.shared.release(display: raw)
        if let commitHook { wl_protocol_logger_destroy(commitHook) }
        commitHook = nil
        depth += 1  // callbacks that call back in now find the handle gone
        driver.endAllContacts(at: now(), reason: .system)
        giveBackHeld { _ in true }
        driver.stopLookup()
        lookup?.invalidate()
        lookup = nil
        depth -= 1
        for device in devices.values {
            device.evdev?.stop()
            device.haptic?.close()
        }
        devices.removeAll()
        deviceIDs.removeAll()
        for entry in surfaces.values { entry.listener.remove() }
        surfaces.removeAll()
        surfaceResources.removeAll()
        driver.close(hearingClients: false)
        displayGone?.remove()
        displayGone = nil
    }
}

extension Status {
    /// What the host core refused, as the C API reports it.
    init(_ error: ContactError) {
        switch error {
        case .exists: self = .contactExists
        case .limit: self = .limit
        case .unknown: self = .unknownContact
        }
    }
}
