import CWaylandClient
import Foundation
import PreviewEngine
import PreviewProtocolServer
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

/// Look Up is the host core's: a host turns it on and draws, and its ordinary input to the
/// driver (contacts over the surface under them, keys with the keyboard focus and the seat)
/// is all Look Up gets. preview-lookup is a stand-in here (Tests/Fixtures/lookup/fake-lookup.py:
/// every question answered with one word), so what is checked is the core's part: which press
/// looks up, its phases, Escape, and what the host is told.
@Suite(.serialized) struct HostCoreLookupTests {
    static let fake =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/lookup/fake-lookup.py").standardized.path

    /// The shell: windows are the surfaces themselves; it records what it is asked to draw and
    /// each lookup's news.
    final class Shell: LookupHost {
        var clients: [SurfaceID: Client] = [:]
        private(set) var drawn: [String] = []
        private(set) var events: [LookupEvent] = []

        func lookupWindow(of surface: SurfaceID) -> LookupWindow? {
            clients[surface].map { LookupWindow(window: surface, client: $0) }
        }
        func showHighlight(_ extents: LookupRect, on window: SurfaceID, progress: Double) {
            if drawn.last != "highlight" { drawn.append("highlight") }
        }
        func showPanel(_ panel: OpaquePointer?, beside extents: LookupRect?, on window: SurfaceID) {
            drawn.append("panel")
        }
        func growPanel(_ panel: OpaquePointer?, progress: Double) {
            if progress >= 1, drawn.last != "panel whole" { drawn.append("panel whole") }
        }
        func hideLookup() { drawn.append("hidden") }
        func lookupEvent(_ event: LookupEvent) { events.append(event) }

        /// The news reduced to what the trace says: outcome and word, and how each ended.
        var news: [String] {
            events.map {
                switch $0 {
                case .answered(let answer, let outcome, _, _): "\(answer.id) \(outcome.rawValue) \(answer.word)"
                case .completed(let id): "\(id) completed"
                case .cancelled(let id, let reason): "\(id) cancelled (\(reason))"
                case .dismissed(let id): "\(id) dismissed"
                }
            }
        }
    }

    /// A host with Look Up on, one client window (surface 1) without any preview area.
    func host(longPress: Bool = false) throws -> (DriverHost, Shell, PreviewClient) {
        let host = try DriverHost()
        let shell = Shell()
        let client = try PreviewClient(display: host.display, version: 2)
        wl_surface_commit(client.surface())
        client.roundtrip()
        shell.clients[SurfaceID(1)] = client.connection.serverClient
        host.driver.startLookup(LookupConfiguration(executable: Self.fake, longPress: longPress), host: shell)
        #expect(wait(host) { host.driver.lookupProcessID != nil && host.driver.lookupClient != nil })
        return (host, shell, client)
    }

    /// Dispatches the display (where preview-lookup's answers arrive) until `done`, 10 s at most.
    func wait(_ host: DriverHost, until done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !done() {
            guard Date() < deadline else { return false }
            host.display.dispatch(timeoutMilliseconds: 10)
        }
        return true
    }

    /// A pen pressing to `force` and holding it; while preview-lookup is asked, the pen holds
    /// still until it answers (as a replay does).
    func firmPress(_ host: DriverHost, to force: Double = 1) {
        host.press(0.05, at: Point(x: 40, y: 30), began: true)
        for step in 1...100 {
            host.press(0.05 + (force - 0.05) * Double(min(step, 40)) / 40, at: Point(x: 40, y: 30))
            #expect(wait(host) { host.driver.lookupsAsking == 0 }, "no answer")
        }
    }

    @Test func aFirmPressOnAWindowWithoutAPreviewAreaLooksUpAndEscapeDismissesIt() throws {
        let (host, shell, client) = try host()
        firmPress(host)
        host.lift()
        #expect(shell.news == ["1 found word", "1 completed"], "\(shell.news)")
        #expect(shell.drawn == ["highlight", "panel", "panel whole"], "\(shell.drawn)")
        #expect(host.driver.shownLookup == 1, "the panel stays after the lift")
        // Escape as the host gives it (the key code, no keysym), on the host's seat.
        _ = host.driver.key(
            PreviewKeys.Key(code: 1, pressed: true, time: host.driver.now()), seat: 3, device: DeviceID(99),
            focus: nil)
        #expect(shell.news.last == "1 dismissed" && shell.drawn.last == "hidden", "\(shell.news)")
        #expect(host.driver.shownLookup == nil)
        _ = client
        host.driver.stopLookup()
    }

    @Test func aLightPressShowsOnlyTheHighlightAndItsLiftTakesItDown() throws {
        let (host, shell, _) = try host()
        firmPress(host, to: 0.3)
        host.lift()
        #expect(shell.news == ["1 found word", "1 cancelled (lifted)", "1 dismissed"], "\(shell.news)")
        #expect(shell.drawn == ["highlight", "hidden"], "\(shell.drawn)")
        host.driver.stopLookup()
    }

    @Test func aWindowWhoseClientDeclaredAPreviewAreaIsTheClientsNotALookup() throws {
        let (host, shell, client) = try host()
        let surface = client.surface()
        _ = client.interaction(for: surface)
        wl_surface_commit(surface)
        client.roundtrip()
        shell.clients[SurfaceID(2)] = client.connection.serverClient
        _ = try host.driver.contactBegan(
            DriverHost.pen, source: .pen, at: Point(x: 5, y: 5), over: SurfaceHit(surface: SurfaceID(2)), force: 0.5,
            time: host.driver.now())
        client.roundtrip()
        #expect(host.driver.lookupsAsking == 0 && shell.events.isEmpty, "\(shell.news)")
        host.lift()
        host.driver.stopLookup()
    }

    @Test func thePreviewKeyOfAnySeatLooksUpAtTheFocusedWindow() throws {
        let (host, shell, _) = try host()
        // Menu on seat 2's keyboard, surface 1 focused: a simulated long press at the caret.
        _ = host.driver.key(
            PreviewKeys.Key(code: 127, pressed: true, time: host.driver.now()), seat: 2, device: DeviceID(7),
            focus: KeyboardFocus(surface: SurfaceID(1), size: Point(x: 200, y: 100)))
        // Held: time passes (the long press, then the simulated force), the answer awaited.
        for _ in 0..<400 {
            host.clock.advance(milliseconds: 5)
            host.display.dispatch(timeoutMilliseconds: 5)
            #expect(wait(host) { host.driver.lookupsAsking == 0 }, "no answer")
        }
        #expect(shell.news == ["1 found word", "1 completed"], "\(shell.news)")
        _ = host.driver.key(
            PreviewKeys.Key(code: 127, pressed: false, time: host.driver.now()), seat: 2, device: DeviceID(7),
            focus: nil)
        host.driver.stopLookup()
    }
}
