import CCompositorModule
import Glibc
import WaylandServer
import _PreviewProtocolTestSupport

// The host's side: a C compositor's use of libpreview-interaction, through its C entry points
// only, with every callback set. The callbacks check what the header promises (a 1.1 host's
// phase callback sees phases 1...6 only; stages come through the stage callback, 1...5) and
// may call back into the library, as a host may.

/// What a callback does besides recording, chosen by the input.
enum Reentry: UInt8 {
    case nothing, liftTheContact, cancelTheContact, destroyTheContext, removeTheDevice, surfaceGone
}

/// How the host's region_boxes callback answers, chosen by the input.
enum RegionAnswer: UInt8 {
    case boxes, notOurs, none, moreThanAsked, absurd
}

struct HostState {
    var now: UInt64 = 1_000_000
    var context: OpaquePointer?
    /// Every device handle the host was given, removed ones too (stale handles are errors).
    var devices: [OpaquePointer] = []
    var reentry = Reentry.nothing
    var regionAnswer = RegionAnswer.boxes
    /// Callbacks running now: a re-entered callback does nothing more (no unbounded recursion).
    var depth = 0
    var phases = 0
    var stages = 0
    /// preview-lookup's side, when the script turned Look Up on.
    var standIn = StandIn()
}

nonisolated(unsafe) var host = HostState()
/// The host's display and wl_compositor, for the whole run.
nonisolated(unsafe) var display: Display?
nonisolated(unsafe) var compositor: MiniCompositor?

/// A broken promise of the library to its host: a finding.
func broken(_ what: String) -> Never {
    let line = "FuzzEmbedded: \(what)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    abort()
}

func reenter(device: OpaquePointer?, contact: Int32, surface: OpaquePointer?) {
    guard host.depth == 0 else { return }
    host.depth += 1
    defer { host.depth -= 1 }
    switch host.reentry {
    case .nothing: break
    case .liftTheContact: _ = preview_interaction_contact_up(device, contact, host.now, nil)
    case .cancelTheContact: _ = preview_interaction_contact_cancel(device, contact, host.now)
    case .destroyTheContext: _ = preview_interaction_destroy(host.context)
    case .removeTheDevice: _ = preview_interaction_device_remove(device, host.now)
    case .surfaceGone: if let surface { _ = preview_interaction_surface_gone(host.context, surface, host.now) }
    }
}

func hostCallbacks() -> preview_interaction_callbacks {
    var callbacks = preview_interaction_callbacks()
    callbacks.size = MemoryLayout<preview_interaction_callbacks>.size
    callbacks.phase = { _, event in
        guard let event = event?.pointee else { broken("phase callback without an event") }
        guard (1...6).contains(event.phase.rawValue) else { broken("phase callback with phase \(event.phase)") }
        guard event.stage == 0 else { broken("phase callback with stage \(event.stage)") }
        guard event.progress.isFinite else { broken("phase callback with progress \(event.progress)") }
        host.phases += 1
        reenter(device: event.device, contact: event.contact, surface: event.surface)
    }
    callbacks.stage = { _, event in
        guard let event = event?.pointee else { broken("stage callback without an event") }
        guard event.phase == PREVIEW_INTERACTION_PHASE_STAGE, (1...5).contains(event.stage) else {
            broken("stage callback with phase \(event.phase) stage \(event.stage)")
        }
        host.stages += 1
        reenter(device: event.device, contact: event.contact, surface: event.surface)
    }
    callbacks.take_away = { _, device, contact, surface in reenter(device: device, contact: contact, surface: surface) }
    callbacks.give_back = { _, device, contact, surface in reenter(device: device, contact: contact, surface: surface) }
    callbacks.region_boxes = { _, region, boxes, capacity in
        guard let region, let boxes, capacity >= 0 else { broken("region_boxes without a region or storage") }
        switch host.regionAnswer {
        case .notOurs: return -1
        case .none: return 0
        case .absurd: return .max
        case .boxes, .moreThanAsked:
            let operations = compositor?.region(of: region)?.operations ?? []
            var count: Int32 = 0
            for case .add(let r) in operations {
                if count < capacity {
                    boxes[Int(count)] = preview_interaction_box(x: r.x, y: r.y, width: r.width, height: r.height)
                }
                count += 1
            }
            return host.regionAnswer == .moreThanAsked ? count + 100 : count
        }
    }
    callbacks.lookup_highlight = { _, surface, word, progress in
        guard (surface == nil) == (word == nil), progress.isFinite, (0...1).contains(progress) else {
            broken("lookup_highlight with progress \(progress)")
        }
        reenter(device: nil, contact: 0, surface: surface)
    }
    callbacks.lookup_panel = { _, panel in
        guard let panel = panel?.pointee else { broken("lookup_panel without a panel") }
        guard panel.panel == nil || panel.surface != nil, panel.shown.isFinite, (0...1).contains(panel.shown) else {
            broken("lookup_panel showing \(panel.shown)")
        }
        reenter(device: nil, contact: 0, surface: panel.surface)
    }
    callbacks.window_geometry = { _, surface, x, y in
        guard surface != nil, let x, let y else { broken("window_geometry without a surface or storage") }
        x.pointee = host.regionAnswer == .absurd ? .min : 0
        y.pointee = host.regionAnswer == .absurd ? .max : 0
    }
    callbacks.log = { _, _, _ in }
    callbacks.now_usec = { _ in host.now }
    return callbacks
}
