import CWaylandServer
import EvdevDecoder
import PreviewEngine
import WaylandServer

/// Pen events as tablet-v2 events, for clients that bound a tablet seat. Returns false when
/// the surface's client has none (the caller then emulates the pointer).
extension Seat {
    func tabletSeatBound(_ tabletSeat: TabletSeatResource) {
        tabletSeats.removeAll { $0.value?.isAlive != true }
        tabletSeats.append(Weak(tabletSeat))
    }

    private func tabletSeats(of client: Client) -> [TabletSeatResource] {
        tabletSeats.compactMap(\.value).filter { $0.isAlive && $0.client == client && $0.tool?.isAlive == true }
    }

    /// The pen is at `point` (output coordinates), hovering or touching. Sends proximity
    /// in/out when the surface under it changes, then motion and axes, then frame.
    @discardableResult
    func tabletTool(at point: Point, pressure: Double?, axes: PenAxes?, time: UInt32) -> Bool {
        let hit = compositor.scene.surface(at: point)
        let target = hit.flatMap { compositor.surfaces[$0.surface.id] }
        var handled = false
        for weak in tabletSeats {
            guard let tabletSeat = weak.value, tabletSeat.isAlive, let tool = tabletSeat.tool?.resource else { continue }
            if let focus = tabletSeat.focus, focus !== target || !focus.isAlive {
                if tabletSeat.isDown { zwp_tablet_tool_v2_send_up(tool); tabletSeat.isDown = false }
                zwp_tablet_tool_v2_send_proximity_out(tool)
                zwp_tablet_tool_v2_send_frame(tool, time)
                tabletSeat.focus = nil
            }
            guard let target, let hit, target.client == tabletSeat.client, let surface = target.resource else { continue }
            handled = true
            if tabletSeat.focus == nil, let tablet = tabletSeat.tablet?.resource {
                zwp_tablet_tool_v2_send_proximity_in(tool, compositor.display.nextSerial(), tablet, surface)
                tabletSeat.focus = target
            }
            zwp_tablet_tool_v2_send_motion(tool, hit.local.x.fixed, hit.local.y.fixed)
            if let pressure { zwp_tablet_tool_v2_send_pressure(tool, UInt32(max(0, min(1, pressure)) * 65535)) }
            if let distance = axes?.distance { zwp_tablet_tool_v2_send_distance(tool, UInt32(max(0, min(1, distance)) * 65535)) }
            if let axes, axes.tiltX != nil || axes.tiltY != nil {
                zwp_tablet_tool_v2_send_tilt(tool, (axes.tiltX ?? 0).fixed, (axes.tiltY ?? 0).fixed)
            }
            zwp_tablet_tool_v2_send_frame(tool, time)
        }
        return handled
    }

    /// Tip down or up on the surface the tool is in proximity of.
    @discardableResult
    func tabletTip(down: Bool, pressure: Double?, time: UInt32) -> Bool {
        var handled = false
        for weak in tabletSeats {
            guard let tabletSeat = weak.value, tabletSeat.isAlive, tabletSeat.focus != nil,
                let tool = tabletSeat.tool?.resource, tabletSeat.isDown != down
            else { continue }
            handled = true
            tabletSeat.isDown = down
            if down {
                zwp_tablet_tool_v2_send_down(tool, compositor.display.nextSerial())
                if let pressure { zwp_tablet_tool_v2_send_pressure(tool, UInt32(max(0, min(1, pressure)) * 65535)) }
            } else {
                zwp_tablet_tool_v2_send_up(tool)
            }
            zwp_tablet_tool_v2_send_frame(tool, time)
        }
        return handled
    }

    /// The pen left the sensing range.
    func tabletProximityOut(time: UInt32) {
        for weak in tabletSeats {
            guard let tabletSeat = weak.value, tabletSeat.isAlive, tabletSeat.focus != nil,
                let tool = tabletSeat.tool?.resource
            else { continue }
            if tabletSeat.isDown { zwp_tablet_tool_v2_send_up(tool); tabletSeat.isDown = false }
            zwp_tablet_tool_v2_send_proximity_out(tool)
            zwp_tablet_tool_v2_send_frame(tool, time)
            tabletSeat.focus = nil
        }
    }
}
