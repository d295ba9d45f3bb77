import CCompositorModule
import SystemLayer
import WaylandServer

/// The host's callbacks and user data, read once from the C struct (only as far as the
/// host's `size` says: an older host's shorter struct leaves the newer members NULL).
struct HostCallbacks: @unchecked Sendable {
    let table: preview_interaction_callbacks
    let userData: UnsafeMutableRawPointer?

    /// Nil when `size` is too small to hold even the first member.
    init?(_ callbacks: UnsafePointer<preview_interaction_callbacks>?, userData: UnsafeMutableRawPointer?) {
        var table = preview_interaction_callbacks()
        if let callbacks {
            let size = callbacks.pointee.size
            guard size >= MemoryLayout<Int>.size else { return nil }
            withUnsafeMutableBytes(of: &table) { destination in
                let count = min(size, destination.count)
                destination.copyMemory(from: UnsafeRawBufferPointer(start: callbacks, count: count))
            }
        }
        self.table = table
        self.userData = userData
    }

    var clock: MonotonicClock {
        guard let now = table.now_usec else { return .system }
        let userData = UncheckedPointer(userData)
        return MonotonicClock { Int64(clamping: now(userData.pointer)) }
    }

    func log(_ level: preview_interaction_log_level, _ message: String) {
        if let log = table.log {
            message.withCString { log(userData, level, $0) }
        } else if level.rawValue >= PREVIEW_INTERACTION_LOG_WARNING.rawValue {
            StandardStreams.writeError("preview-interaction: \(message)\n")
        }
    }
}

/// A pointer the host gave us, passed back to it unchanged.
struct UncheckedPointer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
    init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}
