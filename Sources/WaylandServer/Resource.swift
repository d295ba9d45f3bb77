import CWaylandServer

/// The Swift side of one wl_resource. Subclass it once per protocol interface; create
/// instances with `create(...)`, after which the resource owns the object (see
/// Ownership.swift). `resource` becomes nil the moment libwayland destroys it, so
/// `if let resource { foo_send_bar(resource, ...) }` can never reach a dead resource.
open class ResourceObject {
    /// The live resource, or nil once it was destroyed.
    public private(set) var resource: OpaquePointer?
    public let client: Client
    public let version: UInt32
    /// The protocol id of the resource (for logs).
    public let id: UInt32

    /// Creates the wl_resource for a client's new_id and makes it own `self`.
    /// Returns nil (after posting no_memory to the client) when libwayland cannot allocate.
    public init?(
        client: Client, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32,
        implementation: UnsafeRawPointer?
    ) {
        guard let resource = wl_resource_create(client.raw, interface, Int32(clamping: version), id) else {
            wl_client_post_no_memory(client.raw)
            return nil
        }
        self.resource = resource
        self.client = client
        self.version = version
        self.id = id
        attach(to: resource, implementation: implementation)
    }

    public var isAlive: Bool { resource != nil }

    /// Called once, when libwayland destroys the resource (destructor request, client
    /// gone, display shut down). `resource` is already nil. Remove listeners here.
    open func resourceDestroyed() {}

    func didDestroyResource() {
        resource = nil
        resourceDestroyed()
    }

    /// Destroys the resource from the server side (e.g. for a destructor request).
    public func destroyResource() {
        if let resource { wl_resource_destroy(resource) }
    }

    /// Sends wl_display.error for this resource; libwayland then disconnects only this client.
    public func postError(_ code: UInt32, _ message: String) {
        guard let resource else { return }
        cwl_resource_post_error(resource, code, message)
    }
}

/// The request handler every `destroy`-style destructor request can use.
public let destroyResourceRequest: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { _, resource in
    if let resource { wl_resource_destroy(resource) }
}

/// Allocates a request vtable once, for the process lifetime (libwayland keeps the pointer).
public func makeImplementation<T>(_ value: T) -> UnsafeRawPointer {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    return UnsafeRawPointer(pointer)
}
