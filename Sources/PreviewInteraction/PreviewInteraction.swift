import CWaylandClient
import PreviewClientCore
import PreviewClientWire
internal import SystemLayer

/// Preview interactions (peek and pop) on one wl_surface: the analogue of
/// `UIPreviewInteraction(view:)`. Presses that begin on the surface, inside `region`, from one of
/// `allowedSources`, are reported to the `delegate` as UIPreviewInteraction reports them: asked
/// whether they may begin, preview progress, commit progress, completion or cancellation.
///
/// Frames, acknowledgements and flow control are the library's: the app's dispatch of its queue
/// runs the library's listeners, the delegate calls of what one dispatch handled are made once,
/// with the latest values (a slow app gets fewer, never stale, calls), and frames are
/// acknowledged there, so that the compositor keeps sending fresh progress while the app draws
/// (protocol version 3's acknowledgement window). Several presses can run at once (one per finger, pen or
/// button): `currentPress` says which one a call is about.
///
/// Use it on the thread that created it (calls from another thread are refused, with a message on
/// stderr). Destroy it (or let it go) before the surface: `invalidate()`.
public final class PreviewInteraction {
    /// Receives the calls (weak, as in UIKit).
    public weak var delegate: (any PreviewInteractionDelegate)?

    /// The surface it is attached to.
    public let surface: OpaquePointer
    /// False when the compositor has no preview interactions (or after `invalidate()`): the
    /// delegate is never called; the app's other ways to the same actions still work.
    public private(set) var isAvailable: Bool

    /// The press the current delegate call is about; between calls, the latest one reported.
    public private(set) var currentPress: PreviewPress?

    /// Presses asked about and not ended yet, in the order they began.
    public var runningPresses: [PreviewPress] { isAvailable ? channel?.runningPresses ?? [] : [] }

    /// Called for every event as the app's dispatch handles it, before any delegate call it
    /// makes (logs, diagnostics). Keep it short.
    public var wireObserver: (@Sendable (PreviewWireEvent) -> Void)? {
        didSet {
            let observer = wireObserver
            channel?.observer = observer.map { observer in { observer($0) } }
        }
    }

    private let client: PreviewInteractionClient?
    private let channel: Channel?
    private var retained: Retained?
    /// Sends answers given on any thread (`PreviewAnswer`).
    private let relay: AnswerRelay?
    /// Calls made locally (cancelInteraction) waiting for the current delivery to finish.
    private var localCalls: [CoreCall] = []
    private var delivering = false
    /// The last frame whose calls the delegate has had (repeated before commits).
    private var applied: UInt32 = 0

    /// The thread that created the interaction: the only one its methods may be called on.
    private let owner = ThreadIdentity.current

    /// Attaches to `surface` through `client` (default: `PreviewInteractionClient.current`).
    /// Without a client, or when the compositor lacks the protocol, the interaction is not
    /// available and does nothing. Without any client alive it says so on stderr: create a
    /// `PreviewInteractionClient` first and keep it (a client that was let go is closed).
    public init(surface: OpaquePointer, client: PreviewInteractionClient? = nil) {
        self.surface = surface
        self.client = client ?? PreviewInteractionClient.current
        if self.client == nil {
            Self.warn(
                "PreviewInteraction(surface:) without a PreviewInteractionClient alive: no press will be reported. "
                    + "Create the client first and keep a reference to it.")
        }
        guard let owner = self.client, let proxy = owner.createObject(for: surface) else {
            (channel, relay, isAvailable) = (nil, nil, false)
            return
        }
        let (channel, retained) = Channel.listening(to: proxy, display: owner.display, log: Self.log)
        let relay = AnswerRelay(proxy: proxy, display: owner.display)
        channel.foreignAnswers = relay
        (self.channel, self.retained, self.relay, isAvailable) = (channel, retained, relay, true)
        localCalls.reserveCapacity(InteractionCore.maximumRunning)
        channel.owner = DeliveryTarget(self)
        owner.register(self)
        channel.send(sender.bound(version: channel.version, declaration: declaration), compositor: owner.compositor)
    }

    deinit { invalidate() }

    /// Detaches from the surface: no more calls; running presses end without events (the
    /// protocol's destroy). Call it before destroying the surface.
    public func invalidate() {
        guard let channel, isAvailable else { return }
        isAvailable = false
        relay?.invalidate()
        channel.destroy()
        channel.flush()
        retained?.release()
        retained = nil
    }

    // MARK: what the app sets (applied on the surface's next commit)

    /// Whether new presses may begin (an empty set of sources when false). Applies on the
    /// surface's next wl_surface.commit, to presses that begin afterwards.
    public var isEnabled: Bool {
        get { declaration.enabled }
        set { declare("isEnabled") { $0.enabled = newValue } }
    }

