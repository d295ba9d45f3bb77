import CWaylandServer
import WaylandServer

/// The chain of grabbing xdg_popups (xdg_popup.grab): the topmost has the keyboard focus; a
/// click outside the grabbing client's surfaces, or a new toplevel, dismisses them all, top
/// first (popup_done); a grabbing popup whose parent is not the topmost grab is dismissed at
/// once, as xdg-shell allows.
final class PopupGrabs {
    private let seat: Seat
    /// Where the focus goes when no grab or earlier focus is left: the topmost window.
    private let scene: Scene
    private let surfaces: SurfaceRegistry
    /// Bottom to top.
    private var chain: [Weak<XdgPopup>] = []
    /// The keyboard focus before the first grab, given back when the chain ends.
    private weak var focusBefore: Surface?

    init(seat: Seat, scene: Scene, surfaces: SurfaceRegistry) {
        (self.seat, self.scene, self.surfaces) = (seat, scene, surfaces)
    }

    private var live: [XdgPopup] {
        chain.removeAll { $0.value?.isAlive != true }
        return chain.compactMap(\.value)
    }

    var isActive: Bool { !live.isEmpty }
    var client: Client? { live.last?.client }

    /// A popup that asked for a grab is mapped.
    func popupMapped(_ popup: XdgPopup) {
        let popups = live
        if let top = popups.last, top.xdgSurface !== popup.parent {
            popup.dismiss()
            return
        }
        if popups.isEmpty { focusBefore = seat.keyboardFocus }
        chain.append(Weak(popup))
        if let surface = popup.xdgSurface?.surface { seat.setKeyboardFocus(surface) }
    }

    /// A grabbing popup went away (destroyed or unmapped): the focus goes to the one below it.
    func popupGone(_ popup: XdgPopup) {
        guard chain.contains(where: { $0.value === popup }) else { return }
        chain.removeAll { $0.value === popup || $0.value?.isAlive != true }
        returnFocus()
    }

    /// Dismisses every grabbing popup, the topmost first.
    func dismissAll() {
        let popups = live
        guard !popups.isEmpty else { return }
        chain = []
        for popup in popups.reversed() { popup.dismiss() }
        returnFocus()
    }

    /// A button or touch went down on `surface` (nil: on no surface): outside the grabbing
    /// client, the grab ends (the press itself still reaches whatever is under it).
    func pointerPressed(on surface: Surface?) {
        guard let client, surface?.client != client else { return }
        dismissAll()
    }

    private func returnFocus() {
        if let top = live.last, let surface = top.xdgSurface?.surface {
            seat.setKeyboardFocus(surface)
        } else if let focusBefore, focusBefore.isAlive {
            seat.setKeyboardFocus(focusBefore)
        } else if let last = scene.toplevels.last, let surface = surfaces[last.id] {
            seat.setKeyboardFocus(surface)
        }
    }
}
