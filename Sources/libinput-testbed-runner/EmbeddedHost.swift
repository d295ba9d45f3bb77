import CCompositorModule
import CWaylandClient
import CWaylandServer
import CompositorModule
import PreviewEngine
import SystemLayer
import WaylandServer
import _PreviewProtocolTestSupport

/// `--embedded`: libpreview-interaction as a compositor embeds it, on a display of this
/// process. The device libinput opened is handed over (`device_add_libinput`), its button is
/// the contact (a wlroots host's pointer button) on the surface of a version 2 client that
/// accepts every press; the library plays the pad's clicks at the user's haptics setting.
/// Logs `embedded phase N` for every phase and `embedded ...` for the steps.
final class EmbeddedHost {
    let display: Display
    let compositor: MiniCompositor
    let client: PreviewClient
    private var context: OpaquePointer?
    private var device: OpaquePointer?
    private var surface: OpaquePointer?
    private var interaction: ClientInteraction?
    private var answered: Set<UInt32> = []
    /// The pad's buttons down (bit 0 left, 1 right, 2 middle): its one click is contact 0.
    private var buttons: UInt8 = 0
    private var buttonDown: Bool { buttons != 0 }
    private var ticked: Set<UInt32> = []
    /// `--embedded-stall-ms`: how long the host stalls once the first press is answered (µs),
    /// until when, and the release it read meanwhile (bit, time).
    private let stall: Int64
    private var stallState: Stall = .armed
    private enum Stall { case armed, pending, until(Int64), over }
    private var heldRelease: (bit: UInt8, time: Int64)?

    static func wire(_ intensity: HapticIntensity) -> preview_interaction_haptics {
        switch intensity {
        case .off: PREVIEW_INTERACTION_HAPTICS_OFF
        case .light: PREVIEW_INTERACTION_HAPTICS_LIGHT
        case .medium: PREVIEW_INTERACTION_HAPTICS_MEDIUM
        case .strong: PREVIEW_INTERACTION_HAPTICS_STRONG
        }
    }

    init(haptics intensity: HapticIntensity, stall: Int64 = 0) throws {
        self.stall = stall
        let haptics = Self.wire(intensity)
        display = try Display()
        compositor = try MiniCompositor(display: display)
        var callbacks = preview_interaction_callbacks()
        callbacks.size = MemoryLayout<preview_interaction_callbacks>.size
        callbacks.phase = { _, event in
            guard let event else { return }
            let phase = event.pointee
            note(
                "embedded phase \(phase.phase.rawValue) reason \(phase.reason.rawValue) progress \(phase.progress)"
                    + " at \(phase.time_usec)\n")
        }
        callbacks.log = { _, _, message in
            guard let message else { return }
            note("embedded log: \(String(cString: message))\n")
        }
        var made: OpaquePointer?
        guard previewInteractionCreate(display.raw, &callbacks, nil, &made) == 0 else {
            throw RunnerError("preview_interaction_create failed")
        }
        context = made
        _ = previewInteractionSetLogLevel(made, PREVIEW_INTERACTION_LOG_DEBUG)
        _ = previewInteractionSetHaptics(made, haptics)
        client = try PreviewClient(display: display, version: 2)
        let proxy = client.surface()
        let object = client.interaction(for: proxy)
        object.setSources(0x1f)
        wl_surface_commit(proxy)
        client.roundtrip()
        surface = wl_client_get_object(client.connection.serverClient.raw, wl_proxy_get_id(proxy))
        _ = previewInteractionSurfaceCommit(made, surface)
        interaction = object
    }

    /// The device libinput opened, handed over as a host does.
    func add(_ raw: OpaquePointer) {
        var added: OpaquePointer?
        let status = previewInteractionDeviceAddLibinput(context, raw, 0, &added)
        note("embedded device added: \(status)\n")
        device = added
    }