    /// The kinds of devices that may begin presses (all by default): a drawing app may keep the
    /// pen for drawing. `.keyboard` takes effect only while `focusPoint` is set (and the
    /// compositor speaks version 2). Applies on the next commit.
    public var allowedSources: PreviewSources {
        get { declaration.sources }
        set { declare("allowedSources") { $0.sources = newValue } }
    }

    /// The protocol version of the interaction's object, as far as the API goes: 2 brings the
    /// keyboard, behaviours and haptics (an object of version 3 reads 2: that version changes
    /// only how frames are acknowledged); 0 when not available.
    public var protocolVersion: UInt32 { isAvailable ? ProtocolVersion.reported(channel?.version ?? 0) : 0 }

    /// Where the item with the app's keyboard focus is, surface-local (version 2): the user's
    /// preview key (by default Menu or Shift+F10), held, begins a press there with source
    /// `.keyboard` and simulated force, which the delegate sees like a long press. nil (the
    /// default): no keyboard presses, the key keeps its usual meaning. Giving it is the only
    /// change an app needs for the keyboard. Kept but not sent on version 1 (a no-op there).
    /// Applies on the next commit.
    public var focusPoint: PreviewPoint? {
        get { declaration.focusPoint }
        set {
            if let point = newValue, !point.x.isFinite || !point.y.isFinite {
                Self.warn("PreviewInteraction.focusPoint \(point) is not a point: not sent")
                return
            }
            declare("focusPoint") { $0.focusPoint = newValue }
        }
    }

    /// What force means on each part of the surface (version 2): at a point the last area that
    /// contains it decides, elsewhere `.deepClick`. Empty (the default): deep click everywhere.
    /// A press keeps the behaviour of the point it began at (`currentPress?.behaviour`). An
    /// accelerator's press gets `previewInteraction(_:didChangeStage:)` instead of preview and
    /// commit, and `didUpdateCommitTransition` 1, ended, when it lifts. Areas the protocol does
    /// not allow (an accelerator outside 2...5 stages, more than 32 areas) are not sent (a
    /// message on stderr). Kept but not sent on version 1 (a no-op there). Applies on the next
    /// commit.
    public var behaviours: [PreviewBehaviourArea] {
        get { declaration.behaviours }
        set {
            declare("behaviours") { $0.behaviours = newValue }
            if !newValue.isEmpty && !declaration.behavioursAreValid {
                Self.warn(
                    "PreviewInteraction.behaviours: more than 32 areas, or an accelerator without 2...5 stages: not sent"
                )
            }
        }
    }

    /// Where presses may begin, surface-local (nil, the default: the whole surface). The
    /// surface's input region still applies. Applies on the next commit. Needs the client's
    /// wl_compositor (given, or found by the client).
    public var region: [PreviewRect]? {
        get { declaration.region }
        set { declare("region") { $0.region = newValue } }
    }

    /// What the app declared (the client core's rules turn it into requests).
    private var declaration = SurfaceDeclaration()
    private var sender = DeclarationSender()

    // MARK: what the app does

    /// Cancels every running press (UIKit's `cancel()`, `cancelInteraction` in Objective-C):
    /// the delegate's `previewInteractionDidCancel(_:)` is called for each, now (after the
    /// current delegate call returns, if called from one), with reason `.clientCancelled`;
    /// nothing more is reported about them. A press still waiting for its should-begin answer
    /// is cancelled too (the compositor takes it as a decline).
    public func cancel() {
        guard onOwnerThread("cancel()") else { return }
        for press in runningPresses { cancel(press.id) }
    }

    /// The Objective-C name of `cancel()`.
    public func cancelInteraction() { cancel() }

    /// Cancels one press (see `cancel()`).
    public func cancel(_ id: UInt32) {
        guard onOwnerThread("cancel(_:)"), isAvailable, let channel, let call = try? channel.cancel(id) else { return }
        localCalls.append(call)
        if !delivering { deliver() }
    }

    /// Asks for a short haptic effect for a running press (`press` nil: the current one), on
    /// the device that drives it (a quick action highlighted: `.tick`). Sent only while the
    /// press runs (accepted, not ended); the compositor still drops it where effects cannot be
    /// felt (`currentPress?.hapticsAvailable` false) or within 50 ms of the press's previous
    /// effect: no error means sent, not felt.
    public func playHaptic(_ effect: PreviewHapticEffect, press: UInt32? = nil) throws(PreviewHapticError) {
        guard onOwnerThread("playHaptic(_:press:)") else { throw .wrongThread }
        guard let id = press ?? currentPress?.id, isAvailable, let channel else { throw .unknownPress }
        guard channel.version >= 2 else { throw .unsupportedVersion }
        do { try channel.playHaptic(id, effect: effect) } catch {
            switch error {
            case .unknownPress: throw .unknownPress
            case .pressEnded, .alreadyAnswered: throw .pressEnded
            case .notRunning: throw .notRunning
            }
        }
    }

