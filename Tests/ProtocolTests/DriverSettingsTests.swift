import CWaylandClient
import InputEvents
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

/// The shared driver as a host runs it: a display, the mini compositor's surfaces and regions,
/// and the driver performing its engine's actions.
final class DriverHost: InteractionDriverHandler {
    let display: Display
    let compositor: MiniCompositor
    /// The display's clock, stepped by `press`: what the engine sees is the test's, not the machine's.
    let clock = ManualClock()
    private(set) var driver: InteractionDriver!

    init(
        configuration: EngineConfiguration = EngineConfiguration(), haptics: HapticIntensity = .off,
        version: Int32 = 2
    ) throws {
        display = try Display(clock: clock.clock)
        compositor = try MiniCompositor(display: display)
        driver = try InteractionDriver(
            display: display, configuration: configuration, haptics: haptics, advertising: version, handler: self)
        compositor.onCommit = { [unowned self] surface in driver.surfaceCommitted(surface) }
    }

    func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? { compositor.surfaceID(of: resource) }
    func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? { compositor.region(of: resource) }

    /// Devices that play effects, and the client effects played on them, in order.
    var hapticDevices: Set<DeviceID> = []
    private(set) var played: [AppHapticEffect] = []
    func hasHaptics(_ contact: ContactKey) -> Bool { hapticDevices.contains(contact.device) }
    func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp) { played.append(effect) }

    static let pen = ContactKey(device: DeviceID(1))

    /// What the driver told the host of core input and haptics, in order.
    private(set) var told: [String] = []
    func takeAway(_ contact: RoutedContact, surface: SurfaceID) { told.append("take away \(contact.delivery)") }
    func giveBack(_ contact: RoutedContact, surface: SurfaceID, stillDown: Bool) {
        told.append(stillDown ? "give back" : "give back at its end")
    }
    func hapticMoment(_ moment: HapticMoment, on device: DeviceID, at time: Timestamp) {
        told.append("haptic \(moment.rawValue)")
    }

    /// A pen sample 5 ms after the previous one, at `location` on surface 1 (the first surface
    /// the mini compositor made).
    func press(_ force: Double, at location: Point, began: Bool = false) {
        clock.advance(milliseconds: 5)
        if began {
            _ = try? driver.contactBegan(
                Self.pen, source: .pen, at: location, over: SurfaceHit(surface: SurfaceID(1)), force: force,
                time: driver.now())
        } else {
            _ = try? driver.contactMoved(Self.pen, to: location, force: force, at: driver.now())
        }
    }

    func lift() { _ = try? driver.contactEnded(Self.pen, at: driver.now(), reason: .lifted) }

    /// The preview key (Menu) of keyboard `device` on seat 0, with surface 1 focused (of `size`).
    func key(pressed: Bool, code: UInt32 = 127, device: DeviceID = DeviceID(99), size: Point = Point(x: 200, y: 100))
        -> PreviewKeys.Verdict
    {
        driver.key(
            PreviewKeys.Key(code: code, pressed: pressed, time: driver.now()), device: device,
            focus: KeyboardFocus(surface: SurfaceID(1), size: size))
    }
}

@Suite struct DriverSettingsTests {
    static let medium = [
        "sensitivity 2", "thresholds 0.12109375 0.55078125 0.87890625", "long_press_duration 500", "haptics 0",
        "completion 1",
    ]

    @Test func aVersionTwoClientHearsTheSettingsAtBindAndOnEveryChange() throws {
        let host = try DriverHost()
        let client = try PreviewClient(display: host.display, version: 2)
        client.roundtrip()
        #expect(client.settingsGroups == [Self.medium])

        host.driver.configure(
            EngineConfiguration(sensitivity: .firm, longPress: .slow, completion: .onRelease), haptics: .strong)
        client.roundtrip()
        #expect(client.settingsGroups.count == 2)
        #expect(
            client.settingsGroups.last == [
                "sensitivity 3", "thresholds 0.1796875 0.6796875 0.9296875", "long_press_duration 800", "haptics 3",
                "completion 2",
            ])
        #expect(host.driver.configuration.completion == .onRelease, "the engine follows too")

        // The same settings again change nothing: no group is sent.
        host.driver.configure(EngineConfiguration(sensitivity: .firm, longPress: .slow, completion: .onRelease))
        client.roundtrip()
        #expect(client.settingsGroups.count == 2)
    }

    @Test func aVersionOneClientHearsNoSettings() throws {
        let host = try DriverHost()
        let client = try PreviewClient(display: host.display, version: 1)
        client.roundtrip()
        host.driver.configure(EngineConfiguration(sensitivity: .light))
        #expect(client.roundtrip(), "no event a version 1 object cannot decode")
        #expect(client.settingsGroups.isEmpty)
    }
}
