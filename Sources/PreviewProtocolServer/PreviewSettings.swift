import CWaylandServer
import PreviewEngine

/// The user's settings as version 2 clients hear them (the manager's settings group): the
/// engine's configuration and the haptics setting. The host's, never the app's.
public struct PreviewSettings: Hashable, Sendable {
    public var engine: EngineConfiguration
    public var haptics: HapticIntensity

    public init(engine: EngineConfiguration = EngineConfiguration(), haptics: HapticIntensity = .off) {
        self.engine = engine
        self.haptics = haptics
    }

    /// Sends the whole group, closed by settings_done, to a manager of version 2 or later.
    func send(to manager: OpaquePointer) {
        let thresholds = engine.sensitivity.thresholds
        spi_preview_interaction_manager_v1_send_sensitivity(manager, engine.sensitivity.wireValue)
        spi_preview_interaction_manager_v1_send_thresholds(
            manager, thresholds.begin.fixed, thresholds.commit.fixed, thresholds.completeEnter.fixed)
        spi_preview_interaction_manager_v1_send_long_press_duration(
            manager, UInt32(clamping: engine.longPress.duration.microseconds / 1000))
        spi_preview_interaction_manager_v1_send_haptics(manager, haptics.wireValue)
        spi_preview_interaction_manager_v1_send_completion(manager, engine.completion.wireValue)
        spi_preview_interaction_manager_v1_send_settings_done(manager)
    }
}

extension Sensitivity {
    var wireValue: UInt32 {
        switch self {
        case .light: SPI_PREVIEW_INTERACTION_MANAGER_V1_SENSITIVITY_LIGHT.rawValue
        case .medium: SPI_PREVIEW_INTERACTION_MANAGER_V1_SENSITIVITY_MEDIUM.rawValue
        case .firm: SPI_PREVIEW_INTERACTION_MANAGER_V1_SENSITIVITY_FIRM.rawValue
        }
    }
}

extension HapticIntensity {
    var wireValue: UInt32 {
        switch self {
        case .off: SPI_PREVIEW_INTERACTION_MANAGER_V1_HAPTICS_OFF.rawValue
        case .light: SPI_PREVIEW_INTERACTION_MANAGER_V1_HAPTICS_LIGHT.rawValue
        case .medium: SPI_PREVIEW_INTERACTION_MANAGER_V1_HAPTICS_MEDIUM.rawValue
        case .strong: SPI_PREVIEW_INTERACTION_MANAGER_V1_HAPTICS_STRONG.rawValue
        }
    }
}

extension Completion {
    var wireValue: UInt32 {
        switch self {
        case .onForce: SPI_PREVIEW_INTERACTION_MANAGER_V1_COMPLETION_ON_FORCE.rawValue
        case .onRelease: SPI_PREVIEW_INTERACTION_MANAGER_V1_COMPLETION_ON_RELEASE.rawValue
        }
    }
}
