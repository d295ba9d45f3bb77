import CClientLibrary
import CWaylandClient
import PreviewClientCore
import PreviewInteraction

/// Preview interactions on one wl_surface: the protocol object (while the compositor has the
/// global), the app's settings to send again when it appears, and the calls to the app's
/// callbacks. The core (through the Channel) decides every call; this only makes them.
final class ClientInteraction {
    let context: ClientContext
    let surface: OpaquePointer
    private(set) var handle: OpaquePointer?
    private let callbacks: preview_interaction_client_interaction_callbacks
    let userData: UnsafeMutableRawPointer?
    private var channel: Channel?
    private var retained: Retained?
    /// nil: the whole surface.
    private var region: [preview_interaction_client_rect]?
    private var sources: UInt32 = 15
    private var enabled = true
    /// Frames are acknowledged by `willCommit`, not as they are read.
    private var holdsAcknowledgements = false
    /// The last frame whose calls the app has had (repeated before a commit).
    private var applied: UInt32 = 0
    /// Cancels the app made from inside one of this interaction's callbacks.
    private var localCalls: [CoreCall] = []
    /// One of this interaction's callbacks is running.
    private var making = false

    static let maximumRectangles: UInt32 = 4096

    init(
        context: ClientContext, surface: OpaquePointer, callbacks: preview_interaction_client_interaction_callbacks,
        userData: UnsafeMutableRawPointer?
    ) {
        self.context = context
        self.surface = surface
        self.callbacks = callbacks
        self.userData = userData
        localCalls.reserveCapacity(InteractionCore.maximumRunning)
        handle = Handles.shared.register(self)
    }

    var isAttached: Bool { handle != nil }

    // MARK: the protocol object

    func createObject(manager: OpaquePointer) {
        guard channel == nil, let proxy = spi_preview_interaction_manager_v1_get_interaction(manager, surface) else {
            return
        }
        let channel = Channel(proxy: proxy, display: context.display, reader: context.reader) { [logger = context.logger] in
            logger.log($0)
        }
        applied = 0  // serials count per protocol object
        let retained = Retained(channel)
        spi_preview_interaction_v1_add_listener(proxy, &interactionListener, retained.pointer)
        (self.channel, self.retained) = (channel, retained)
        if holdsAcknowledgements { channel.holdAcknowledgements(true) }
        if region != nil { sendRegion() }
        if sources != 15 || !enabled { sendSources() }
        channel.flush()
    }

    func destroyObject() {
        guard let channel else { return }
        channel.destroy()
        channel.flush()
        if let retained { context.reader.retire(retained) }
        (self.channel, retained) = (nil, nil)
    }

    func detach() {
        destroyObject()
        if let handle { Handles.shared.forget(interaction: handle) }
        handle = nil
        localCalls.removeAll()
    }

    // MARK: settings

    func setRegion(_ rects: UnsafePointer<preview_interaction_client_rect>?, count: UInt32) throws(Status) {
        guard count <= Self.maximumRectangles, rects != nil || count == 0 else { throw .invalidArgument }
        if let rects {
            region = Array(UnsafeBufferPointer(start: rects, count: Int(count)))
        } else {
            region = nil
        }
        sendRegion()
    }

    func setSources(_ bits: UInt32) throws(Status) {
        guard bits & ~15 == 0 else { throw .invalidArgument }
        sources = bits
        sendSources()
    }

    func setEnabled(_ value: Bool) {
        enabled = value
        sendSources()
    }

    private func sendSources() {
        let bits = enabled ? sources : 0
        channel?.send { spi_preview_interaction_v1_set_sources($0, bits) }
        channel?.flush()
    }

    private func sendRegion() {
        guard let channel else { return }
        guard let rects = region else {
            channel.send { spi_preview_interaction_v1_set_region($0, nil) }
            channel.flush()
            return
        }
        guard let compositor = context.compositor, let wlRegion = wl_compositor_create_region(compositor) else {
            context.logger.log(.error, "the compositor has no wl_compositor: the region is not sent")
            return
        }
        for rect in rects where rect.width > 0 && rect.height > 0 {
            wl_region_add(wlRegion, rect.x, rect.y, rect.width, rect.height)
        }
        channel.send { spi_preview_interaction_v1_set_region($0, wlRegion) }
        wl_region_destroy(wlRegion)
        channel.flush()
    }

