import InputEvents
import PreviewEngine

/// The haptic moments. A pad the host registers here (one whose clicks follow its contacts: the
/// C library's touchpads, which it hears of as contacts) gets them all from `HapticClicks`: the
/// press where a contact goes down, the deep click at the commit, the release where it ends.
/// Any other device gets the commit's deep click only: a backend that reads a pad's own buttons
/// (the compositor's libinput) keeps that pad's clicks itself and plays it through them.
extension InteractionDriver {
    /// The device is a haptic pad in host mode (its clicks start afresh).
    public func hapticPadAdded(_ device: DeviceID) { hapticPads[device] = HapticClicks() }

    /// The device no longer plays effects (the user turned haptics off); removal forgets it too.
    public func hapticPadRemoved(_ device: DeviceID) { hapticPads[device] = nil }

    func padMoment(_ device: DeviceID, at time: Timestamp, _ decide: (inout HapticClicks, Timestamp) -> HapticMoment?) {
        guard var clicks = hapticPads[device] else { return }
        let moment = decide(&clicks, time)
        hapticPads[device] = clicks
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
