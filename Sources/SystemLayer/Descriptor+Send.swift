import CSystemLayer

extension Descriptor {
    /// Sends what the socket takes now (send(2) with MSG_NOSIGNAL: a peer that went away is
    /// EPIPE, not a signal), retrying on `EINTR`: the number of bytes sent. On a non-blocking
    /// socket that is full, throws `EAGAIN`.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        let fd = rawValue
        return try retryingInterrupted { system_layer_send(fd, bytes.baseAddress, bytes.count) }
    }
}
