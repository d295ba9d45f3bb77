// PUBLIC CONTRACT (other modules code against these signatures). The implementation
// behind them is the engine issue's work; signatures change only by agreement.

/// Runs every preview interaction of one seat: one per contact, each bound to the
/// surface under the contact when it began. Pure: time comes in with every input,
/// and each input returns the actions the host must perform.
public struct InteractionEngine: Sendable {
    public private(set) var configuration: EngineConfiguration

    public init(configuration: EngineConfiguration = EngineConfiguration()) {
        self.configuration = configuration
    }

    /// A finger, pen tip or button went down over `surface` (nil: over nothing that takes interactions).
    /// `hasForce == false` selects the long-press fallback for this contact.
    public mutating func contactBegan(_ sample: ForceSample, surface: SurfaceID?, hasForce: Bool) -> Actions {
        Actions()
    }

    /// New force and/or location for a contact that began.
    public mutating func forceChanged(_ sample: ForceSample) -> Actions {
        Actions()
    }

    /// The contact ended: lifted normally, or lost (device removed, desynchronised, system).
    public mutating func contactEnded(_ contact: ContactKey, at time: Timestamp, reason: CancelReason) -> Actions {
        Actions()
    }

    /// The client's answer to `askShouldBegin`.
    public mutating func clientAnswered(_ interaction: InteractionID, accept: Bool, at time: Timestamp) -> Actions {
        Actions()
    }

    /// The client cancelled the interaction (the protocol's `cancel` request).
    public mutating func clientCancelled(_ interaction: InteractionID, at time: Timestamp) -> Actions {
        Actions()
    }

    /// The surface was destroyed; every interaction bound to it is cancelled.
    public mutating func surfaceDestroyed(_ surface: SurfaceID, at time: Timestamp) -> Actions {
        Actions()
    }

    /// The device was unplugged; its contacts end with `.deviceRemoved`.
    public mutating func deviceRemoved(_ device: DeviceID, at time: Timestamp) -> Actions {
        Actions()
    }

    /// The time requested by the last `.scheduleTimer` has come.
    public mutating func timerFired(at time: Timestamp) -> Actions {
        Actions()
    }
}

/// The user's settings. Presets belong to the compositor's user, never to clients.
public struct EngineConfiguration: Hashable, Sendable {
    public var sensitivity: Sensitivity
    public var longPress: LongPressDuration
    /// How long a client may take to answer should-begin before it counts as a decline.
    public var shouldBeginTimeout: Timestamp.Duration

    public init(
        sensitivity: Sensitivity = .medium, longPress: LongPressDuration = .default,
        shouldBeginTimeout: Timestamp.Duration = .milliseconds(150)
    ) {
        self.sensitivity = sensitivity
        self.longPress = longPress
        self.shouldBeginTimeout = shouldBeginTimeout
    }
}

/// Like iOS's 3D Touch sensitivity setting.
public enum Sensitivity: String, Hashable, Sendable, CaseIterable {
    case light, medium, firm
}

/// Like iOS's touch-and-hold duration setting.
public enum LongPressDuration: String, Hashable, Sendable, CaseIterable {
    case fast, `default`, slow
}
