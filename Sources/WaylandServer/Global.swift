import CWaylandServer

/// A global advertised to clients. Removed when this object dies, by `destroy()`, or
/// with the display, whichever comes first.
public final class Global {
    public private(set) var raw: OpaquePointer?
    private let onBind: (Client, UInt32, UInt32) -> Void
    private let displayGone: Listener

    /// `onBind(client, version, id)` must create the resource for `id` (e.g. a `ResourceObject`).
    public init?(
        display: Display, interface: UnsafePointer<wl_interface>, version: Int32,
        onBind: @escaping (_ client: Client, _ version: UInt32, _ id: UInt32) -> Void
    ) {
        self.onBind = onBind
        var clear: (() -> Void)?
        displayGone = Listener { _ in clear?() }
        guard let raw = wl_global_create(display.raw, interface, version, nil, globalBindTrampoline) else {
            return nil
        }
        self.raw = raw
        wl_global_set_user_data(raw, unretainedContext)
        // Unretained: the listener is removed in `destroy()`, which `deinit` calls, so it never
        // fires after this object is gone (and Embedded Swift has no unowned references).
        clear = { [unowned(unsafe) self] in self.raw = nil }
        displayGone.listen(toDestroyOf: display)
    }

    deinit { destroy() }

    public func destroy() {
        displayGone.remove()
        guard let global = raw else { return }
        raw = nil
        wl_global_destroy(global)
    }

    func bind(client: Client, version: UInt32, id: UInt32) { onBind(client, version, id) }
}
