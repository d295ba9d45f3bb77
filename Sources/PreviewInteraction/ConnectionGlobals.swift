import CWaylandClient

// The registry scans of the library's own connection setup (PreviewConnection, or
// PreviewInteractionClient looking for the global itself), the client's wakeup, and the only
// file of this module with `Unmanaged`.

/// The globals the library binds from a registry of its own, by registry name.
final class ConnectionGlobals {
    var compositor: (name: UInt32, version: UInt32)?
    var shm: (name: UInt32, version: UInt32)?
    var wmBase: (name: UInt32, version: UInt32)?
    var manager: (name: UInt32, version: UInt32)?
}

// `data!` is the pointer registered with the listener, handed back unchanged: never NULL.
nonisolated(unsafe) var connectionRegistryListener = wl_registry_listener(
    global: { data, _, name, interface, version in
        guard let interface else { return }
        let globals = Unmanaged<ConnectionGlobals>.fromOpaque(data!).takeUnretainedValue()
        switch String(cString: interface) {
        case "wl_compositor": globals.compositor = (name, version)
        case "wl_shm": globals.shm = (name, version)
        case "xdg_wm_base": globals.wmBase = (name, version)
        case PreviewInteractionClient.interfaceName: globals.manager = (name, version)
        default: break
        }
    },
    global_remove: { _, _, _ in })

/// The done of `PreviewInteractionClient`'s wakeup (its data: the client, which destroys the
/// callback before it goes away).
nonisolated(unsafe) var wakeupListener = wl_callback_listener(done: { data, _, _ in
    Unmanaged<PreviewInteractionClient>.fromOpaque(data!).takeUnretainedValue().wakeupArrived()
})

nonisolated(unsafe) var pingListener = xdg_wm_base_listener(ping: { _, wmBase, serial in
    xdg_wm_base_pong(wmBase, serial)
})

func withUnretained<T: AnyObject, R>(_ object: T, _ body: (UnsafeMutableRawPointer) -> R) -> R {
    withExtendedLifetime(object) { body(Unmanaged.passUnretained(object).toOpaque()) }
}
