import PreviewEngine

/// Where a seat's keyboard focus is: the surface and its size (surface-local).
public struct KeyboardFocus: Hashable, Sendable {
    public var surface: SurfaceID
    public var size: Point

    public init(surface: SurfaceID, size: Point) {
        self.surface = surface
        self.size = size
    }
}

/// The keyboard as a source: each seat's keys through the preview keys' rules (`PreviewKeys`),
/// the driver deciding what begins. A key's contact is the seat's, the host's keyboard device's,
/// and the key's identity; it is no contact of the table (nothing of core input is taken away:
/// the rules withhold the key).
extension InteractionDriver {
    /// One key of `seat`'s keyboard `device`; `focus` is where keyboard focus is (a preview key's
    /// press needs it to begin anything). The verdict says what the host delivers to wl_keyboard.
    public func key(_ key: PreviewKeys.Key, seat: UInt32 = 0, device: DeviceID, focus: KeyboardFocus?)
        -> PreviewKeys.Verdict
    {
        let contact = ContactKey(seat: seat, device: device, contact: Int32(bitPattern: key.identity))
        var rules = keyboards.removeValue(forKey: seat) ?? PreviewKeys(bindings: previewKeyBindings)
        defer { keyboards[seat] = rules }
        lookupKey(key, contact: contact, seat: seat, focus: focus, rules: rules)
        let verdict = rules.handle(
            key,
            begin: {
                guard let focus else { return false }
                return keyPressed(contact, surface: focus.surface, surfaceSize: focus.size, at: key.time)
            },
            end: { keyReleased(contact, at: key.time) },
            escape: { escapePressed(seat: seat, at: key.time) })
        if let focus {
            switch verdict {
            case .deliver where key.pressed, .deliverTap: replayKeyDelivered(to: focus.surface)
            case .deliver, .withhold: break
            }
        }
        return verdict
    }

    /// Keyboard focus left (or moved): as the XML says, a keyboard interaction of the seat ends
    /// (`system`) and its withheld key stays undelivered, its release too.
    public func keyboardFocusLost(seat: UInt32 = 0, at time: Timestamp) {
        guard var rules = keyboards[seat] else { return }
        let ended = rules.focusLost()
        keyboards[seat] = rules
        guard !ended.isEmpty else { return }
        // The engine knows which keyboard device's key drives each interaction.
        for interaction in engine.interactions
        where interaction.source == .keyboard && interaction.contact.seat == seat
            && ended.contains(UInt32(bitPattern: interaction.contact.contact))
        {
            endKey(interaction.contact, at: time, reason: .system)
        }
    }

    /// A preview key went down on `surface` (of `surfaceSize`): true when it may begin an
    /// interaction there at the client's focus point (the rules then withhold the press); false:
    /// deliver it (no object, keyboard not among its sources, a generic area).
    func keyPressed(_ key: ContactKey, surface: SurfaceID, surfaceSize: Point, at time: Timestamp) -> Bool {
        guard let point = server.keyboardPoint(on: surface, surfaceSize: surfaceSize),
            server.allowsInteraction(on: surface, at: point, source: .keyboard)
        else { return false }
        let behaviour = server.behaviour(on: surface, at: point)
        guard behaviour != .generic else { return false }
        perform { engine, actions in
            engine.keyPressed(key, at: point, surface: surface, behaviour: behaviour, time: time, into: &actions)
        }
        return true
    }

    /// The withheld preview key came up: true when no interaction was announced (a tap, which
    /// the host delivers, press and release).
    func keyReleased(_ key: ContactKey, at time: Timestamp) -> Bool {
        let announced = engine.interaction(for: key)?.phase != nil
        perform { engine, actions in engine.keyReleased(key, at: time, into: &actions) }
        _ = gate.release(key)
        return !announced
    }

    /// Escape on `seat`: its running interactions are cancelled (`dismissed`). True when one was
    /// (the Escape is then withheld).
    func escapePressed(seat: UInt32, at time: Timestamp) -> Bool {
        let running = engine.interactions.contains { $0.contact.seat == seat && $0.phase?.isFinal == false }
        perform { engine, actions in engine.escapePressed(seat: seat, at: time, into: &actions) }
        return running
    }

    private func endKey(_ key: ContactKey, at time: Timestamp, reason: CancelReason) {
        perform { engine, actions in engine.contactEnded(key, at: time, reason: reason, into: &actions) }
        _ = gate.release(key)
    }
}
