import SystemLayer

/// The handles C holds (`HandleTable`: looked up, never followed). No `Unmanaged` here: the
/// table owns the objects.
final class Handles: Sendable {
    static let shared = Handles()

    private struct Table {
        /// Apart from the client library's numbers.
        var numbers = HandleNumbers(first: 0x5000)
        var contexts = HandleTable<EmbeddedContext>()
        /// A device handle's context.
        var devices = HandleTable<EmbeddedContext>()
        /// The wl_displays that have a context: one each.
        var displays: Set<UInt> = []
    }

    // The objects are only used on their display's thread; the table is shared.
    private let table = Locked(Table())

    func register(_ context: EmbeddedContext) -> OpaquePointer {
        table.withLock { $0.contexts.register(context, numbers: &$0.numbers) }
    }

    func registerDevice(of context: EmbeddedContext) -> OpaquePointer {
        table.withLock { $0.devices.register(context, numbers: &$0.numbers) }
    }

    /// Takes `display` for a new context; false when another context has it.
    func claim(display: OpaquePointer) -> Bool {
        table.withLock { $0.displays.insert(UInt(bitPattern: display)).inserted }
    }

    func release(display: OpaquePointer) {
        _ = table.withLock { $0.displays.remove(UInt(bitPattern: display)) }
    }

    func context(_ handle: OpaquePointer?) -> EmbeddedContext? {
        table.withLock { $0.contexts[handle] }
    }

    /// The context a device handle belongs to.
    func contextOfDevice(_ handle: OpaquePointer?) -> EmbeddedContext? {
        table.withLock { $0.devices[handle] }
    }

    func forget(context handle: OpaquePointer) {
        table.withLock { table in
            table.contexts.forget(handle)
            table.devices.forgetAll { $0.handle == handle }
        }
    }

    func forget(device handle: OpaquePointer) {
        table.withLock { $0.devices.forget(handle) }
    }
}

extension EmbeddedContext: @unchecked Sendable {}
