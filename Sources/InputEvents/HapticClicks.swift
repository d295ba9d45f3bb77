import PreviewEngine

/// What the user feels from a haptic pad, in the order a Mac's Force Touch trackpad plays it:
/// the press where the pad clicks, a deeper click when the preview commits (the peek), the
/// release when the pad's button comes up or the finger lifts.
public enum HapticMoment: String, Hashable, Sendable, CaseIterable {
    case press
    case deepClick = "deep-click"
    case release

    /// The effect that plays an app's request (the protocol's haptic_effect: 1 tick, 2 snap,
    /// 3 confirm): tick and snap are the pad's press, confirm the deep click; nil for others.
    public init?(appEffect value: UInt32) {
        switch value {
        case 1, 2: self = .press
        case 3: self = .deepClick
        default: return nil
        }
    }

    /// The HID Haptics page waveform that plays it: WAVEFORM_PRESS, WAVEFORM_CLICK (a distinct
    /// waveform, so the commit feels different at every intensity, which a stronger press
    /// cannot at 100 %), WAVEFORM_RELEASE.
    public var waveform: UInt16 {
        switch self {
        case .press: 0x1006
        case .deepClick: 0x1003
        case .release: 0x1007
        }
    }
}

/// Which haptic effect a pad in host mode plays, and when: pure, one per device, run by the host
/// core (`InteractionDriver`) and nowhere else. Host mode
/// makes the host play every click the user feels, so the press and release follow the pad's
/// own button, the deep click the commit, and a release is owed after any press. Never two
/// effects for one moment (one timestamp): the first wins; never a release without a press.
///
/// A clickpad is one switch whatever button its click is reported as: libinput names it by the
/// fingers on the pad (two: BTN_RIGHT, three: BTN_MIDDLE) or by where it lands (software
/// buttons), so every one of the three is the pad's click, played once however many are down.
public struct HapticClicks: Hashable, Sendable {
    /// A press or deep click was played and its release is owed.
    public private(set) var held = false
    private var lastMoment: Timestamp?
    /// The pad's buttons down (bit 0 left, 1 right, 2 middle): the click is down while any is.
    private var buttons: UInt8 = 0

    public init() {}

    /// One of the pad's buttons went down or up (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE: the pad's
    /// click whatever libinput calls it; a pressure pad's own force threshold). The press
    /// plays when the first goes down, the release when the last comes up; other codes
    /// play nothing.
    public mutating func button(_ code: UInt16, pressed: Bool, at time: Timestamp) -> HapticMoment? {
        guard let bit = Self.bit(code) else { return nil }
        let wasDown = buttons != 0
        buttons = pressed ? buttons | bit : buttons & ~bit
        switch (wasDown, buttons != 0) {
        case (false, true): return held ? nil : play(.press, at: time)
        case (true, false): return released(at: time)
        case (false, false), (true, true): return nil
        }
    }

    /// The pad clicked where the host has no button to report, only the contact it makes (an
    /// embedding host's contact down): the press, unless one is already owed its release.
    public mutating func clicked(at time: Timestamp) -> HapticMoment? {
        held ? nil : play(.press, at: time)
    }

    /// The interaction this device drives entered its commit phase.
    public mutating func committed(at time: Timestamp) -> HapticMoment? { play(.deepClick, at: time) }

    /// The contact ended (lifted, removed, or ended by the system).
    public mutating func contactEnded(at time: Timestamp) -> HapticMoment? { released(at: time) }

    private static func bit(_ code: UInt16) -> UInt8? {
        switch code {
        case EventCode.buttonLeft: 1
        case EventCode.buttonRight: 2
        case EventCode.buttonMiddle: 4
        default: nil
        }
    }

    private mutating func released(at time: Timestamp) -> HapticMoment? {
        guard held else { return nil }
        return play(.release, at: time)
    }

    private mutating func play(_ moment: HapticMoment, at time: Timestamp) -> HapticMoment? {
        if let lastMoment, lastMoment == time {
            // One moment, one effect. A release owed stays owed (the lift plays it).
            return nil
        }
        lastMoment = time
        held = moment != .release
        return moment
    }
}