    /// Where the current press is (UIKit's `location(in:)`): in surface-local coordinates
    /// (nil), or relative to `space` (a rectangle of the app, its "view"). Zero without a press.
    public func location(in space: (any PreviewCoordinateSpace)? = nil) -> PreviewPoint {
        guard let location = currentPress?.location else { return .zero }
        guard let origin = space?.originInSurface else { return location }
        return PreviewPoint(x: location.x - origin.x, y: location.y - origin.y)
    }

    /// Commits `surface` (wl_surface.commit) saying which interaction frames the picture shows:
    /// the library repeats the ack of the last frame the delegate has had right before the
    /// commit, so a compositor that photographs phases (preview-compositor --screenshot-dir)
    /// takes the picture that shows them. Optional: a plain wl_surface_commit works too.
    public func commitSurface() {
        guard onOwnerThread("commitSurface()") else { return }
        guard let channel, isAvailable else {
            wl_surface_commit(surface)
            return
        }
        channel.commit(showing: applied) { wl_surface_commit(surface) }
    }

    // MARK: delivery (the app's thread)

    /// A frame made calls (the client decides when they are made).
    func callsReady() {
        guard let client else { return deliver() }
        client.callsReady(for: self)
    }

    /// Makes the delegate calls for everything dispatched so far.
    func deliver() {
        guard let channel, isAvailable, !delivering else { return }
        delivering = true
        defer { delivering = false }
        channel.learnForeignAnswers()
        flushLocalCalls()
        while isAvailable, let (call, frame) = channel.nextCall() {
            applied = max(applied, frame)
            make(call)
        }
    }

    /// The connection is gone: running presses end (system).
    func connectionLost() {
        channel?.connectionLost()
        deliver()
    }

    /// Local cancels go before the next call read from the wire.
    private func flushLocalCalls() {
        while !localCalls.isEmpty { make(localCalls.removeFirst()) }
    }

    private func make(_ entry: CoreCall) {
        let press = entry.press
        currentPress = press
        guard let delegate else {
            // No delegate: answering yes (UIKit's default without the optional method) would make
            // the press run unseen; decline instead, so core input stays the app's.
            if case .shouldBegin = entry.call { try? channel?.answer(press.id, accept: false) }
            return
        }
        switch entry.call {
        case .shouldBegin:
            guard let relay else { return }
            delegate.previewInteraction(self, shouldBegin: PreviewAnswer(press: press, relay: relay))
        case .preview(let progress, let ended):
            delegate.previewInteraction(self, didUpdatePreviewTransition: progress, ended: ended)
        case .commit(let progress, let ended):
            delegate.previewInteraction(self, didUpdateCommitTransition: progress, ended: ended)
        case .acceleratorEnded:
            delegate.previewInteraction(self, didUpdateCommitTransition: 1, ended: true)
        case .cancel:
            delegate.previewInteractionDidCancel(self)
        case .stage(let level):
            delegate.previewInteraction(self, didChangeStage: level)
        case .haptics(let available):
            delegate.previewInteraction(self, didChangeHapticsAvailability: available)
        }
        flushLocalCalls()
    }

    /// The core's messages: a compositor that breaks the protocol is reported on stderr (the
    /// press concerned was cancelled); the rest is not worth a line.
    static let log: @Sendable (CoreMessage) -> Void = { message in
        guard message.isWarning else { return }
        warn("\(message)")
    }

    static func warn(_ text: String) {
        StandardStreams.writeError("preview-interaction: \(text)\n")
    }

    /// The thread contract, checked as the C library checks it: a call from another thread is
    /// refused, loudly (the interaction's state belongs to its thread).
    func onOwnerThread(_ name: String) -> Bool {
        guard ThreadIdentity.current != owner else { return true }
        Self.warn("PreviewInteraction.\(name) called from a thread other than the one that created it: ignored")
        return false
    }

    // MARK: requests

    /// Changes the declaration on the owner thread and sends what differs.
    private func declare(_ name: String, _ change: (inout SurfaceDeclaration) -> Void) {
        guard onOwnerThread(name) else { return }
        change(&declaration)
        guard let channel, isAvailable else { return }
        if !channel.send(sender.declare(declaration), compositor: client?.compositor) {
            Self.warn("PreviewInteraction.\(name): the client has no wl_compositor to make a region with: not sent")
        }
    }
}
