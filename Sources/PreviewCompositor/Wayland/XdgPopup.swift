import CWaylandServer
import WaylandServer

/// xdg_popup: placed by its positioner relative to the parent's window geometry, stacked above it.
final class XdgPopup: ResourceObject {
    weak var xdgSurface: XdgSurface?
    weak var parent: XdgSurface?
    let rules: PopupRules
    /// xdg_popup.grab was asked for (before the popup was mapped, as it must be).
    private var grabRequested = false
    private var dismissed = false

    /// Makes the xdg_popup of `xdgSurface`: its new wl_resource owns it (Ownership.swift), the
    /// caller keeps a weak reference.
    static func create(xdgSurface: XdgSurface, parent: XdgSurface, rules: PopupRules, id: UInt32) -> XdgPopup? {
        XdgPopup(xdgSurface: xdgSurface, parent: parent, rules: rules, id: id)
    }

    private init?(xdgSurface: XdgSurface, parent: XdgSurface, rules: PopupRules, id: UInt32) {
        self.xdgSurface = xdgSurface
        self.parent = parent
        self.rules = rules
        super.init(
            client: xdgSurface.client, interface: cwl_interface_xdg_popup(), version: xdgSurface.version, id: id,
            implementation: XdgPopup.implementation)
    }

    override func resourceDestroyed() { xdgSurface?.unmap() }

    func initialCommit() {
        guard let resource else { return }
        let placement = rules.placement
        xdg_popup_send_configure(resource, placement.x, placement.y, placement.width, placement.height)
        xdgSurface?.sendConfigure()
    }

    /// Output position of the popup surface's origin.
    private func outputPosition() -> (Int32, Int32)? {
        guard let parent, let parentNode = parent.surface?.node, let xdgSurface else { return nil }
        let parentOrigin = parentNode.outputOrigin
        let parentGeometry = parent.windowGeometry
        let placement = rules.placement
        let own = xdgSurface.windowGeometry
        // Popups of popups add up: kept inside the client coordinate limit, however deep.
        func position(_ terms: Int32...) -> Int32 {
            ClientLimits.clamp(Int32(clamping: terms.reduce(Int64(0)) { $0 + Int64($1) }))
        }
        return (
            position(parentOrigin.x, parentGeometry.x, placement.x, -own.x),
            position(parentOrigin.y, parentGeometry.y, placement.y, -own.y)
        )
    }

    func map() {
        guard let node = xdgSurface?.surface?.node, let host = xdgSurface?.host, let position = outputPosition()
        else { return }
        node.position = position
        host.popupMapped(self, node: node, grab: grabRequested)
    }

    /// popup_done: the compositor closed it; the client destroys it.
    func dismiss() {
        guard !dismissed, let resource else { return }
        dismissed = true
        xdg_popup_send_popup_done(resource)
    }

    private func grab() {
        if xdgSurface?.shown == true {
            postError(XDG_POPUP_ERROR_INVALID_GRAB.rawValue, "xdg_popup.grab after the popup was mapped")
            return
        }
        grabRequested = true
    }

    /// xdg-shell: popups are destroyed top-down; a popup with a mapped child popup is not the topmost.
    private func destroyRequest() {
        let hasChild =
            xdgSurface?.host?.surfaces.all.contains { surface in
                guard let child = surface.xdgSurface?.popup, child !== self, child.isAlive else { return false }
                return child.parent === xdgSurface && child.xdgSurface?.shown == true
            } ?? false
        if hasChild, let wmBase = xdgSurface?.wmBase {
            wmBase.postError(
                XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP.rawValue, "xdg_popup destroyed before its child popup")
            return
        }
        destroyResource()
    }

    func reposition() {
        guard let node = xdgSurface?.surface?.node, let position = outputPosition() else { return }
        node.position = position
    }

    func unmap() {
        guard let node = xdgSurface?.surface?.node, let host = xdgSurface?.host else { return }
        host.popupUnmapped(self, node: node)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_xdg_popup_impl()
        impl.destroy = { _, resource in resolve(resource, as: XdgPopup.self)?.destroyRequest() }
        impl.grab = { _, resource, _, _ in resolve(resource, as: XdgPopup.self)?.grab() }
        impl.reposition = { _, _, _, _ in }
        return makeImplementation(impl)
    }()
}
