import Foundation
import PreviewProtocolServer

/// The user's Look Up settings (`--lookup`, the settings file's `lookup`, `lookup-long-press`
/// and `lookup-deadline`).
public struct LookupSettings: Equatable, Sendable {
    /// nil: on when an accessibility bus is there.
    public var enabled: Bool?
    /// Presses without measured force (a long press) look up too.
    public var longPress = false
    /// How long a lookup may take before the press is just the app's (ms, within
    /// `LookupConfiguration.deadlineMilliseconds`).
    public var deadlineMilliseconds: Int64
    public init(enabled: Bool? = nil, longPress: Bool = false, deadlineMilliseconds: Int64 = 500) {
        self.enabled = enabled
        self.longPress = longPress
        self.deadlineMilliseconds = deadlineMilliseconds
    }
}

extension Compositor {
    /// Whether an accessibility bus can be reached: AT-SPI's own address, or a session bus
    /// (where org.a11y.Bus starts it).
    static func accessibilityBusAvailable(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Bool
    {
        environment["AT_SPI_BUS_ADDRESS"] != nil || environment["DBUS_SESSION_BUS_ADDRESS"] != nil
    }

    /// What apps need to show their accessibility tree with no screen reader running (Look Up is
    /// an assistive technology of its own, docs/look-up.md): Firefox (GNOME_ACCESSIBILITY),
    /// Chromium and Electron (ACCESSIBILITY_ENABLED), Qt (QT_LINUX_ACCESSIBILITY_ALWAYS_ON). GTK
    /// and LibreOffice show it always. The apps this compositor starts (`--run`) get them while
    /// Look Up is on; a variable already set (the user's choice) stays as it is.
    static let lookupAppEnvironment = [
        "GNOME_ACCESSIBILITY": "1", "ACCESSIBILITY_ENABLED": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
    ]

    func lookupSessionEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String: String]
    {
        guard interaction.lookupConfiguration?.enabled == true else { return [:] }
        return Compositor.lookupAppEnvironment.filter { environment[$0.key] == nil }
    }

    /// preview-lookup beside this executable (the build folder, /usr/bin).
    static var defaultLookupExecutable: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("preview-lookup")
            .path
    }

    /// The host core's Look Up with the user's settings, drawn by `LookupController`.
    private func lookupConfiguration(enabled: Bool, executable: String) -> LookupConfiguration {
        LookupConfiguration(
            executable: executable, enabled: enabled, longPress: configuration.lookup.longPress,
            deadline: .milliseconds(configuration.lookup.deadlineMilliseconds))
    }

    func startLookup() {
        let settings = configuration.lookup
        let enabled = settings.enabled ?? Compositor.accessibilityBusAvailable()
        guard enabled || settings.enabled != nil else { return }
        let executable = configuration.lookupExecutable ?? Compositor.defaultLookupExecutable
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            logger.notice("look up: \(executable) is not there: Look Up is off")
            return
        }
        let controller = LookupController(
            scene: scene, surfaces: surfaces, output: output, seat: seat, interaction: interaction,
            screenshots: screenshots, clock: clock, logger: logger)
        lookup = controller
        interaction.startLookup(lookupConfiguration(enabled: enabled, executable: executable), host: controller)
    }

    /// SIGHUP read the settings file again.
    func lookupSettingsChanged() {
        let settings = configuration.lookup
        let enabled = settings.enabled ?? Compositor.accessibilityBusAvailable()
        guard let running = interaction.lookupConfiguration else {
            if enabled { startLookup() }
            return
        }
        interaction.configureLookup(lookupConfiguration(enabled: enabled, executable: running.executable))
    }
}
