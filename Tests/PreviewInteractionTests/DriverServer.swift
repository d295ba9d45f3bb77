import Dispatch
import Foundation
import PreviewEngine
import PreviewProtocolServer
import Synchronization
import WaylandServer
import _PreviewProtocolTestSupport

/// The shared InteractionDriver (the real engine, the protocol server of the version it
/// advertises) with the mini compositor, on a thread of its own, for the client libraries: the
/// test's thread is the app's. The clock is stepped by the test (`press`, `hold`), so what the
/// engine decides depends on the test, not on the machine's load.
final class DriverServer: @unchecked Sendable {  // the host is only touched on the server's thread
    /// The handler the driver runs with (the server's thread only).
    final class Host: InteractionDriverHandler {
        let display: Display
        let compositor: MiniCompositor
        let clock = ManualClock()
        private(set) var driver: InteractionDriver!
        /// Devices that play effects, and the apps' effects played on them, in order.
        var hapticDevices: Set<DeviceID> = []
        private(set) var played: [AppHapticEffect] = []

        init(version: Int32, haptics: HapticIntensity) throws {
            display = try Display(clock: clock.clock)
            compositor = try MiniCompositor(display: display)
            driver = try InteractionDriver(
                display: display, configuration: EngineConfiguration(), haptics: haptics, advertising: version,
                handler: self)
            compositor.onCommit = { [unowned self] surface in driver.surfaceCommitted(surface) }
        }

        func surfaceID(forSurfaceResource resource: OpaquePointer) -> SurfaceID? { compositor.surfaceID(of: resource) }
        func region(forRegionResource resource: OpaquePointer) -> PreviewRegion? { compositor.region(of: resource) }
        func hasHaptics(_ contact: ContactKey) -> Bool { hapticDevices.contains(contact.device) }
        func playHaptic(_ effect: AppHapticEffect, on contact: ContactKey, at time: Timestamp) { played.append(effect) }

        static let pen = ContactKey(device: DeviceID(1))
        static let key = ContactKey(seat: 0, device: DeviceID(99), contact: 127)
        /// The first surface the mini compositor made.
        static let surface = SurfaceID(1)

        /// A pen sample 5 ms after the previous one.
        func press(_ force: Double, at location: Point, began: Bool = false) {
            clock.advance(milliseconds: 5)
            if began {
                _ = try? driver.contactBegan(
                    Self.pen, source: .pen, at: location, over: SurfaceHit(surface: Self.surface), force: force,
                    time: driver.now())
            } else {
                _ = try? driver.contactMoved(Self.pen, to: location, force: force, at: driver.now())
            }
        }

        func lift() { _ = try? driver.contactEnded(Self.pen, at: driver.now(), reason: .lifted) }

        /// The preview key goes down on the first surface (focused); true when it may begin there.
        func keyDown() -> Bool {
            let key = PreviewKeys.Key(code: UInt32(Self.key.contact), pressed: true, time: driver.now())
            let focus = KeyboardFocus(surface: Self.surface, size: Point(x: 200, y: 100))
            return driver.key(key, device: Self.key.device, focus: focus) == .withhold
        }

        /// Steps the clock and fires what became due (a long press, the keyboard).
        func advance(milliseconds: Int64) {
            clock.advance(milliseconds: milliseconds)
            driver.runDueTimers()
        }
    }

    private let thread: DisplayThread<Host>
    /// The client end of a socket connected to the server.
    let clientFD: Int32

    init(advertising version: Int32 = 2, haptics: HapticIntensity = .off) throws {
        let host = try Host(version: version, haptics: haptics)
        clientFD = try host.display.connectedClientSocket().clientFD
        thread = try DisplayThread(host, display: host.display)
    }

    /// Runs `body` on the server's thread and returns its result.
    func sync<T>(_ body: @escaping (Host) -> T) -> T { thread.sync(body) }

    func stop() { thread.stop() }
}
