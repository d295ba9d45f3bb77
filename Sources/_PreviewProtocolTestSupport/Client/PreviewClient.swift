import CWaylandClient
import SystemLayer
import WaylandServer

/// What a client received on one spi_preview_interaction_v1, in order.
public enum Event: Equatable, CustomStringConvertible {
    case shouldBegin(UInt32, source: UInt32, force: UInt32)
    case location(UInt32, x: Double, y: Double)
    case preview(UInt32, Double)
    case previewEnded(UInt32)
    case commit(UInt32, Double)
    case completed(UInt32)
    case cancelled(UInt32, reason: UInt32)
    case frame(UInt32, serial: UInt32, microseconds: UInt64)
    case behaviour(UInt32, behaviour: UInt32, stages: UInt32)
    case stage(UInt32, UInt32)
    case haptics(UInt32, available: Bool)

    public var description: String {
        switch self {
        case .shouldBegin(let i, let s, let f): "should_begin(\(i), source \(s), force \(f))"
        case .location(let i, let x, let y): "location(\(i), \(x), \(y))"
        case .preview(let i, let p): "preview(\(i), \(p))"
        case .previewEnded(let i): "preview_ended(\(i))"
        case .commit(let i, let p): "commit(\(i), \(p))"
        case .completed(let i): "completed(\(i))"
        case .cancelled(let i, let r): "cancelled(\(i), reason \(r))"
        case .frame(let i, let s, let t): "frame(\(i), serial \(s), \(t)µs)"
        case .behaviour(let i, let b, let s): "behaviour(\(i), \(b), stages \(s))"
        case .stage(let i, let s): "stage(\(i), \(s))"
        case .haptics(let i, let a): "haptics(\(i), \(a ? "available" : "unavailable"))"
        }
    }

    public var isFrame: Bool { if case .frame = self { true } else { false } }
}

/// The events of one interaction object, and whether frames are acknowledged on receipt.
public struct Recorder {
    public var events: [Event] = []
    public var autoAck = true
}

/// The manager's settings events (version 2), as received: one string per event.
public struct SettingsRecorder {
    /// Every group closed by settings_done, in order.
    public var groups: [[String]] = []
    var pending: [String] = []
}

/// A real libwayland client of the harness: binds wl_compositor and the manager.
public final class PreviewClient {
    public let connection: Connection
    public let compositor: OpaquePointer
    public let manager: OpaquePointer
    private var recorders: [UnsafeMutablePointer<Recorder>] = []
    private let settingsRecorder: UnsafeMutablePointer<SettingsRecorder>

    public convenience init(_ harness: ProtocolHarness, version: UInt32 = 1) throws {
        try self.init(display: harness.display, version: version)
    }

    /// A client of any display that advertises the manager, bound at `version`.
    public init(display: Display, version: UInt32 = 1) throws {
        connection = try Connection(to: display)
        guard let compositor = connection.bind(cwl_interface_wl_compositor(), version: 4),
            let manager = connection.bind(cwl_interface_spi_preview_interaction_manager_v1(), version: version)
        else { throw WaylandServerError("the display does not advertise wl_compositor and the manager") }
        self.compositor = compositor
        self.manager = manager
        settingsRecorder = .allocate(capacity: 1)
        settingsRecorder.initialize(to: SettingsRecorder())
        spi_preview_interaction_manager_v1_add_listener(manager, &managerListener, settingsRecorder)
    }

    deinit {
        for recorder in recorders { recorder.deinitialize(count: 1).deallocate() }
        settingsRecorder.deinitialize(count: 1).deallocate()
    }

    /// The settings groups received so far (version 2 managers only).
    public var settingsGroups: [[String]] { settingsRecorder.pointee.groups }

    public func surface() -> OpaquePointer { wl_compositor_create_surface(compositor) }

    public func region(_ rectangles: [(Int32, Int32, Int32, Int32)]) -> OpaquePointer {
        let region = wl_compositor_create_region(compositor)!
        for (x, y, w, h) in rectangles { wl_region_add(region, x, y, w, h) }
        return region
    }

    /// get_interaction, with a listener that records into the returned object; by default
    /// waits until the server has created it.
    public func interaction(for surface: OpaquePointer, sync: Bool = true) -> ClientInteraction {
        let proxy = spi_preview_interaction_manager_v1_get_interaction(manager, surface)!
        let recorder = UnsafeMutablePointer<Recorder>.allocate(capacity: 1)
        recorder.initialize(to: Recorder())
        recorders.append(recorder)
        spi_preview_interaction_v1_add_listener(proxy, &interactionListener, recorder)
        if sync { roundtrip() }
        return ClientInteraction(proxy: proxy, recorder: recorder)
    }

