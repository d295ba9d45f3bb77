import CWaylandClient
import PreviewClientCore
import Synchronization

/// One spi_preview_interaction_v1 object, shared by the reading thread (which feeds each event
/// to the object's `InteractionCore`, acknowledging frames at once) and the app's thread (which
/// takes the core's calls and gives answers and cancels). The core does the bookkeeping; this
/// performs its outputs. Requests go out under one lock, so a repeated ack and the app's
/// wl_surface.commit stay together on the wire.
package final class Channel: @unchecked Sendable {  // every mutable field is behind a Mutex
    private struct Received {
        var core = InteractionCore()
        var observer: (@Sendable (PreviewWireEvent) -> Void)?
    }

    private struct Sending: @unchecked Sendable {  // the proxy is only used under the lock
        var proxy: OpaquePointer?
    }

    private let received = Mutex(Received())
    private let sending: Mutex<Sending>
    /// The thread that reads this object's events (told when calls are ready).
    package let reader: ReadingThread
    /// Where the core's messages go (a compositor breaking the protocol); any thread.
    package let log: @Sendable (CoreMessage) -> Void

    private let display: OpaquePointer
    /// The object's protocol version (the manager's): version 2 requests need 2.
    package let version: UInt32

    package init(
        proxy: OpaquePointer, display: OpaquePointer, reader: ReadingThread,
        log: @escaping @Sendable (CoreMessage) -> Void
    ) {
        self.reader = reader
        self.display = display
        self.log = log
        version = spi_preview_interaction_v1_get_version(proxy)
        sending = Mutex(Sending(proxy: proxy))
    }

    package var observer: (@Sendable (PreviewWireEvent) -> Void)? {
        get { received.withLock { $0.observer } }
        set { received.withLock { $0.observer = newValue } }
    }

    // MARK: the reading thread

    /// One event read: the core's output is performed at once (a frame's ack leaves now, while
    /// the app may be drawing).
    package func received(_ event: PreviewWireEvent) {
        let (observer, output) = received.withLock { state in (state.observer, state.core.read(event)) }
        observer?(event)
        perform(output)
        if output.callsReady { reader.filed() }
    }

    /// The connection failed: every running press ends (system).
    package func connectionLost() {
        let output = received.withLock { $0.core.connectionLost() }
        if let message = output.message { log(message) }
    }

    // MARK: the app's thread

    /// The next call ready for the app, and the serial of the last frame read.
    package func nextCall() -> (CoreCall, UInt32)? {
        received.withLock { state in state.core.nextCall().map { ($0, state.core.lastFrame) } }
    }

    package var hasWaiting: Bool { received.withLock { $0.core.hasReadyCalls } }

    /// The app's answer (any thread).
    package func answer(_ id: UInt32, accept: Bool) throws(CoreRefusal) {
        let output = try received.withLock { state throws(CoreRefusal) in try state.core.answer(id, accept: accept) }
        perform(output)
        flush()
    }

    /// The app cancels a press: the call to make now, if the app knew of the press.
    package func cancel(_ id: UInt32) throws(CoreRefusal) -> CoreCall? {
        let (output, call) = try received.withLock { state throws(CoreRefusal) in try state.core.cancel(id) }
        perform(output)
        flush()
        return call
    }

    /// Holds frame acknowledgements for `acknowledgeShown` (a toolkit that commits on its own).
    package func holdAcknowledgements(_ hold: Bool) {
        perform(received.withLock { $0.core.holdAcknowledgements(hold) })
        flush()
    }

    /// The app is about to commit a picture showing the calls it took up to frame `applied`:
    /// acknowledges it (ahead of the commit the app makes next on this thread). Returns
    /// the last frame acknowledged.
    package func acknowledgeShown(applied: UInt32) -> UInt32 {
        let (output, acknowledged) = received.withLock { state in
            (state.core.acknowledgeShown(applied: applied), state.core.acknowledged)
        }
        perform(output)
        // Sent now, not at the toolkit's next flush: flow control waits for it.
        if output.request != nil { flush() }
        return acknowledged
    }

    /// A haptic effect for a running press (the app's thread); nothing is sent otherwise.
    package func playHaptic(_ id: UInt32, effect: PreviewHapticEffect) throws(CoreRefusal) {
        let output = try received.withLock { state throws(CoreRefusal) in
            try state.core.playHaptic(id, effect: effect)
        }
        perform(output)
        flush()
    }

    /// Whether effects can be felt for a press (its latest haptics event).
    package func hapticsAvailable(_ id: UInt32) throws(CoreRefusal) -> Bool {
        try received.withLock { state throws(CoreRefusal) in try state.core.press(id).hapticsAvailable }
    }

    package var runningPresses: [PreviewPress] { received.withLock { $0.core.runningPresses } }

    /// A press as the core knows it now; nil once it was dropped.
    package func press(_ id: UInt32) -> PreviewPress? {
        received.withLock { state in try? state.core.press(id) }
    }
    package var runningCount: Int { received.withLock { $0.core.runningCount } }

    private func perform(_ output: CoreOutput) {
        if let message = output.message { log(message) }
        guard let request = output.request else { return }
        send { proxy in
            switch request {
            case .ackFrame(let serial): spi_preview_interaction_v1_ack_frame(proxy, serial)
            case .accept(let id): spi_preview_interaction_v1_accept(proxy, id)
            case .decline(let id): spi_preview_interaction_v1_decline(proxy, id)
            case .cancel(let id): spi_preview_interaction_v1_cancel(proxy, id)
            case .playHaptic(let id, let effect): spi_preview_interaction_v1_play_haptic(proxy, id, effect)
            }
        }
    }

    /// Sends a request on the object, unless it was destroyed; any thread.
    package func send(_ request: (OpaquePointer) -> Void) {
        sending.withLock { state in
            guard let proxy = state.proxy else { return }
            request(proxy)
        }
    }

    /// Sends what was queued now (answers leave at once, whatever thread gave them).
    package func flush() { wl_display_flush(display) }

    /// Repeats the ack of `applied` (the last frame whose calls the app has had), then runs
    /// `commit` with no request of the reading thread in between (ack_frame in the XML).
    package func commit(showing applied: UInt32, _ commit: () -> Void) {
        sending.withLock { state in
            if let proxy = state.proxy, applied > 0 { spi_preview_interaction_v1_ack_frame(proxy, applied) }
            commit()
        }
    }

    /// Sends destroy and forgets the proxy: nothing is sent on it afterwards. Events still
    /// queued for it are dropped by libwayland.
    package func destroy() {
        sending.withLock { state in
            guard let proxy = state.proxy else { return }
            spi_preview_interaction_v1_destroy(proxy)
            state.proxy = nil
        }
    }
}