    /// The touchpad's click, whichever of its buttons libinput names it (BTN_LEFT, or
    /// BTN_RIGHT / BTN_MIDDLE for two and three fingers): the contact, in the middle of the
    /// client's surface, from its first button down to its last up (`bit`: 1, 2 or 4).
    func button(_ bit: UInt8, pressed: Bool, at time: Int64) {
        if stalled(at: time) {
            if !pressed { heldRelease = (bit, time) }
            return
        }
        let usec = UInt64(max(0, time))
        note("embedded button \(bit) \(pressed ? "down" : "up") at \(usec)\n")
        let wasDown = buttonDown
        buttons = pressed ? buttons | bit : buttons & ~bit
        guard wasDown != buttonDown else { return }
        if pressed {
            if case .armed = stallState, stall > 0 { stallState = .pending }
            let fromDevice = PREVIEW_INTERACTION_PRESSURE_FROM_DEVICE
            _ = previewInteractionContactDown(device, 0, surface, 50, 50, fromDevice, usec)
        } else {
            var swallow = false
            _ = previewInteractionContactUp(device, 0, usec, &swallow)
        }
    }

    /// After libinput's frames: the contact's force again. A kernel wakes every evdev client of
    /// a device for each frame (the library's own descriptor too); umockdev's device is one pty
    /// whose reader takes each frame, so the host forwards the frame, as a motion in place.
    func frame(at time: Int64) {
        guard buttonDown, !stalled(at: time) else { return }
        _ = previewInteractionContactMotion(device, 0, 50, 50, UInt64(max(0, time)))
    }

    /// The user changes the haptics setting while the device is there: logs the uploads the
    /// device had had before (the shim's log).
    func setHaptics(_ intensity: HapticIntensity) {
        note("embedded uploads before the change: \(countSoFar("EVIOCSFF type"))\n")
        note("embedded haptics \(intensity.rawValue): \(previewInteractionSetHaptics(context, Self.wire(intensity)))\n")
    }

    /// The device went away (the host's destroy signal): the library hands its pad back.
    func remove(at time: Int64) {
        note("embedded device removed: \(previewInteractionDeviceRemove(device, UInt64(max(0, time))))\n")
        buttons = 0
        note("embedded erased at removal: \(countSoFar("EVIOCRMFF"))\n")
    }

    /// The display's sources (the library's timer and evdev watch) and the client's answers.
    func dispatch() {
        let now = MonotonicTime.microseconds()
        guard !stalled(at: now) else { return }
        if let release = heldRelease {
            // The stall is over: the release the host read meanwhile first, as a compositor
            // whose libinput source comes before the library's descriptor in its loop.
            heldRelease = nil
            button(release.bit, pressed: false, at: release.time)
        }
        display.dispatch(timeoutMilliseconds: 0)
        client.roundtrip()
        guard let interaction else { return }
        for case .shouldBegin(let id, _, _) in interaction.events where !answered.contains(id) {
            answered.insert(id)
            interaction.accept(id)
            if case .pending = stallState { stallState = .until(now + stall) }
        }
        // The app's own effect at the peek (a quick action's tick): the library plays it on
        // the pad that drives the interaction.
        for case .previewEnded(let id) in interaction.events where !ticked.contains(id) {
            ticked.insert(id)
            interaction.playHaptic(id, effect: 1)
        }
        client.roundtrip()
    }

    var fd: Int32 { display.eventLoop.fd }

    /// True while the host stalls; logs its end once.
    private func stalled(at time: Int64) -> Bool {
        guard case .until(let end) = stallState else { return false }
        if time < end { return true }
        stallState = .over
        note("embedded stall over at \(time)\n")
        return false
    }

    /// The host's teardown: the library first (its pads hand the clicks back).
    func destroy() {
        guard let context else { return }
        let events = interaction?.phaseEvents.filter { if case .preview = $0 { false } else { true } } ?? []
        note("embedded client saw: \(events.map(\.description).joined(separator: " "))\n")
        note("embedded destroy: \(previewInteractionDestroy(context))\n")
        note("embedded erased at destroy: \(countSoFar("EVIOCRMFF"))\n")
        self.context = nil
    }
}

/// The device's successful calls of `kind` so far (the shim's log, written as each returns).
private func countSoFar(_ kind: String) -> Int {
    guard let path = Environment.value("PREVIEW_FF_LOG") else { return -1 }
    // The shim writes the file at the first call.
    guard let log = try? Descriptor(readingFrom: path).readAll() else { return 0 }
    return String(decoding: log, as: UTF8.self).split(separator: "\n").count { line in
        line.contains(kind) && line.contains("rc 0")
    }
}

/// One line on standard error (the runner's log), unbuffered.
private func note(_ line: String) {
    StandardStreams.writeError(line)
}
