import CWaylandClient
import PreviewClientCore
import SystemLayer

/// Who takes a channel's calls: the Swift API's interaction, the C API's interaction.
package protocol ChannelOwner: AnyObject {
    /// A frame closed a group of events that made calls for the app (`Channel.nextCall`).
    func callsReady()
}

/// Answers the app gave on a thread other than the channel's (the Swift API allows them):
/// already sent; the core learns them on the channel's thread before its next event.
package protocol ForeignAnswers: AnyObject {
    /// Cheap: checked before every event.
    var waiting: Bool { get }
    /// The answers given since the last call, oldest first.
    func take() -> [(id: UInt32, accept: Bool)]
}

/// One spi_preview_interaction_v1 object and its `InteractionCore`, on one thread: the app's.
///
/// Its events are dispatched on that thread, from the app's own dispatch of the queue the
/// object lives on (or from the C library's dispatch, for an app that lets the library read
/// for it: `EventPump`). Each event goes through the core and the core's output is performed
/// at once, on that thread: acknowledgements and answers go out with no lock and no hand-off,
/// and calls for the app are ready when the frame that closes their group has been read.
/// Every method is for that thread; events dispatched on another one are dropped with an
/// error (the app broke the contract: its queue must be dispatched where the library lives).
package final class Channel {
    // Touched on one thread only: no runtime exclusivity check (about a fifth of an event's cost).
    @exclusivity(unchecked) private var core: InteractionCore
    @exclusivity(unchecked) private var proxy: OpaquePointer?
    private let display: OpaquePointer
    private let thread = ThreadIdentity.current
    /// The object's protocol version (the manager's): version 2 requests need 2.
    package let version: UInt32
    /// Where the core's messages go (a compositor breaking the protocol).
    package let log: (CoreMessage) -> Void
    /// Told when calls are ready; cleared by its owner when it lets go of the channel.
    @exclusivity(unchecked) package var owner: (any ChannelOwner)?
    @exclusivity(unchecked) package var foreignAnswers: (any ForeignAnswers)?
    /// Sees every event as read, before the calls it makes.
    @exclusivity(unchecked) package var observer: ((PreviewWireEvent) -> Void)?
    private var misdispatchReported = false

    package init(proxy: OpaquePointer, display: OpaquePointer, log: @escaping (CoreMessage) -> Void) {
        self.proxy = proxy
        self.display = display
        self.log = log
        version = spi_preview_interaction_v1_get_version(proxy)
        core = InteractionCore(version: version)
    }

    // MARK: events (from libwayland's dispatch, on the channel's thread)

    /// One event: the core's output is performed at once.
    package func received(_ event: PreviewWireEvent) {
        guard ThreadIdentity.current == thread else { return misdispatched(event) }
        if foreignAnswers != nil { learnForeignAnswers() }
        let output = core.read(event)
        if let observer { observer(event) }
        if output.request != nil || output.message != nil { perform(output) }
        if output.callsReady { owner?.callsReady() }
    }

    /// The connection failed (or the global went away): every running press ends (system).
    package func connectionLost() {
        let output = core.connectionLost()
        if let message = output.message { log(message) }
    }

    private func misdispatched(_ event: PreviewWireEvent) {
        guard !misdispatchReported else { return }
        misdispatchReported = true
        log(.misdispatched(event))
    }

    /// The core learns the answers given on other threads (sent already: the request it makes
    /// again is dropped).
    package func learnForeignAnswers() {
        guard let foreignAnswers, foreignAnswers.waiting else { return }
        for answer in foreignAnswers.take() { _ = try? core.answer(answer.id, accept: answer.accept) }
    }

    // MARK: the app (its thread)

    /// The next call ready for the app, and the serial of the last frame read.
    package func nextCall() -> (CoreCall, UInt32)? {
        core.nextCall().map { ($0, core.lastFrame) }
    }

    package var hasWaiting: Bool { core.hasReadyCalls }

    /// The app's answer: sent now.
    package func answer(_ id: UInt32, accept: Bool) throws(CoreRefusal) {
        perform(try core.answer(id, accept: accept))
        flush()
    }

    /// The app cancels a press: the call to make now, if the app knew of the press.
    package func cancel(_ id: UInt32) throws(CoreRefusal) -> CoreCall? {
        let (output, call) = try core.cancel(id)
        perform(output)
        flush()
        return call
    }

    /// Holds frame acknowledgements for `acknowledgeShown` (a toolkit that commits on its own).
    package func holdAcknowledgements(_ hold: Bool) {
        perform(core.holdAcknowledgements(hold))
        flush()
    }

    /// The app is about to commit a picture showing the calls it took up to frame `applied`:
    /// acknowledges it (ahead of the commit the app makes next on this thread). Returns the
    /// last frame acknowledged.
    package func acknowledgeShown(applied: UInt32) -> UInt32 {
        let output = core.acknowledgeShown(applied: applied)
        perform(output)
        // Sent now, not at the toolkit's next flush: flow control may wait for it.
        if output.request != nil { flush() }
        return core.acknowledged
    }

    /// A haptic effect for a running press; nothing is sent otherwise.
    package func playHaptic(_ id: UInt32, effect: PreviewHapticEffect) throws(CoreRefusal) {
        perform(try core.playHaptic(id, effect: effect))
        flush()
    }

    /// Whether effects can be felt for a press (its latest haptics event).
    package func hapticsAvailable(_ id: UInt32) throws(CoreRefusal) -> Bool {
        try core.press(id).hapticsAvailable
    }

    package var runningPresses: [PreviewPress] { core.runningPresses }

    /// A press as the core knows it now; nil once it was dropped.
    package func press(_ id: UInt32) -> PreviewPress? { try? core.press(id) }

    package var runningCount: Int { core.runningCount }

    private func perform(_ output: CoreOutput) {
        if let message = output.message { log(message) }
        guard let request = output.request, let proxy else { return }
        switch request {
        case .ackFrame(let serial): spi_preview_interaction_v1_ack_frame(proxy, serial)
        case .accept(let id): spi_preview_interaction_v1_accept(proxy, id)
        case .decline(let id): spi_preview_interaction_v1_decline(proxy, id)
        case .cancel(let id): spi_preview_interaction_v1_cancel(proxy, id)
        case .playHaptic(let id, let effect): spi_preview_interaction_v1_play_haptic(proxy, id, effect)
        }
    }

    /// Sends what was queued now (answers leave at once).
    package func flush() { wl_display_flush(display) }

    /// Repeats the ack of `applied` (the last frame whose calls the app has had), then runs
    /// `commit`: the compositor reads that the commit shows that frame (ack_frame in the XML).
    package func commit(showing applied: UInt32, _ commit: () -> Void) {
        if let proxy, applied > 0 { spi_preview_interaction_v1_ack_frame(proxy, applied) }
        commit()
    }

    /// Sends destroy and forgets the proxy: nothing is sent on it afterwards, and libwayland
    /// drops the events still queued for it.
    package func destroy() {
        guard let proxy else { return }
        spi_preview_interaction_v1_destroy(proxy)
        self.proxy = nil
        owner = nil
        foreignAnswers = nil
        observer = nil
    }

    package var isDestroyed: Bool { proxy == nil }
}