extension Channel {
    /// Puts the declaration's requests on the object (regions made on `compositor`); any thread.
    /// False when a region could not be made (no wl_compositor): that request is not sent.
    @discardableResult
    package func send(_ requests: [DeclarationRequest], compositor: OpaquePointer?) -> Bool {
        var complete = true
        for request in requests {
            switch request {
            case .setRegion(nil):
                send { spi_preview_interaction_v1_set_region($0, nil) }
            case .setRegion(let rects?):
                guard let region = Self.region(rects, compositor: compositor) else {
                    complete = false
                    continue
                }
                send { spi_preview_interaction_v1_set_region($0, region) }
                wl_region_destroy(region)
            case .setSources(let bits):
                send { spi_preview_interaction_v1_set_sources($0, bits) }
            case .setFocusPoint(let point?):
                let (x, y) = (wl_fixed_from_double(point.x), wl_fixed_from_double(point.y))
                send { spi_preview_interaction_v1_set_focus_point($0, x, y) }
            case .setFocusPoint(nil):
                send { spi_preview_interaction_v1_unset_focus_point($0) }
            case .setBehaviours(let areas):
                send { spi_preview_interaction_v1_clear_behaviours($0) }
                for area in areas {
                    let (behaviour, stages) = area.behaviour.wire
                    guard let rects = area.rects else {
                        send { spi_preview_interaction_v1_set_behaviour($0, behaviour, stages, nil) }
                        continue
                    }
                    guard let region = Self.region(rects, compositor: compositor) else {
                        complete = false
                        continue
                    }
                    send { spi_preview_interaction_v1_set_behaviour($0, behaviour, stages, region) }
                    wl_region_destroy(region)
                }
            }
        }
        flush()
        return complete
    }

    private static func region(_ rects: [PreviewRect], compositor: OpaquePointer?) -> OpaquePointer? {
        guard let compositor, let region = wl_compositor_create_region(compositor) else { return nil }
        for rect in rects {
            guard let wire = rect.wireRect else { continue }
            wl_region_add(region, wire.x, wire.y, wire.width, wire.height)
        }
        return region
    }
}
