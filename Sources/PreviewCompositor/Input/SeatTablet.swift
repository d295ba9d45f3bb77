import CWaylandServer
import InputEvents
import PreviewEngine
import WaylandServer

/// Pen events as tablet-v2 events, for clients that bound a tablet seat (as wlroots and sway
/// route them): the tool is in proximity of the surface under it, and while its tip is down it
/// stays with the surface the tip went down on (an implicit grab, coordinates may leave the
/// surface). A pen over a client without a tablet seat is the caller's to emulate as a pointer.
///
/// The per-event path walks `tabletSeats` in place: no arrays are built per event.
extension Seat {
    /// What the tip did in this frame.
    enum Tip { case unchanged, down, up }

    func tabletSeatBound(_ tabletSeat: TabletSeatResource) {
        tabletSeats.removeAll { $0.value?.isAlive != true }
        tabletSeats.append(Weak(tabletSeat))
    }

    /// Whether a client has a live tablet seat with a tool (checked before a pen contact is
    /// routed to tablet-v2 or to pointer emulation).
    func hasTablet(_ client: Client) -> Bool {
        for weak in tabletSeats {
            if let tabletSeat = weak.value, tabletSeat.isAlive, tabletSeat.client == client,
                tabletSeat.tool?.isAlive == true
            {
                return true
            }
        }
        return false
    }

    /// The surface the tool is in proximity of, if any.
    var tabletFocusSurface: Surface? { tabletFocus.flatMap { $0.isAlive ? $0 : nil } }

    /// One pen frame at `point` (output coordinates): proximity out of the surface it left and in
    /// to the one under it (unless the tip is down: then it stays), motion, axes, the tip, frame.
    /// Returns false when the pen is not over a tablet client (nothing was sent to anyone but
    /// the proximity_out of the surface it left).
    @discardableResult
    func tabletTool(at point: Point, pressure: Double?, axes: PenAxes?, tip: Tip, time: UInt32) -> Bool {
        let target: Surface?
        let local: Point
        if tabletTipDown, let grabbed = tabletFocusSurface {
            let origin = grabbed.node.outputOrigin
            (target, local) = (grabbed, Point(x: point.x - Double(origin.x), y: point.y - Double(origin.y)))
        } else if let hit = scene.surface(at: point), let surface = surfaces[hit.surface.id],
            hasTablet(surface.client)
        {
            (target, local) = (surface, hit.local)
        } else {
            (target, local) = (nil, point)
        }
        if let focus = tabletFocus, focus !== target || !focus.isAlive {
            tabletProximityOut(time: time)
        }
        guard let target, let surface = target.resource else { return false }
        let enter = tabletFocus == nil
        tabletFocus = target
        let serial = enter || tip == .down ? serials.next() : 0
        for weak in tabletSeats {
            guard let tabletSeat = weak.value, tabletSeat.isAlive, tabletSeat.client == target.client,
                let tool = tabletSeat.tool?.resource, let tablet = tabletSeat.tablet?.resource
            else { continue }
            if enter { zwp_tablet_tool_v2_send_proximity_in(tool, serial, tablet, surface) }
            zwp_tablet_tool_v2_send_motion(tool, local.x.fixed, local.y.fixed)
            if let pressure { zwp_tablet_tool_v2_send_pressure(tool, Self.unit16(pressure)) }
            if let distance = axes?.distance { zwp_tablet_tool_v2_send_distance(tool, Self.unit16(distance)) }
            if let axes, axes.tiltX != nil || axes.tiltY != nil {
                zwp_tablet_tool_v2_send_tilt(tool, (axes.tiltX ?? 0).fixed, (axes.tiltY ?? 0).fixed)
            }
            switch tip {
            case .down where !tabletTipDown: zwp_tablet_tool_v2_send_down(tool, serial)
            case .up where tabletTipDown: zwp_tablet_tool_v2_send_up(tool)
            case .down, .up, .unchanged: break
            }
            zwp_tablet_tool_v2_send_frame(tool, time)
        }
        switch tip {
        case .down: tabletTipDown = true
        case .up: tabletTipDown = false
        case .unchanged: break
        }
        return true
    }

    /// The tool left the surface (out of range, or taken away by a preview interaction's
    /// commit phase): up first if the tip is down, then proximity_out, in one frame.
    func tabletProximityOut(time: UInt32) {
        guard let focus = tabletFocus else { return }
        tabletFocus = nil
        defer { tabletTipDown = false }
        guard focus.isAlive else { return }
        for weak in tabletSeats {
            guard let tabletSeat = weak.value, tabletSeat.isAlive, tabletSeat.client == focus.client,
                let tool = tabletSeat.tool?.resource
            else { continue }
            if tabletTipDown { zwp_tablet_tool_v2_send_up(tool) }
            zwp_tablet_tool_v2_send_proximity_out(tool)
            zwp_tablet_tool_v2_send_frame(tool, time)
        }
    }

    /// Forgets the tip without telling the client (a release the preview protocol swallows).
    func tabletTipReleasedSilently() { tabletTipDown = false }

    /// 0...1 to tablet-v2's 0...65535.
    private static func unit16(_ value: Double) -> UInt32 {
        guard value.isFinite else { return 0 }
        return UInt32((min(max(value, 0), 1) * 65535).rounded())
    }
}

extension Seat {
    /// A pen's barrel button (BTN_STYLUS...) while the tool is on a tablet client. False when
    /// it is not (the caller delivers it as a pointer button).
    func tabletButton(_ button: UInt32, pressed: Bool, time: UInt32) -> Bool {
        guard let focus = tabletFocusSurface else { return false }
        let serial = serials.next()
        let state =
            pressed
            ? ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED.rawValue : ZWP_TABLET_TOOL_V2_BUTTON_STATE_RELEASED.rawValue
        for weak in tabletSeats {
            guard let tabletSeat = weak.value, tabletSeat.isAlive, tabletSeat.client == focus.client,
                let tool = tabletSeat.tool?.resource
            else { continue }
            zwp_tablet_tool_v2_send_button(tool, serial, button, state)
            zwp_tablet_tool_v2_send_frame(tool, time)
        }
        return true
    }
}