extension Channel {
    /// Puts the declaration's requests on the object (regions made on `compositor`). False when a
    /// region could not be made (no wl_compositor): that request is not sent.
    @discardableResult
    package func send(_ requests: [DeclarationRequest], compositor: OpaquePointer?) -> Bool {
        guard let proxy else { return true }
        var complete = true
        for request in requests {
            switch request {
            case .setRegion(nil):
                spi_preview_interaction_v1_set_region(proxy, nil)
            case .setRegion(let rects?):
                guard let region = Self.region(rects, compositor: compositor) else {
                    complete = false
                    continue
                }
                spi_preview_interaction_v1_set_region(proxy, region)
                wl_region_destroy(region)
            case .setSources(let bits):
                spi_preview_interaction_v1_set_sources(proxy, bits)
            case .setFocusPoint(let point?):
                spi_preview_interaction_v1_set_focus_point(
                    proxy, wl_fixed_from_double(point.x), wl_fixed_from_double(point.y))
            case .setFocusPoint(nil):
                spi_preview_interaction_v1_unset_focus_point(proxy)
            case .setBehaviours(let areas):
                spi_preview_interaction_v1_clear_behaviours(proxy)
                for area in areas {
                    let (behaviour, stages) = area.behaviour.wire
                    guard let rects = area.rects else {
                        spi_preview_interaction_v1_set_behaviour(proxy, behaviour, stages, nil)
                        continue
                    }
                    guard let region = Self.region(rects, compositor: compositor) else {
                        complete = false
                        continue
                    }
                    spi_preview_interaction_v1_set_behaviour(proxy, behaviour, stages, region)
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
