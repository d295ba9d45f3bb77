import CWaylandServer

/// One wl_listener, owned by the Swift object that listens (see Ownership.swift).
/// The handler runs on the display's thread with the signal's data pointer.
public final class Listener {
    private let container: UnsafeMutablePointer<cwl_listener>
    private let handler: (UnsafeMutableRawPointer?) -> Void

    public init(_ handler: @escaping (UnsafeMutableRawPointer?) -> Void) {
        self.handler = handler
        container = .allocate(capacity: 1)
        cwl_listener_init(container, listenerTrampoline, nil)
        container.pointee.context = unretainedContext
    }

    deinit {
        cwl_listener_remove(container)
        container.deallocate()
    }

    /// Fires when `resource` is destroyed (before its memory is freed). Re-listening moves the listener.
    public func listen(toDestroyOfResource resource: OpaquePointer) {
        cwl_resource_add_destroy_listener(resource, container)
    }

    public func listen(toDestroyOf client: Client) {
        cwl_client_add_destroy_listener(client.raw, container)
    }

    /// Fires for every resource `client` creates, with its `wl_resource *` as data.
    public func listen(toResourcesCreatedBy client: Client) {
        cwl_client_add_resource_created_listener(client.raw, container)
    }

    public func listen(toDestroyOf display: Display) {
        cwl_display_add_destroy_listener(display.raw, container)
    }

    public func listen(toDestroyOf loop: EventLoop) {
        cwl_event_loop_add_destroy_listener(loop.raw, container)
    }

    /// Fires for every new client, with its `wl_client *` as data.
    public func listen(toClientCreatedOn display: Display) {
        cwl_display_add_client_created_listener(display.raw, container)
    }

    public func listen(to signal: UnsafeMutablePointer<wl_signal>) {
        cwl_signal_add(signal, container)
    }

    /// Stops listening; safe to call any number of times.
    public func remove() { cwl_listener_remove(container) }

    public var isListening: Bool { cwl_listener_is_linked(container) }

    func fire(_ data: UnsafeMutableRawPointer?) {
        // libwayland unlinks destroy listeners before notifying; the caller holds a strong
        // reference for the duration, so the owner may drop this listener in the handler.
        handler(data)
    }
}