    // MARK: what the app does

    func answer(_ press: UInt32, accept: Bool) throws(Status) {
        guard let channel else { throw .unknownPress }
        do { try channel.answer(press, accept: accept) } catch { throw Status(error) }
    }

    func cancel(_ press: UInt32) throws(Status) {
        guard let channel else { throw .unknownPress }
        let call: CoreCall?
        do { call = try channel.cancel(press) } catch { throw Status(error) }
        guard let call else { return }
        localCalls.append(call)
        if !making { makeLocalCalls() }
    }

    func cancelAll() {
        guard let channel else { return }
        for press in channel.runningPresses { try? cancel(press.id) }
    }

    var runningCount: UInt32 { UInt32(channel?.runningCount ?? 0) }

    func holdAcknowledgements(_ hold: Bool) {
        holdsAcknowledgements = hold
        channel?.holdAcknowledgements(hold)
    }

    /// The app's next commit shows every callback made so far.
    func willCommit() -> UInt32 {
        channel?.acknowledgeShown(applied: applied) ?? 0
    }

    func commitSurface() {
        guard let channel else {
            wl_surface_commit(surface)
            return
        }
        channel.commit(showing: applied) { wl_surface_commit(surface) }
    }

    // MARK: delivery (the app's thread)

    func deliver() {
        makeLocalCalls()
        while isAttached, let (call, frame) = channel?.nextCall() {
            applied = max(applied, frame)
            make(call)
        }
        channel?.flush()
    }

    /// The connection or the global went away: running presses end (system), delivered now.
    func connectionLost() {
        channel?.connectionLost()
        deliver()
    }

    private func makeLocalCalls() {
        let wasDelivering = context.delivering
        context.delivering = true
        defer { context.delivering = wasDelivering }
        while isAttached, !localCalls.isEmpty { make(localCalls.removeFirst()) }
    }

    private func make(_ entry: CoreCall) {
        guard let handle else { return }
        var press = Self.cPress(entry.press)
        making = true
        switch entry.call {
        case .shouldBegin:
            guard let shouldBegin = callbacks.should_begin else {
                try? channel?.answer(press.id, accept: true)
                break
            }
            let answer = shouldBegin(userData, handle, &press).rawValue
            guard isAttached else { break }
            switch answer {
            case PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT.rawValue: try? channel?.answer(press.id, accept: true)
            case PREVIEW_INTERACTION_CLIENT_ANSWER_LATER.rawValue: break
            case PREVIEW_INTERACTION_CLIENT_ANSWER_DECLINE.rawValue: try? channel?.answer(press.id, accept: false)
            default:
                context.logger.log(.error, "should_begin returned \(answer), which is no answer: declined")
                try? channel?.answer(press.id, accept: false)
            }
        case .preview(let progress, let ended):
            callbacks.preview?(userData, handle, &press, progress, ended)
        case .commit(let progress, let ended):
            callbacks.commit?(userData, handle, &press, progress, ended)
        case .cancel:
            callbacks.cancelled?(userData, handle, &press, press.cancel_reason)
        }
        making = false
        // Cancels made from inside the callback, right after it.
        while isAttached, !localCalls.isEmpty { make(localCalls.removeFirst()) }
    }

    static func cPress(_ press: PreviewPress) -> preview_interaction_client_press {
        var out = preview_interaction_client_press()
        out.id = press.id
        out.source = preview_interaction_client_source(rawValue: press.source?.rawValue ?? 0)
        out.force = preview_interaction_client_force(rawValue: press.force?.rawValue ?? 0)
        out.progress = press.progress
        out.x = press.location.x
        out.y = press.location.y
        out.time_usec = press.timestamp
        out.cancel_reason = PREVIEW_INTERACTION_CLIENT_CANCEL_NONE
        switch press.phase {
        case .asking: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_ASKING
        case .preview: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_PREVIEW
        case .commit: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_COMMIT
        case .completed: out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_COMPLETED
        case .cancelled(let reason):
            out.phase = PREVIEW_INTERACTION_CLIENT_PHASE_CANCELLED
            out.cancel_reason = preview_interaction_client_cancel_reason(rawValue: reason.wireValue)
        }
        return out
    }
}
