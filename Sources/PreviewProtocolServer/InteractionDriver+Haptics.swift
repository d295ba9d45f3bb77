import InputEvents
import PreviewEngine

/// What a haptic pad's press and release follow: the contact the host reports (the C library's
/// touchpads, whose click is the host's contact) or the pad's own buttons (a host that reads
/// the pad's events itself: preview-compositor's libinput, a replay, where a pressure pad's
/// finger is the contact and its click a button).
public enum HapticPadClicks: Hashable, Sendable {
    case contacts
    case buttons
}

/// The haptic moments, decided here and nowhere else. A pad the host registers (in host mode:
/// the user has haptics on) gets them all from `HapticClicks`: the press where it clicks, the
/// deep click at the commit, the release where its contact ends or its button comes up; the
/// host only plays them (`InteractionDriverHandler.hapticMoment`). Any other device gets the
/// commit's deep click only (a host may have a pad it did not register, or none).
extension InteractionDriver {
    /// The device is a haptic pad in host mode (its clicks start afresh).
    public func hapticPadAdded(_ device: DeviceID, clicksFollow follows: HapticPadClicks = .contacts) {
        hapticPads[device] = (HapticClicks(), follows)
    }

    /// The device no longer plays effects (the user turned haptics off); removal forgets it too.
    public func hapticPadRemoved(_ device: DeviceID) { hapticPads[device] = nil }

    /// A button of a device went down or up (the host's own event: a pad's click).
    public func buttonChanged(_ key: KeyState) {
        padMoment(key.device, following: .buttons, at: key.time) {
            $0.button(key.code, pressed: key.pressed, at: $1)
        }
    }

    /// The surface is the host's own (a replay's virtual window, a test host's): every press
    /// there is an interaction with `behaviour`, accepted at once, with no client to tell.
    public func ownSurface(_ surface: SurfaceID, behaviour: PressureBehaviour) { ownSurfaces[surface] = behaviour }

    /// When the engine's next deadline is (a host whose clock it steps itself runs the timers
    /// due by then first: `runDueTimers`).
    public var nextDeadline: Timestamp? { engine.nextDeadline }

    /// A moment of a registered pad's (`following` nil: whatever its clicks follow).
    func padMoment(
        _ device: DeviceID, following: HapticPadClicks? = nil, at time: Timestamp,
        _ decide: (inout HapticClicks, Timestamp) -> HapticMoment?
    ) {
        guard var pad = hapticPads[device], following.map({ $0 == pad.follows }) ?? true else { return }
        let moment = decide(&pad.clicks, time)
        hapticPads[device] = pad
        if let moment { handler.hapticMoment(moment, on: device, at: time) }
    }

    /// The interaction `update` names entered its commit phase.
    func commitClick(_ update: PhaseUpdate) {
        let device = update.contact.device
        if hapticPads[device] != nil {
            padMoment(device, at: update.time) { $0.committed(at: $1) }
        } else {
            handler.hapticMoment(.deepClick, on: device, at: update.time)
        }
    }
}