    @discardableResult
    public func roundtrip() -> Bool { connection.roundtrip() }
}

public struct ClientInteraction {
    public let proxy: OpaquePointer
    public let recorder: UnsafeMutablePointer<Recorder>

    public var events: [Event] { recorder.pointee.events }
    /// The events without frames, to compare sequences.
    public var phaseEvents: [Event] { events.filter { !$0.isFrame } }
    public func clear() { recorder.pointee.events.removeAll() }
    public func autoAck(_ on: Bool) { recorder.pointee.autoAck = on }

    public func accept(_ id: UInt32) { spi_preview_interaction_v1_accept(proxy, id) }
    public func decline(_ id: UInt32) { spi_preview_interaction_v1_decline(proxy, id) }
    public func cancel(_ id: UInt32) { spi_preview_interaction_v1_cancel(proxy, id) }
    public func ack(_ serial: UInt32) { spi_preview_interaction_v1_ack_frame(proxy, serial) }
    public func setSources(_ bits: UInt32) { spi_preview_interaction_v1_set_sources(proxy, bits) }
    public func setRegion(_ region: OpaquePointer?) { spi_preview_interaction_v1_set_region(proxy, region) }
    public func setBehaviour(_ behaviour: UInt32, stages: UInt32 = 0, region: OpaquePointer?) {
        spi_preview_interaction_v1_set_behaviour(proxy, behaviour, stages, region)
    }
    public func clearBehaviours() { spi_preview_interaction_v1_clear_behaviours(proxy) }
    public func playHaptic(_ id: UInt32, effect: UInt32) { spi_preview_interaction_v1_play_haptic(proxy, id, effect) }
    public func destroy() { spi_preview_interaction_v1_destroy(proxy) }
}

private func record(_ data: UnsafeMutableRawPointer?, _ event: Event) {
    data?.assumingMemoryBound(to: Recorder.self).pointee.events.append(event)
}

nonisolated(unsafe) private var interactionListener = spi_preview_interaction_v1_listener(
    should_begin: { data, _, id, source, force in record(data, .shouldBegin(id, source: source, force: force)) },
    location: { data, _, id, x, y in record(data, .location(id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))) },
    preview: { data, _, id, progress in record(data, .preview(id, wl_fixed_to_double(progress))) },
    preview_ended: { data, _, id in record(data, .previewEnded(id)) },
    commit: { data, _, id, progress in record(data, .commit(id, wl_fixed_to_double(progress))) },
    completed: { data, _, id in record(data, .completed(id)) },
    cancelled: { data, _, id, reason in record(data, .cancelled(id, reason: reason)) },
    frame: { data, proxy, id, serial, hi, lo in
        record(data, .frame(id, serial: serial, microseconds: UInt64(hi) << 32 | UInt64(lo)))
        if data?.assumingMemoryBound(to: Recorder.self).pointee.autoAck == true, let proxy {
            spi_preview_interaction_v1_ack_frame(proxy, serial)
        }
    },
    behaviour: { data, _, id, behaviour, stages in record(data, .behaviour(id, behaviour: behaviour, stages: stages)) },
    stage: { data, _, id, level in record(data, .stage(id, level)) },
    haptics: { data, _, id, state in record(data, .haptics(id, available: state == 1)) })

private func recordSetting(_ data: UnsafeMutableRawPointer?, _ text: String) {
    data?.assumingMemoryBound(to: SettingsRecorder.self).pointee.pending.append(text)
}

nonisolated(unsafe) private var managerListener = spi_preview_interaction_manager_v1_listener(
    sensitivity: { data, _, preset in recordSetting(data, "sensitivity \(preset)") },
    thresholds: { data, _, begin, commit, complete in
        recordSetting(
            data,
            "thresholds \(wl_fixed_to_double(begin)) \(wl_fixed_to_double(commit)) \(wl_fixed_to_double(complete))")
    },
    long_press_duration: { data, _, milliseconds in recordSetting(data, "long_press_duration \(milliseconds)") },
    haptics: { data, _, setting in recordSetting(data, "haptics \(setting)") },
    completion: { data, _, mode in recordSetting(data, "completion \(mode)") },
    settings_done: { data, _ in
        guard let recorder = data?.assumingMemoryBound(to: SettingsRecorder.self) else { return }
        recorder.pointee.groups.append(recorder.pointee.pending)
        recorder.pointee.pending.removeAll()
    })
