import PreviewEngine

/// The protocol's rules for core input during an interaction (spi_preview_interaction_v1's
/// description), as a pure tracker the host consults while it delivers wl_pointer, wl_touch
/// and tablet events. Feed it every engine action it performs; it says when to take a
/// contact away from the client's core input and when to give it back, and which releases
/// to swallow so that a completed interaction never also clicks.
///
///     for action in actions {
///         switch gate.apply(action) {
///         case .takeAway(let contact, let surface)?: // wl_pointer.leave / wl_touch.cancel / tool proximity_out
///         case .giveBack(let contact, let surface)?: // wl_pointer.enter / tool proximity_in (touch: nothing)
///         case nil: break
///         }
///         server.perform(action)
///     }
///     // core input: skip events of `gate.isTakenAway(contact, in: engine)`; on a release,
///     // if `gate.release(contact)` is true, do not deliver it.
///
/// Whether the commit phase still runs is the engine's to say (`phase(of:)`); the gate only
/// remembers which interaction took which contact. `InteractionDriver` does all of this.
public struct CoreInputGate: Sendable {
    public enum Change: Hashable, Sendable {
        /// The commit phase began: withhold the contact's core events from now on.
        case takeAway(ContactKey, SurfaceID)
        /// The interaction that took it ended: pointer/tool may enter again (no press, no release).
        case giveBack(ContactKey, SurfaceID)
    }

    private struct Entry: Sendable {
        var interaction: InteractionID
        var surface: SurfaceID
    }

    /// Contacts whose release must be swallowed (taken away at some point and still down).
    private var entries: [ContactKey: Entry] = [:]

    public init() {}

    /// Call with every engine action, in order; returns what to do to core input, if anything.
    public mutating func apply(_ action: Action) -> Change? {
        guard case .phase(let event, let update) = action else { return nil }
        switch event {
        case .previewEnded:
            entries[update.contact] = Entry(interaction: update.interaction, surface: update.surface)
            return .takeAway(update.contact, update.surface)
        case .completed, .cancelled:
            return ended(update)
        case .previewBegan, .previewProgress, .commitProgress:
            return nil
        case .stage:
            return nil  // an accelerator never takes its contact away
        }
    }

    /// True during the commit phase of the interaction that took the contact (the engine
    /// says which phase that is): no core event of this contact reaches the client.
    public func isTakenAway(_ contact: ContactKey, in engine: InteractionEngine) -> Bool {
        guard let entry = entries[contact] else { return false }
        return engine.phase(of: entry.interaction) == .commit
    }

    /// The contact was released (or lost). Returns true when its release must not be
    /// delivered: it was taken away by an interaction's commit phase.
    public mutating func release(_ contact: ContactKey) -> Bool {
        entries.removeValue(forKey: contact) != nil
    }

    private mutating func ended(_ update: PhaseUpdate) -> Change? {
        // Each interaction ends once: this is the end of the commit that took the contact.
        guard let entry = entries[update.contact], entry.interaction == update.interaction else { return nil }
        return .giveBack(update.contact, entry.surface)
    }
}
