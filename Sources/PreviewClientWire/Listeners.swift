import CWaylandClient
import PreviewClientCore

// The libwayland dispatcher and listeners of the library's protocol objects, and the only file
// here with `Unmanaged`. Their data: a Channel retained by its proxy (`Retained`, released when
// the proxy is destroyed: libwayland dispatches nothing to a destroyed proxy, and every event is
// dispatched on the thread that destroys it), or a SettingsWatch its owner keeps for longer
// than the manager. Every `data!` is the pointer registered here, handed back unchanged.

/// A +1 reference handed to C, released exactly once.
package struct Retained {
    package let pointer: UnsafeMutableRawPointer

    package init(_ object: AnyObject) { pointer = Unmanaged.passRetained(object).toOpaque() }

    package func release() { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
}

/// The events of spi_preview_interaction_v1 by opcode: the XML's order (WireOpcodeTests checks
/// it against the interface table).
package enum InteractionEventOpcode: UInt32, CaseIterable {
    case shouldBegin, location, preview, previewEnded, commit, completed, cancelled, frame, behaviour, stage, haptics
}

/// The objects' events, wherever their queue is dispatched. A dispatcher, not a listener:
/// libwayland hands over the opcode and the arguments it has already parsed, instead of
/// calling a listener through libffi (a call set up per event, which costs about as much as
/// the rest of the event's handling: BENCHMARKS.md). An opcode this library does not know is
/// ignored. The channel is kept alive through the event: an app's callback made from it may
/// destroy the proxy and release the proxy's reference.
private let interactionDispatcher: wl_dispatcher_func_t = { _, target, opcode, _, arguments in
    guard let target, let arguments, let data = wl_proxy_get_user_data(OpaquePointer(target)),
        let kind = InteractionEventOpcode(rawValue: opcode)
    else { return 0 }
    let id = arguments[0].u
    let event: PreviewWireEvent
    switch kind {
    case .shouldBegin: event = .shouldBegin(interaction: id, source: arguments[1].u, force: arguments[2].u)
    case .location:
        event = .location(
            interaction: id, x: wl_fixed_to_double(arguments[1].f), y: wl_fixed_to_double(arguments[2].f))
    case .preview: event = .preview(interaction: id, progress: wl_fixed_to_double(arguments[1].f))
    case .previewEnded: event = .previewEnded(interaction: id)
    case .commit: event = .commit(interaction: id, progress: wl_fixed_to_double(arguments[1].f))
    case .completed: event = .completed(interaction: id)
    case .cancelled: event = .cancelled(interaction: id, reason: arguments[1].u)
    case .frame:
        event = .frame(
            interaction: id, serial: arguments[1].u, time: UInt64(arguments[2].u) << 32 | UInt64(arguments[3].u))
    case .behaviour: event = .behaviour(interaction: id, behaviour: arguments[1].u, stages: arguments[2].u)
    case .stage: event = .stage(interaction: id, stage: arguments[1].u)
    case .haptics: event = .haptics(interaction: id, state: arguments[1].u)
    }
    let channel = Unmanaged<Channel>.fromOpaque(data).takeUnretainedValue()
    withExtendedLifetime(channel) { $0.received(event) }
    return 0
}

extension Channel {
    /// Takes `proxy`'s events; the returned reference is released after destroying it.
    package static func listening(
        to proxy: OpaquePointer, display: OpaquePointer, log: @escaping (CoreMessage) -> Void
    ) -> (Channel, Retained) {
        let channel = Channel(proxy: proxy, display: display, log: log)
        let retained = Retained(channel)
        wl_proxy_add_dispatcher(proxy, interactionDispatcher, nil, retained.pointer)
        return (channel, retained)
    }
}

/// The watch the listener was added with (nil only if libwayland passed no data: ignored).
private func settings(_ data: UnsafeMutableRawPointer?) -> SettingsWatch? {
    data.map { Unmanaged<SettingsWatch>.fromOpaque($0).takeUnretainedValue() }
}

/// The manager's settings group (version 2 and later), where the manager's queue is dispatched.
nonisolated(unsafe) package var managerListener = spi_preview_interaction_manager_v1_listener(
    sensitivity: { data, _, preset in settings(data)?.read(.sensitivity(preset)) },
    thresholds: { data, _, begin, commit, complete in
        settings(data)?.read(
            .thresholds(
                begin: wl_fixed_to_double(begin), commit: wl_fixed_to_double(commit),
                complete: wl_fixed_to_double(complete)))
    },
    long_press_duration: { data, _, milliseconds in
        settings(data)?.read(.longPressDuration(milliseconds: milliseconds))
    },
    haptics: { data, _, setting in settings(data)?.read(.haptics(setting)) },
    completion: { data, _, mode in settings(data)?.read(.completion(mode)) },
    settings_done: { data, _ in settings(data)?.read(.done) })

extension SettingsWatch {
    /// Listens to `manager`'s settings (a manager of version 2 or later).
    package func listen(to manager: OpaquePointer) {
        spi_preview_interaction_manager_v1_add_listener(
            manager, &managerListener, Unmanaged.passUnretained(self).toOpaque())
    }
}
