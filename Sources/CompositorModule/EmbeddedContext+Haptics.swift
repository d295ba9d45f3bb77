import InputEvents
import LibinputBackend
import PreviewEngine
import PreviewLog
import PreviewProtocolServer

/// Haptic pads in host mode: the host core decides the moments (`HapticClicks`: the press where
/// the contact goes down, the pad's button; the deep click at the commit; the release at the
/// lift), `HapticPad` plays them and apps' effects on the pad driving their interaction. The
/// user's setting decides whether any pad is open.
extension EmbeddedContext {
    var haptics: HapticIntensity { driver.settings.haptics }

    /// The user's haptics setting: clients hear it; pads are reopened at the new intensity
    /// (uploads carry it), or handed back to their firmware when it is off.
    func setHaptics(_ intensity: HapticIntensity) {
        guard intensity != haptics else { return }
        driver.configure(driver.configuration, haptics: intensity)
        for (id, device) in devices where device.hapticNode != nil {
            device.haptic?.close()
            let pad = HapticPad(node: device.hapticNode, name: device.name, intensity: intensity, logger: logger)
            devices[id]?.haptic = pad
            if pad != nil { driver.hapticPadAdded(id) } else { driver.hapticPadRemoved(id) }
        }
    }

    /// A moment the host core decided for one of the host's pads.
    func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp) {
        guard let pad = devices[device]?.haptic else { return }
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
