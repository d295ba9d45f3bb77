import Logging
import PreviewCompositor
import PreviewEngine
import Synchronization
import WaylandServer

// The WLCS integration's Swift side: cwaylandwlcs.c calls these with integer handles. Nothing
// here may abort WLCS: a call on a server that failed to start is logged and does nothing.

@_cdecl("pcwlcs_server_create")
func serverCreate() -> UInt64 { WLCSServers.shared.add(WLCSServer()) }

@_cdecl("pcwlcs_server_destroy")
func serverDestroy(_ handle: UInt64) { WLCSServers.shared.remove(handle)?.stop() }

@_cdecl("pcwlcs_server_start")
func serverStart(_ handle: UInt64) { WLCSServers.shared[handle]?.start() }

@_cdecl("pcwlcs_server_stop")
func serverStop(_ handle: UInt64) { WLCSServers.shared[handle]?.stop() }

@_cdecl("pcwlcs_server_client_socket")
func serverClientSocket(_ handle: UInt64) -> Int32 { WLCSServers.shared[handle]?.clientSocket() ?? -1 }

@_cdecl("pcwlcs_server_position_window")
func serverPositionWindow(_ handle: UInt64, _ clientFD: Int32, _ surface: UInt32, _ x: Int32, _ y: Int32) {
    WLCSServers.shared[handle]?.positionWindow(clientFD: clientFD, surface: surface, x: x, y: y)
}

@_cdecl("pcwlcs_device_add")
func deviceAdd(_ handle: UInt64, _ touch: Int32) -> UInt32 {
    WLCSServers.shared[handle]?.addDevice(touch: touch != 0) ?? UInt32.max
}

@_cdecl("pcwlcs_device_remove")
func deviceRemove(_ handle: UInt64, _ device: UInt32) {
    WLCSServers.shared[handle]?.input { $0.removeDevice(DeviceID(device)) }
}

@_cdecl("pcwlcs_pointer_move")
func pointerMove(_ handle: UInt64, _ device: UInt32, _ absolute: Int32, _ x: Double, _ y: Double) {
    WLCSServers.shared[handle]?.input { input in
        if absolute != 0 {
            input.pointer(DeviceID(device), movedTo: Point(x: x, y: y))
        } else {
            input.pointer(DeviceID(device), movedBy: x, y)
        }
    }
}

@_cdecl("pcwlcs_pointer_button")
func pointerButton(_ handle: UInt64, _ device: UInt32, _ button: Int32, _ pressed: Int32) {
    guard let code = UInt16(exactly: button) else { return }
    WLCSServers.shared[handle]?.input { $0.pointer(DeviceID(device), button: code, pressed: pressed != 0) }
}

@_cdecl("pcwlcs_touch")
func touch(_ handle: UInt64, _ device: UInt32, _ phase: Int32, _ x: Double, _ y: Double) {
    WLCSServers.shared[handle]?.input { input in
        switch phase {
        case 0: input.touch(DeviceID(device), downAt: Point(x: x, y: y))
        case 1: input.touch(DeviceID(device), movedTo: Point(x: x, y: y))
        default: input.touchUp(DeviceID(device))
        }
    }
}
