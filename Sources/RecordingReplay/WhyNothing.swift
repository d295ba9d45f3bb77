import LibinputRecording
import PreviewEngine
import PreviewTrace

extension Replay {
    /// `--verbose`: for each device that began no interaction, why, in a user's words (a
    /// touchpad pressed hard but never clicked: a force click begins at the click, as on macOS).
    static func whyNothing(
        _ summary: ReplaySummary, devices: [ReplayDevice], touchPeaks: [DeviceID: Double],
        configuration: EngineConfiguration
    ) -> [String] {
        let begin = configuration.sensitivity.thresholds.begin
        let needed =
            "below the \(Fixed.format(begin, digits: 2)) a preview needs (--sensitivity \(configuration.sensitivity))"
        var lines: [String] = []
        for device in devices {
            let activity = summary.devices[device.id] ?? DeviceActivity()
            guard activity.interactions == 0 else { continue }
            let peak = Fixed.format(activity.peakForce, digits: 2)
            let why: String
            switch device.kind {
            case .touchpad:
                if activity.contacts == 0 {
                    if let touched = touchPeaks[device.id] {
                        why =
                            (touched > 0
                                ? "fingers pressed up to \(Fixed.format(touched, digits: 2))" : "fingers touched")
                            + " but the touchpad never clicked: a force click begins at the click, as on macOS"
                    } else {
                        why = "no finger touched it"
                    }
                } else {
                    why = "clicked \(activity.contacts) time(s), pressing at most \(peak), \(needed)"
                }
            case .pen:
                why =
                    activity.contacts == 0
                    ? "the tip never touched (only hovering)" : "the tip pressed at most \(peak), \(needed)"
            case .touchscreen:
                why =
                    activity.contacts == 0
                    ? "nothing touched it" : "\(activity.contacts) touch(es) pressed at most \(peak), \(needed)"
            case .pointer:
                let hold = Fixed.format(Double(configuration.longPress.duration.microseconds) / 1_000_000, digits: 2)
                why =
                    activity.contacts == 0
                    ? "no left button press"
                    : "\(activity.contacts) press(es), none held still for the long press (\(hold) s, --long-press \(configuration.longPress))"
            case .keyboard:
                why = "keyboards pass keys through; they start no preview"
            case .other:
                why = "not a device that starts previews (pen, touchpad, touchscreen or mouse)"
            }
            lines.append("# \(device.name): no interaction: \(why)")
        }
        return lines
    }
}
