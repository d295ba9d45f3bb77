import CWaylandServer

/// A connected client (a wl_client). A value: libwayland owns the client; use a
/// `Listener` on `listen(toDestroyOf:)` to learn when it goes away.
public struct Client: Hashable, @unchecked Sendable, CustomStringConvertible {
    public let raw: OpaquePointer

    public init(_ raw: OpaquePointer) { self.raw = raw }

    /// The client's process id (0 if unknown).
    public var pid: Int32 { cwl_client_pid(raw) }

    /// Disconnects the client now, destroying all its resources.
    public func destroy() { wl_client_destroy(raw) }

    /// Writes the client's queued events to its socket without blocking.
    public func flush() { wl_client_flush(raw) }

    public func postNoMemory() { wl_client_post_no_memory(raw) }

    /// wl_display.error with code implementation: the compositor cannot serve this client
    /// because of its own bug; disconnects only this client.
    public func postImplementationError(_ message: String) { cwl_client_post_implementation_error(raw, message) }

    public var description: String { "client(pid \(pid))" }
}
