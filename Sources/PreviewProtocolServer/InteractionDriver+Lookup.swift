import PreviewEngine
import WaylandServer

/// Look Up, the host core's: a host turns it on with `startLookup` and draws what it says
/// (`LookupHost`); its input is the one it gives the driver for the preview (contacts with the
/// surface under them, keys with the keyboard focus, surfaces destroyed), of which Look Up gets
/// a copy: a press where no client declared a preview area looks up what is under it, the
/// user's preview key looks up at the focused text's caret, Escape dismisses, and the app's
/// input is never changed. Which seat, which keys and which surfaces are the host's.
extension InteractionDriver {
    /// Turns Look Up on with `configuration` (preview-lookup started now when enabled), drawn
    /// by `host`; a running Look Up with another executable is ended first.
    public func startLookup(_ configuration: LookupConfiguration, host: LookupHost) {
        if let lookup, lookup.settings.executable == configuration.executable {
            lookup.configure(configuration, engine: engine.configuration)
            return
        }
        stopLookup()
        let started = LookupDriver(
            display: display, settings: configuration, configuration: engine.configuration, host: host, logger: logger)
        // Its questions pause a replay as the clients' do; its answers may end the pause.
        // (The closures hold the driver until `stopLookup` clears them.)
        started.onAsked = { self.replayQuestionAsked(at: $0) }
        started.onSettled = { self.clientsMayHaveCaughtUp() }
        lookup = started
        started.start()
    }

    /// Look Up off for good: preview-lookup ended, nothing shown.
    public func stopLookup() {
        lookup?.stop()
        lookup = nil
    }

    /// The user's Look Up settings changed (on or off, long press, deadline): new presses use them.
    public func configureLookup(_ configuration: LookupConfiguration) {
        lookup?.configure(configuration, engine: engine.configuration)
    }

    /// Look Up's settings while a host has it (on or off), nil when it has none.
    public var lookupConfiguration: LookupConfiguration? { lookup?.settings }
    /// preview-lookup's Wayland client while it runs (its surfaces are the panel).
    public var lookupClient: Client? { lookup?.processClient }
    public var lookupProcessID: Int32? { lookup?.processID }
    /// preview-lookup's panel: its wl_surface resource, once it made one.
    public var lookupPanel: OpaquePointer? { lookup?.panel }
    /// The lookup on screen (highlight or panel), if any.
    public var shownLookup: UInt32? { lookup?.shownLookup }
    /// Lookups asked of preview-lookup and not answered yet (nor past their deadline).
    public var lookupsAsking: Int { lookup?.askingCount ?? 0 }

    // MARK: the copy of the host's input

    /// A contact went down (after the driver routed it): on the panel, on a window (and whether
    /// its client declared a preview area there for the contact's source), or elsewhere.
    func lookupContactBegan(_ contact: RoutedContact, over hit: SurfaceHit?, time: Timestamp) {
        guard let lookup else { return }
        var target = LookupPressTarget.elsewhere
        var origin = Point(x: 0, y: 0)
        if let hit {
            if let panel = lookup.panel, handler.surfaceID(forSurfaceResource: panel) == hit.surface {
                target = .panel
            } else if let window = lookupWindow(of: hit.surface, lookup) {
                origin = window.origin
                let declared = server.allowsInteraction(on: hit.surface, at: contact.location, source: contact.source)
                let point = Point(x: contact.location.x + origin.x, y: contact.location.y + origin.y)
                target = .window(window.window, point, declaresPreview: declared)
            }
        }
        lookup.contactBegan(contact.sample(at: time), hasForce: contact.hasForce, on: target, origin: origin)
    }

    /// One key of `seat` (before the preview keys' rules): a release ends a preview key's
    /// lookup, Escape dismisses, a preview key no client takes on the focused window looks up
    /// at its text caret (the window's middle when the text has none).
    func lookupKey(_ key: PreviewKeys.Key, contact: ContactKey, seat: UInt32, focus: KeyboardFocus?, rules: PreviewKeys)
    {
        guard let lookup else { return }
        guard key.pressed else { return lookup.keyReleased(contact, at: key.time) }
        if PreviewKeys.isEscape(key) { return lookup.escapePressed(seat: seat, at: key.time) }
        guard rules.isPreviewKey(key) else { return }
        var target = LookupPressTarget.elsewhere
        if let focus, let window = lookupWindow(of: focus.surface, lookup) {
            let declared = declaresKeyboardPreview(on: focus.surface, surfaceSize: focus.size)
            let middle = Point(x: window.origin.x + focus.size.x / 2, y: window.origin.y + focus.size.y / 2)
            target = .window(window.window, middle, declaresPreview: declared)
        }
        lookup.keyPressed(contact, on: target, at: key.time)
    }

    /// The window of `surface` as the host places it; nil for preview-lookup's own surfaces.
    private func lookupWindow(of surface: SurfaceID, _ lookup: LookupDriver) -> LookupWindow? {
        guard let window = lookup.window(of: surface), window.client != lookup.processClient else { return nil }
        return window
    }
}
