import CWaylandServer
import WaylandServer

/// zwp_tablet_manager_v2: every tablet seat gets one virtual tablet and one pen tool, so
/// tablet-aware clients receive pen pressure, distance and tilt the standard way.
final class TabletManagerResource: ResourceObject {
    weak var seat: Seat?

    init?(seat: Seat, client: Client, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(
            client: client, interface: cwl_interface_zwp_tablet_manager_v2(), version: version, id: id,
            implementation: TabletManagerResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_zwp_tablet_manager_v2_impl()
        impl.get_tablet_seat = { _, resource, id, _ in
            guard let manager = resolve(resource, as: TabletManagerResource.self), let seat = manager.seat,
                let tabletSeat = TabletSeatResource(client: manager.client, version: manager.version, id: id)
            else { return }
            tabletSeat.announce()
            seat.tabletSeatBound(tabletSeat)
        }
        impl.destroy = destroyResourceRequest
        return makeImplementation(impl)
    }()
}

/// zwp_tablet_seat_v2 with its server-created tablet and tool.
final class TabletSeatResource: ResourceObject {
    private(set) var tablet: TabletResource?
    private(set) var tool: TabletToolResource?
    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_zwp_tablet_seat_v2(), version: version, id: id,
            implementation: TabletSeatResource.implementation)
    }

    func announce() {
        guard let resource else { return }
        if let tablet = TabletResource(client: client, version: version), let tabletResource = tablet.resource {
            zwp_tablet_seat_v2_send_tablet_added(resource, tabletResource)
            zwp_tablet_v2_send_name(tabletResource, "preview-compositor virtual tablet")
            zwp_tablet_v2_send_done(tabletResource)
            self.tablet = tablet
        }
        if let tool = TabletToolResource(client: client, version: version), let toolResource = tool.resource {
            zwp_tablet_seat_v2_send_tool_added(resource, toolResource)
            zwp_tablet_tool_v2_send_type(toolResource, ZWP_TABLET_TOOL_V2_TYPE_PEN.rawValue)
            for capability in [
                ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE, ZWP_TABLET_TOOL_V2_CAPABILITY_DISTANCE,
                ZWP_TABLET_TOOL_V2_CAPABILITY_TILT,
            ] {
                zwp_tablet_tool_v2_send_capability(toolResource, capability.rawValue)
            }
            zwp_tablet_tool_v2_send_done(toolResource)
            self.tool = tool
        }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_zwp_tablet_seat_v2_impl()
        impl.destroy = destroyResourceRequest
        return makeImplementation(impl)
    }()
}

final class TabletResource: ResourceObject {
    init?(client: Client, version: UInt32) {
        super.init(
            client: client, interface: cwl_interface_zwp_tablet_v2(), version: version, id: 0,
            implementation: TabletResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_zwp_tablet_v2_impl()
        impl.destroy = destroyResourceRequest
        return makeImplementation(impl)
    }()
}

final class TabletToolResource: ResourceObject {
    init?(client: Client, version: UInt32) {
        super.init(
            client: client, interface: cwl_interface_zwp_tablet_tool_v2(), version: version, id: 0,
            implementation: TabletToolResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_zwp_tablet_tool_v2_impl()
        impl.set_cursor = { _, _, _, _, _, _ in }
        impl.destroy = destroyResourceRequest
        return makeImplementation(impl)
    }()
}
