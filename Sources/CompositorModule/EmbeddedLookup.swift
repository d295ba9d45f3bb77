import CCompositorModule
import CWaylandServer
import PreviewEngine
import PreviewProtocolServer
import SystemLayer
import WaylandServer

/// Look Up in the library: a shell that draws for the host core's Look Up through the host's
/// callbacks (the highlight, the panel, each lookup's news); which press looks up and when is
/// the core's, fed the contacts and keys the host passes for the preview. A window is the
/// wl_surface the host routed the press to.
final class EmbeddedLookup: LookupHost {
    /// Nil once the context is gone (explicit invalidation: nothing here outlives it).
    private var context: EmbeddedContext?
    /// The lookup shown: its window, word and panel, for the panel's growth.
    private var shown: (window: SurfaceID, word: LookupRect?)?
    private var highlighted = false

    init(context: EmbeddedContext) { self.context = context }

    /// The context is going: no callback reaches the host any more.
    func invalidate() { context = nil }

    func lookupWindow(of surface: SurfaceID) -> LookupWindow? {
        guard let context, let resource = context.surfaceResource(surface),
            let client = wl_resource_get_client(resource)
        else { return nil }
        var x: Int32 = 0
        var y: Int32 = 0
        if let geometry = context.host.table.window_geometry { geometry(context.host.userData, resource, &x, &y) }
        return LookupWindow(window: surface, client: Client(client), geometryX: x, geometryY: y)
    }

    func showHighlight(_ extents: LookupRect, on window: SurfaceID, progress: Double) {
        guard let context, let callback = context.host.table.lookup_highlight,
            let resource = context.surfaceResource(window)
        else { return }
        var box = preview_interaction_box(x: extents.x, y: extents.y, width: extents.width, height: extents.height)
        highlighted = true
        callback(context.host.userData, resource, &box, max(0, min(1, progress)))
    }

    func showPanel(_ panel: OpaquePointer?, beside extents: LookupRect?, on window: SurfaceID) {
        shown = (window, extents)
        tellPanel(panel, place: true, shown: 1.0 / 3)
    }

    func growPanel(_ panel: OpaquePointer?, progress: Double) {
        tellPanel(panel, place: false, shown: (1 + 2 * max(0, min(1, progress))) / 3)
    }

    func hideLookup() {
        guard let context else { return }
        if highlighted, let callback = context.host.table.lookup_highlight {
            highlighted = false
            callback(context.host.userData, nil, nil, 0)
        }
        if shown != nil {
            shown = nil
            var info = preview_interaction_lookup_panel()
            context.host.table.lookup_panel?(context.host.userData, &info)
        }
    }

    private func tellPanel(_ panel: OpaquePointer?, place: Bool, shown fraction: Double) {
        guard let context, let shown, let panel, let callback = context.host.table.lookup_panel,
            let resource = context.surfaceResource(shown.window)
        else { return }
        let word = shown.word ?? LookupRect(x: 0, y: 0, width: 0, height: 0)
        var info = preview_interaction_lookup_panel(
            panel: panel, surface: resource,
            word: preview_interaction_box(x: word.x, y: word.y, width: word.width, height: word.height),
            shown: fraction, place: place)
        callback(context.host.userData, &info)
    }

    /// Each lookup's news for the host's lookup_event callback (since 1.4).
    func lookupEvent(_ event: LookupEvent) {
        guard let context, let callback = context.host.table.lookup_event else { return }
        var info = preview_interaction_lookup_event()
        switch event {
        case .answered(let answer, let outcome, let window, let waited):
            info.kind = PREVIEW_INTERACTION_LOOKUP_ANSWERED
            info.lookup = answer.id
            info.outcome = Self.wire(outcome)
            info.surface = context.surfaceResource(window)
            info.waited_usec = UInt64(clamping: max(0, waited.microseconds))
            answer.word.withCString { word in
                answer.link.withCString { link in
                    answer.toolkit.withCString { toolkit in
                        answer.definition.withCString { definition in
                            info.word = word
                            info.link = link
                            info.toolkit = toolkit
                            info.definition = definition
                            callback(context.host.userData, &info)
                        }
                    }
                }
            }
            return
        case .completed(let id):
            info.kind = PREVIEW_INTERACTION_LOOKUP_COMPLETED
            info.lookup = id
        case .cancelled(let id, let reason):
            info.kind = PREVIEW_INTERACTION_LOOKUP_CANCELLED
            info.lookup = id
            info.reason = preview_interaction_cancel_reason(rawValue: UInt32(reason.rawValue))
        case .dismissed(let id):
            info.kind = PREVIEW_INTERACTION_LOOKUP_DISMISSED
            info.lookup = id
        }
        "".withCString { empty in
            info.word = empty
            info.link = empty
            info.toolkit = empty
            info.definition = empty
            callback(context.host.userData, &info)
        }
    }

    private static func wire(_ outcome: LookupSession.Outcome) -> preview_interaction_lookup_outcome {
        switch outcome {
        case .found: PREVIEW_INTERACTION_LOOKUP_OUTCOME_FOUND
        case .nothing: PREVIEW_INTERACTION_LOOKUP_OUTCOME_NOTHING
        case .late: PREVIEW_INTERACTION_LOOKUP_OUTCOME_LATE
        }
    }

    /// The core's own inputs (its timer, preview-lookup's answers) are calls too: a destroy
    /// inside waits for them.
    func run(_ input: () -> Void) {
        guard let context else { return }
        context.entered(input)
    }
}
