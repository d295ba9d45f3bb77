import CWaylandClient
import PreviewClientCore

// The libwayland listeners of the library's protocol objects, and the only file here with
// `Unmanaged`. Listener data: a Channel retained by its proxy (`Retained`, released when the
// proxy is destroyed: libwayland calls no listener of a destroyed proxy, and every listener
// runs on the thread that destroys it), or a SettingsWatch its owner keeps for longer than the
// manager.

/// A +1 reference handed to C, released exactly once.
package struct Retained {
    package let pointer: UnsafeMutableRawPointer

    package init(_ object: AnyObject) { pointer = Unmanaged.passRetained(object).toOpaque() }

    package func release() { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
}

// Every `data!` below is the pointer this file registered with the listener, which libwayland
// hands back unchanged: never NULL. The channel is kept alive through the event: an app's
// callback made from it may destroy the proxy and release the proxy's reference.
private func deliver(_ data: UnsafeMutableRawPointer?, _ event: PreviewWireEvent) {
    let channel = Unmanaged<Channel>.fromOpaque(data!).takeUnretainedValue()
    withExtendedLifetime(channel) { $0.received(event) }
}

/// Events of spi_preview_interaction_v1, wherever the object's queue is dispatched.
nonisolated(unsafe) package var interactionListener = spi_preview_interaction_v1_listener(
    should_begin: { data, _, id, source, force in
        deliver(data, .shouldBegin(interaction: id, source: source, force: force))
    },
    location: { data, _, id, x, y in
        deliver(data, .location(interaction: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
    },
    preview: { data, _, id, progress in
        deliver(data, .preview(interaction: id, progress: wl_fixed_to_double(progress)))
    },
    preview_ended: { data, _, id in deliver(data, .previewEnded(interaction: id)) },
    commit: { data, _, id, progress in
        deliver(data, .commit(interaction: id, progress: wl_fixed_to_double(progress)))
    },
    completed: { data, _, id in deliver(data, .completed(interaction: id)) },
    cancelled: { data, _, id, reason in deliver(data, .cancelled(interaction: id, reason: reason)) },
    frame: { data, _, id, serial, hi, lo in
        deliver(data, .frame(interaction: id, serial: serial, time: UInt64(hi) << 32 | UInt64(lo)))
    },
    behaviour: { data, _, id, behaviour, stages in
        deliver(data, .behaviour(interaction: id, behaviour: behaviour, stages: stages))
    },
    stage: { data, _, id, stage in deliver(data, .stage(interaction: id, stage: stage)) },
    haptics: { data, _, id, state in deliver(data, .haptics(interaction: id, state: state)) })

extension Channel {
    /// Listens to `proxy`'s events; the returned reference is released after destroying it.
    package static func listening(
        to proxy: OpaquePointer, display: OpaquePointer, log: @escaping (CoreMessage) -> Void
    ) -> (Channel, Retained) {
        let channel = Channel(proxy: proxy, display: display, log: log)
        let retained = Retained(channel)
        spi_preview_interaction_v1_add_listener(proxy, &interactionListener, retained.pointer)
        return (channel, retained)
    }
}

private func settings(_ data: UnsafeMutableRawPointer?) -> SettingsWatch {
    Unmanaged<SettingsWatch>.fromOpaque(data!).takeUnretainedValue()
}

/// The manager's settings group (version 2 and later), where the manager's queue is dispatched.
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
