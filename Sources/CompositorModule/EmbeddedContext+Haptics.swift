import EvdevDecoder
import LibinputBackend
import PreviewEngine
import PreviewProtocolServer

/// Haptic pads in host mode, as the compositor drives them (`HapticPad` plays, `HapticClicks`
/// decides): the press where the contact goes down (the pad's button), the deep click at the
/// commit, the release at the lift, and apps' effects on the pad driving their interaction.
/// The user's setting decides whether any pad is open.
extension EmbeddedContext {
    var haptics: HapticIntensity { driver.settings.haptics }

    /// The user's haptics setting: clients hear it; pads are reopened at the new intensity
    /// (uploads carry it), or handed back to their firmware when it is off.
    func setHaptics(_ intensity: HapticIntensity) {
        guard intensity != haptics else { return }
        driver.configure(driver.engine.configuration, haptics: intensity)
        for (id, device) in devices where device.hapticNode != nil {
            device.haptic?.close()
            devices[id]?.haptic = HapticPad(
                node: device.hapticNode, name: device.name, intensity: intensity, logger: logger)
            devices[id]?.clicks = HapticClicks()
        }
    }

    /// Plays what `decide` says the device's clicks owe now, if it is a haptic pad.
    func haptic(_ id: DeviceID, at time: Timestamp, _ decide: (inout HapticClicks, Timestamp) -> HapticMoment?) {
        guard let pad = devices[id]?.haptic, var clicks = devices[id]?.clicks else { return }
        let moment = decide(&clicks, time)
        devices[id]?.clicks = clicks
        guard let moment else { return }
        if pad.play(moment) { logger.debug("\(pad.name): haptic \(moment.rawValue)") }
    }

    func hasHaptics(_ contact: ContactKey) -> Bool { devices[contact.device]?.haptic != nil }

    func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp) {
        guard let pad = devices[contact.device]?.haptic, let moment = HapticMoment(appEffect: effect.rawValue) else {
            return
        }
        if pad.playRequested(moment, at: time) { logger.debug("\(pad.name): haptic \(moment.rawValue) (app)") }
    }
}
