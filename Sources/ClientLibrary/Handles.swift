import Synchronization

/// The handles C holds: numbers dressed as pointers, never dereferenced and never reused, so
/// a NULL, stale or foreign handle is looked up and reported instead of followed. The table
/// owns the objects.
final class Handles: Sendable {
    static let shared = Handles()

    private struct Table {
        /// Numbers spaced apart, far from small integers and from the compositor library's.
        var next: UInt = 0x7_0000
        var contexts: [UInt: ClientContext] = [:]
        var interactions: [UInt: ClientInteraction] = [:]

        mutating func take() -> OpaquePointer {
            let number = next
            next += 16
            return OpaquePointer(bitPattern: number)!
        }
    }

    // The objects are used on their context's thread only (checked); the table is shared.
    private let table = Mutex(Table())

    func register(_ context: ClientContext) -> OpaquePointer {
        table.withLock { table in
            let handle = table.take()
            table.contexts[UInt(bitPattern: handle)] = context
            return handle
        }
    }

    func register(_ interaction: ClientInteraction) -> OpaquePointer {
        table.withLock { table in
            let handle = table.take()
            table.interactions[UInt(bitPattern: handle)] = interaction
            return handle
        }
    }

    func context(_ handle: OpaquePointer?) -> ClientContext? {
        guard let handle else { return nil }
        return table.withLock { $0.contexts[UInt(bitPattern: handle)] }
    }

    func interaction(_ handle: OpaquePointer?) -> ClientInteraction? {
        guard let handle else { return nil }
        return table.withLock { $0.interactions[UInt(bitPattern: handle)] }
    }

    func forget(context handle: OpaquePointer) {
        _ = table.withLock { $0.contexts.removeValue(forKey: UInt(bitPattern: handle)) }
    }

    func forget(interaction handle: OpaquePointer) {
        _ = table.withLock { $0.interactions.removeValue(forKey: UInt(bitPattern: handle)) }
    }
}

extension ClientContext: @unchecked Sendable {}
extension ClientInteraction: @unchecked Sendable {}
