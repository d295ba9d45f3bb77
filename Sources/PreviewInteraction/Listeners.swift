import CWaylandClient
import PreviewClientCore
internal import SystemLayer

// Every libwayland listener of the library, and the only file with `Unmanaged`. Listener data:
// a Channel (retained by its proxy until the reading thread has passed a quiet point after the
// proxy's destruction: `Retained.release`), or the client (unretained: it destroys the wakeup
// callback before it goes away).

/// A +1 reference handed to C, released exactly once.
package struct Retained: @unchecked Sendable {  // an opaque pointer; released once, by its owner
    package let pointer: UnsafeMutableRawPointer

    package init(_ object: AnyObject) { pointer = Unmanaged.passRetained(object).toOpaque() }

    package func release() { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
}

// Every `data!`/`context!` below is the pointer this file registered with the listener (or
// pthread_create), which libwayland (or pthread) hands back unchanged: never NULL.
private func channel(_ data: UnsafeMutableRawPointer?) -> Channel {
    Unmanaged<Channel>.fromOpaque(data!).takeUnretainedValue()
}

/// Events of spi_preview_interaction_v1, on the reading thread.
nonisolated(unsafe) package var interactionListener = spi_preview_interaction_v1_listener(
    should_begin: { data, _, id, source, force in
        channel(data).received(.shouldBegin(interaction: id, source: source, force: force))
    },
    location: { data, _, id, x, y in
        channel(data).received(.location(interaction: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
    },
    preview: { data, _, id, progress in
        channel(data).received(.preview(interaction: id, progress: wl_fixed_to_double(progress)))
    },
    preview_ended: { data, _, id in channel(data).received(.previewEnded(interaction: id)) },
    commit: { data, _, id, progress in
        channel(data).received(.commit(interaction: id, progress: wl_fixed_to_double(progress)))
    },
    completed: { data, _, id in channel(data).received(.completed(interaction: id)) },
    cancelled: { data, _, id, reason in channel(data).received(.cancelled(interaction: id, reason: reason)) },
    frame: { data, _, id, serial, hi, lo in
        channel(data).received(.frame(interaction: id, serial: serial, time: UInt64(hi) << 32 | UInt64(lo)))
    },
    behaviour: { data, _, id, behaviour, stages in
        channel(data).received(.behaviour(interaction: id, behaviour: behaviour, stages: stages))
    },
    stage: { data, _, id, stage in channel(data).received(.stage(interaction: id, stage: stage)) },
    haptics: { data, _, id, state in channel(data).received(.haptics(interaction: id, state: state)) })

private func settings(_ data: UnsafeMutableRawPointer?) -> SettingsWatch {
    Unmanaged<SettingsWatch>.fromOpaque(data!).takeUnretainedValue()
}

/// The manager's settings group (version 2), where the library's queue is dispatched. The
/// data is a SettingsWatch its owner keeps for longer than the manager.
nonisolated(unsafe) package var managerListener = spi_preview_interaction_manager_v1_listener(
    sensitivity: { data, _, preset in settings(data).read(.sensitivity(preset)) },
    thresholds: { data, _, begin, commit, complete in
        settings(data).read(
            .thresholds(
                begin: wl_fixed_to_double(begin), commit: wl_fixed_to_double(commit),
                complete: wl_fixed_to_double(complete)))
    },
    long_press_duration: { data, _, milliseconds in
        settings(data).read(.longPressDuration(milliseconds: milliseconds))
    },
    haptics: { data, _, setting in settings(data).read(.haptics(setting)) },
    completion: { data, _, mode in settings(data).read(.completion(mode)) },
    settings_done: { data, _ in settings(data).read(.done) })

extension SettingsWatch {
    /// Listens to `manager`'s settings (a manager of version 2 or later).
    package func listen(to manager: OpaquePointer) {
        spi_preview_interaction_manager_v1_add_listener(
            manager, &managerListener, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// The wakeup's wl_callback.done, on the app's thread: deliver what the reading thread filed.
nonisolated(unsafe) var wakeupListener = wl_callback_listener(
    done: { data, callback, _ in
        Unmanaged<PreviewInteractionClient>.fromOpaque(data!).takeUnretainedValue().wakeupArrived(callback)
    })

extension PreviewInteractionClient {
    var unretainedSelf: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

// MARK: the registry of the library's own connection setup

/// The globals the library binds from a registry of its own (PreviewConnection, or
/// PreviewInteractionClient looking for the global itself), by registry name.
package final class ConnectionGlobals {
    package var compositor: (name: UInt32, version: UInt32)?
    package var shm: (name: UInt32, version: UInt32)?
    package var wmBase: (name: UInt32, version: UInt32)?
    package var manager: (name: UInt32, version: UInt32)?
    package init() {}
}

nonisolated(unsafe) package var connectionRegistryListener = wl_registry_listener(
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

nonisolated(unsafe) var pingListener = xdg_wm_base_listener(ping: { _, wmBase, serial in
    xdg_wm_base_pong(wmBase, serial)
})

package func withUnretained<T: AnyObject, R>(_ object: T, _ body: (UnsafeMutableRawPointer) -> R) -> R {
    withExtendedLifetime(object) { body(Unmanaged.passUnretained(object).toOpaque()) }
}
