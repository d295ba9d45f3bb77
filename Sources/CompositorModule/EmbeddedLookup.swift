import CCompositorModule
import CWaylandServer
import PreviewEngine
import PreviewProtocolServer
import SystemLayer
import WaylandServer

/// Look Up in the library: a shell over the host core's `LookupDriver`. It gives the driver a
/// copy of the host's contacts and Escape, knows preview-lookup's panel surface (the
/// wl_surface its client creates), and tells the host to draw the highlight and place the
/// panel through its 1.3 callbacks.
final class EmbeddedLookup: LookupHost {
    private unowned let context: EmbeddedContext
    private(set) var driver: LookupDriver!
    let executable: String
    /// Every resource preview-lookup's client creates: its wl_surface is the panel.
    private var created: Listener?
    private var panel: OpaquePointer?
    private var panelGone: Listener?
    /// The lookup shown: its window and word, for the panel's growth.
    private var shown: (surface: SurfaceID, word: LookupRect?)?
    private var highlighted: SurfaceID?

    init(context: EmbeddedContext, executable: String, longPress: Bool) {
        self.context = context
        self.executable = executable
        driver = LookupDriver(
            display: context.display, executable: executable, configuration: context.driver.configuration,
            deadline: .milliseconds(500), longPress: longPress, enabled: true, host: self, logger: context.logger)
    }

    // MARK: input (a copy of the host's)

    /// A contact went down on `resource` (nil: no client surface) at `point`, local to it.
    func contactBegan(_ sample: ForceSample, hasForce: Bool, on resource: OpaquePointer?, id: SurfaceID?) {
        let target: LookupPressTarget
        if let resource, let id {
            if resource == panel {
                target = .panel
            } else if let client = wl_resource_get_client(resource), Client(client) == driver.processClient {
                target = .elsewhere
            } else {
                let declared = context.driver.declaresPreview(on: id, at: sample.location, source: sample.source)
                target = .window(id, sample.location, declaresPreview: declared)
            }
        } else {
            target = .elsewhere
        }
        context.entered { driver.contactBegan(sample, hasForce: hasForce, on: target) }
    }

    func contactMoved(_ sample: ForceSample) {
        guard driver.follows(sample.contact) else { return }
        context.entered { driver.contactMoved(sample) }
    }

    func contactEnded(_ key: ContactKey, at time: Timestamp, reason: CancelReason) {
        guard driver.follows(key) else { return }
        context.entered { driver.contactEnded(key, at: time, reason: reason) }
    }

    // MARK: LookupHost

    func lookupTarget(_ surface: SurfaceID) -> LookupTargetInfo? {
        guard let resource = context.surfaceResource(surface), let client = wl_resource_get_client(resource) else {
            return nil
        }
        var x: Int32 = 0
        var y: Int32 = 0
        if let geometry = context.host.table.window_geometry { geometry(context.host.userData, resource, &x, &y) }
        return LookupTargetInfo(pid: Client(client).pid, geometryX: x, geometryY: y)
    }

    func showHighlight(_ extents: LookupRect, on surface: SurfaceID, progress: Double) {
        guard let callback = context.host.table.lookup_highlight, let resource = context.surfaceResource(surface)
        else { return }
        var box = preview_interaction_box(x: extents.x, y: extents.y, width: extents.width, height: extents.height)
        highlighted = surface
        callback(context.host.userData, resource, &box, max(0, min(1, progress)))
    }

    func showPanel(beside extents: LookupRect?, on surface: SurfaceID) {
        shown = (surface, extents)
        tellPanel(place: true, shown: 1.0 / 3)
    }

    func growPanel(progress: Double) {
        tellPanel(place: false, shown: (1 + 2 * max(0, min(1, progress))) / 3)
    }

    func hideLookup() {
        if highlighted != nil, let callback = context.host.table.lookup_highlight {
            highlighted = nil
            callback(context.host.userData, nil, nil, 0)
        }
        if shown != nil {
            shown = nil
            var info = preview_interaction_lookup_panel()
            context.host.table.lookup_panel?(context.host.userData, &info)
        }
    }

    private func tellPanel(place: Bool, shown fraction: Double) {
        guard let shown, let panel, let callback = context.host.table.lookup_panel,
            let resource = context.surfaceResource(shown.surface)
        else { return }
        let word = shown.word ?? LookupRect(x: 0, y: 0, width: 0, height: 0)
        var info = preview_interaction_lookup_panel(
            panel: panel, surface: resource,
            word: preview_interaction_box(x: word.x, y: word.y, width: word.width, height: word.height),
            shown: fraction, place: place)
        callback(context.host.userData, &info)
    }

    func lookupProcessChanged(_ client: Client?) {
        forgetPanel()
        created?.remove()
        created = nil
        guard let client else { return }
        // preview-lookup makes one wl_surface: its panel (the newest, should it make another).
        let listener = Listener { [unowned self] data in
            guard let data else { return }
            let resource = OpaquePointer(data)
            guard String(cString: wl_resource_get_class(resource)) == "wl_surface" else { return }
            forgetPanel()
            panel = resource
            let gone = Listener { [unowned self] _ in
                panel = nil
                if shown != nil { context.entered { driver.dismiss() } }
            }
            gone.listen(toDestroyOfResource: resource)
            panelGone = gone
        }
        listener.listen(toResourcesCreatedBy: client)
        created = listener
    }

    private func forgetPanel() {
        panelGone?.remove()
        panelGone = nil
        panel = nil
    }

    func lookupAnswered(
        _ answer: LookupChannel.Answer, outcome: LookupSession.Outcome, surface: SurfaceID,
        waited: Timestamp.Duration
    ) {}

    /// The driver's own inputs are calls too: a destroy inside waits for them.
    func run(_ input: () -> Void) { context.entered(input) }

    func stop() {
        driver.stop()
        created?.remove()
        created = nil
        forgetPanel()
    }
}
