import Synchronization

/// The handles C holds: numbers dressed as pointers, never dereferenced and never reused, so
/// a NULL, stale or foreign handle is looked up and reported instead of followed. No
/// `Unmanaged` here: the table owns the objects.
final class Handles: Sendable {
    static let shared = Handles()

    private struct Table {
        /// Even numbers spaced apart: never a small integer or NULL by accident.
        var next: UInt = 0x5000
        var contexts: [UInt: EmbeddedContext] = [:]
        var devices: [UInt: EmbeddedContext] = [:]
        /// The wl_displays that have a context: one each.
        var displays: Set<UInt> = []

        /// The next number, as a handle.
        mutating func take() -> OpaquePointer {
            let number = next
            next += 16
            return OpaquePointer(bitPattern: number)!
        }
    }

    // The objects are only used on their display's thread; the table is shared.
    private let table = Mutex(Table())

    func register(_ context: EmbeddedContext) -> OpaquePointer {
        table.withLock { table in
            let handle = table.take()
            table.contexts[UInt(bitPattern: handle)] = context
            return handle
        }
    }

    func registerDevice(of context: EmbeddedContext) -> OpaquePointer {
        table.withLock { table in
            let handle = table.take()
            table.devices[UInt(bitPattern: handle)] = context
            return handle
        }
    }

    /// Takes `display` for a new context; false when another context has it.
    func claim(display: OpaquePointer) -> Bool {
        table.withLock { $0.displays.insert(UInt(bitPattern: display)).inserted }
    }

    func release(display: OpaquePointer) {
        _ = table.withLock { $0.displays.remove(UInt(bitPattern: display)) }
    }

    func context(_ handle: OpaquePointer?) -> EmbeddedContext? {
        guard let handle else { return nil }
        let number = UInt(bitPattern: handle)
        return table.withLock { $0.contexts[number] }
    }

    /// The context a device handle belongs to.
    func contextOfDevice(_ handle: OpaquePointer?) -> EmbeddedContext? {
        guard let handle else { return nil }
        let number = UInt(bitPattern: handle)
        return table.withLock { $0.devices[number] }
    }

    func forget(context handle: OpaquePointer) {
        let number = UInt(bitPattern: handle)
        table.withLock { table in
            table.contexts[number] = nil
            table.devices = table.devices.filter { $0.value.handle != handle }
        }
    }

    func forget(device handle: OpaquePointer) {
        let number = UInt(bitPattern: handle)
        _ = table.withLock { $0.devices.removeValue(forKey: number) }
    }
}

extension EmbeddedContext: @unchecked Sendable {}
