import CClientLibrary
import PreviewClientCore

/// An interaction of the C API of 1.0 (preview_interaction_client_interaction_*): a thin
/// wrapper over a surface whose declaration the app sets itself and whose every press goes to
/// one item, made with the interaction's callbacks and handle. It keeps nothing of its own but
/// its handle and user data: every call is the surface's or the item's.
final class ClientInteraction {
    let surface: ClientSurface
    let item: ClientItem
    private(set) var handle: OpaquePointer?
    let userData: UnsafeMutableRawPointer?

    var context: ClientContext { surface.context }

    init(surface: ClientSurface, item: ClientItem, userData: UnsafeMutableRawPointer?) {
        self.surface = surface
        self.item = item
        self.userData = userData
        handle = Handles.shared.register(self)
        item.answersFor(interaction: handle)
    }

    /// The interaction's callbacks, as its item's (the same members in the same order; only
    /// the type of the handle they get differs, and it is the interaction's).
    static func itemCallbacks(_ callbacks: preview_interaction_client_interaction_callbacks)
        -> preview_interaction_client_item_callbacks
    {
        var item = preview_interaction_client_item_callbacks()
        item.size = MemoryLayout<preview_interaction_client_item_callbacks>.size
        item.should_begin = callbacks.should_begin
        item.preview = callbacks.preview
        item.commit = callbacks.commit
        item.cancelled = callbacks.cancelled
        item.stage = callbacks.stage
        item.haptics_changed = callbacks.haptics_changed
        return item
    }

    /// The interaction's detach: no callback is made.
    func detach() {
        surface.detach(tellingItems: false)
        forget()
    }

    /// Forgets the handle (detached, or the context destroyed).
    func forget() {
        if let handle { Handles.shared.forget(interaction: handle) }
        handle = nil
        context.forget(self)
    }

    // MARK: what the app declares (sent now, applied on the surface's next commit)

    func setRegion(_ rects: UnsafePointer<preview_interaction_client_rect>?, count: UInt32) throws(Status) {
        guard count <= ClientSurface.maximumRectangles, rects != nil || count == 0 else { throw .invalidArgument }
        let region = rects.map { Self.rects($0, count: count) }
        surface.declare { $0.region = region }
    }

    func setSources(_ bits: UInt32) throws(Status) {
        guard bits & ~PREVIEW_INTERACTION_CLIENT_SOURCES_ALL.rawValue == 0 else { throw .invalidArgument }
        surface.declare { $0.sources = PreviewSources(rawValue: bits) }
    }

    func setEnabled(_ value: Bool) {
        surface.declare { $0.enabled = value }
    }

    func setFocusPoint(x: Double, y: Double) throws(Status) {
        guard x.isFinite, y.isFinite else { throw .invalidArgument }
        surface.declare { $0.focusPoint = PreviewPoint(x: x, y: y) }
        try requireVersionTwo()
    }

    func unsetFocusPoint() throws(Status) {
        surface.declare { $0.focusPoint = nil }
        try requireVersionTwo()
    }

    func setBehaviours(_ areas: UnsafePointer<preview_interaction_client_behaviour_area>?, count: UInt32)
        throws(Status)
    {
        guard count <= PreviewBehaviourArea.maximumCount, areas != nil || count == 0 else { throw .invalidArgument }
        var list: [PreviewBehaviourArea] = []
        for area in UnsafeBufferPointer(start: areas, count: areas == nil ? 0 : Int(count)) {
            guard let kind = PreviewBehaviour(wire: area.behaviour.rawValue, stages: area.stages),
                PreviewBehaviourArea(kind).isValid, kind == .deepClick || kind == .generic ? area.stages == 0 : true,
                area.rect_count <= ClientSurface.maximumRectangles, area.rects != nil || area.rect_count == 0
            else { throw .invalidArgument }
            list.append(PreviewBehaviourArea(kind, rects: area.rects.map { Self.rects($0, count: area.rect_count) }))
        }
        surface.declare { $0.behaviours = list }
        try requireVersionTwo()
    }

    /// The version 2 settings are kept whatever the global; a global of version 1 cannot take them.
    private func requireVersionTwo() throws(Status) {
        if let version = surface.version, version < 2 { throw .unsupported }
    }

    static func rects(_ pointer: UnsafePointer<preview_interaction_client_rect>, count: UInt32) -> [PreviewRect] {
        UnsafeBufferPointer(start: pointer, count: Int(count)).map {
            PreviewRect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height))
        }
    }
}
