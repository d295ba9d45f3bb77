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
///     // core input: skip events of `gate.isTakenAway(contact)`; on a release, if
///     // `gate.release(contact)` is true, do not deliver it.
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
        var inCommit: Bool
    }

    /// Contacts whose release must be swallowed (taken away at some point and still down).
    private var entries: [ContactKey: Entry] = [:]

    public init() {}

    /// Call with every engine action, in order; returns what to do to core input, if anything.
    public mutating func apply(_ action: Action) -> Change? {
        guard case .phase(let event, let update) = action else { return nil }
        switch event {
        case .previewEnded:
            entries[update.contact] = Entry(interaction: update.interaction, surface: update.surface, inCommit: true)
            return .takeAway(update.contact, update.surface)
        case .completed, .cancelled:
            return ended(update)
        case .previewBegan, .previewProgress, .commitProgress:
            return nil
        case .stage:
            return nil  // an accelerator never takes its contact away
        }
    }

    /// True during the commit phase: no core event of this contact reaches the client.
    public func isTakenAway(_ contact: ContactKey) -> Bool {
        entries[contact]?.inCommit ?? false
    }

    /// The contact was released (or lost). Returns true when its release must not be
    /// delivered: it was taken away by an interaction's commit phase.
    public mutating func release(_ contact: ContactKey) -> Bool {
        entries.removeValue(forKey: contact) != nil
    }

    private mutating func ended(_ update: PhaseUpdate) -> Change? {
        guard var entry = entries[update.contact], entry.interaction == update.interaction, entry.inCommit else {
            return nil
        }
        entry.inCommit = false
        entries[update.contact] = entry
        return .giveBack(update.contact, entry.surface)
    }
}
