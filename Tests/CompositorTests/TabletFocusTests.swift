import Foundation
import InputEvents
import PreviewEngine
import Testing

/// Where the pen goes with two clients side by side (tiled: left 0..640, right 640..1280): a
/// tablet client on the left, a pointer-only client on the right. Synthetic pen events are
/// injected into the in-process compositor; both clients are the pywayland tablet_client.py.
@Suite(.serialized) struct TabletFocusTests {
    @Test func thePenLeavesTheTabletClientForThePointerOneAndIsGrabbedWhileDown() throws {
        let compositor = try startCompositor()
        defer { compositor.stop() }
        let directory = TestRuntime.temporaryDirectory("tablet-focus")
        let (tabletLog, pointerLog) = (directory + "/tablet.log", directory + "/pointer.log")
        let left = try startClient(
            ["/usr/bin/python3", TabletTests.client, "--tablet", tabletLog], socket: compositor.socketName)
        defer { _ = left.terminate() }
        _ = TouchCommitTests.waitFor("mapped", in: tabletLog)
        let right = try startClient(
            ["/usr/bin/python3", TabletTests.client, "--pointer", pointerLog], socket: compositor.socketName)
        defer { _ = right.terminate() }
        _ = TouchCommitTests.waitFor("mapped", in: pointerLog)
        _ = compositor.wait(timeout: 20) { $0.windows.count >= 2 }
        #expect(compositor.sync { $0.windows.map(\.rect.x) } == [0, 640])

        let device = DeviceID(9)
        @Sendable func tool(_ x: Double) -> ToolState {
            ToolState(
                device: device, time: TouchCommitTests.now(), position: NormalisedPoint(x: x, y: 0.5), pressure: 0,
                axes: PenAxes(tool: .pen, distance: 0.3))
        }
        @Sendable func tip(_ x: Double, _ force: Double) -> DeviceContact {
            DeviceContact(
                key: ContactKey(device: device), time: TouchCommitTests.now(), force: force, hasForce: true,
                position: NormalisedPoint(x: x, y: 0.5), positioning: .absolute, source: .pen,
                pen: PenAxes(tool: .pen, distance: 0))
        }
        // Hover in on the left, over to the right, back to the left.
        compositor.sync { $0.inject(.toolProximity(tool(0.25), inProximity: true)) }
        compositor.sync { $0.inject(.toolMotion(tool(0.75))) }
        compositor.sync { $0.inject(.toolMotion(tool(0.25))) }
        // Tip down on the left, drag to the right while down (grabbed), lift there, leave.
        compositor.sync { $0.inject(.contactBegan(tip(0.25, 0.4))) }
        compositor.sync { $0.inject(.contactChanged(tip(0.75, 0.5))) }
        compositor.sync {
            $0.inject(.contactEnded(ContactKey(device: device), time: TouchCommitTests.now(), reason: .lifted))
        }
        compositor.sync { $0.inject(.toolMotion(tool(0.76))) }
        compositor.sync { $0.inject(.toolProximity(tool(0.76), inProximity: false)) }
        compositor.sync { $0.flushClients() }

        // Synchronise on the clients' output: the tablet client's second proximity_out is its last event.
        let tablet = left.waitForText(in: tabletLog, timeout: 20) {
            $0.components(separatedBy: "tool proximity_out").count >= 3
        }
        let events = tablet.split(separator: "\n")
            .filter {
                $0.hasPrefix("tool ") && !["tool frame", "tool added"].contains($0) && !$0.hasPrefix("tool type")
                    && !$0.hasPrefix("tool capability") && !$0.hasPrefix("tool distance")
                    && !$0.hasPrefix("tool pressure")
            }
        #expect(
            events == [
                "tool proximity_in", "tool motion 320.0 400.0",  // hover on the left
                "tool proximity_out",  // over the pointer client: out
                "tool proximity_in", "tool motion 320.0 400.0",  // back
                "tool motion 320.0 400.0", "tool down",  // the tip
                "tool motion 960.0 400.0",  // dragged over the other window: still ours (grab)
                "tool motion 960.0 400.0", "tool up",  // lifted there
                "tool proximity_out",  // then the hover belongs to the other client
            ], "\(events)\n\(tablet)")
        let pointer = TouchCommitTests.waitFor("pointer motion 332.8", in: pointerLog).split(separator: "\n")
            .filter { $0.hasPrefix("pointer ") }
        // The pointer client saw the pen as a pointer while it hovered there, and no button.
        #expect(
            pointer.contains("pointer motion 320.0 400.0") || pointer.contains { $0.hasPrefix("pointer enter 320.0") },
            "\(pointer)")
        #expect(!pointer.contains { $0.hasPrefix("pointer button") }, "\(pointer)")
    }
}
