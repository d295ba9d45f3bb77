import SystemLayer

/// The handles C holds (`HandleTable`: looked up, never followed). The table owns the objects.
final class Handles: Sendable {
    static let shared = Handles()

    private struct Table {
        /// Far from small integers and from the compositor library's numbers.
        var numbers = HandleNumbers(first: 0x7_0000)
        var contexts = HandleTable<ClientContext>()
        var interactions = HandleTable<ClientInteraction>()
        var surfaces = HandleTable<ClientSurface>()
        var items = HandleTable<ClientItem>()
    }

    // The objects are used on their context's thread only (checked); the table is shared.
    private let table = Locked(Table())

    func register(_ context: ClientContext) -> OpaquePointer {
        table.withLock { $0.contexts.register(context, numbers: &$0.numbers) }
    }

    func register(_ interaction: ClientInteraction) -> OpaquePointer {
        table.withLock { $0.interactions.register(interaction, numbers: &$0.numbers) }
    }

    func context(_ handle: OpaquePointer?) -> ClientContext? {
        table.withLock { $0.contexts[handle] }
    }

    /// Every live context on `display` (a surface may have one interaction object, whoever asks).
    func contexts(on display: OpaquePointer) -> [ClientContext] {
        table.withLock { $0.contexts.all.filter { $0.display == display } }
    }

    func interaction(_ handle: OpaquePointer?) -> ClientInteraction? {
        table.withLock { $0.interactions[handle] }
    }

    func register(_ surface: ClientSurface) -> OpaquePointer {
        table.withLock { $0.surfaces.register(surface, numbers: &$0.numbers) }
    }

    func register(_ item: ClientItem) -> OpaquePointer {
        table.withLock { $0.items.register(item, numbers: &$0.numbers) }
    }

    func surface(_ handle: OpaquePointer?) -> ClientSurface? {
        table.withLock { $0.surfaces[handle] }
    }

    func item(_ handle: OpaquePointer?) -> ClientItem? {
        table.withLock { $0.items[handle] }
    }

    func forget(surface handle: OpaquePointer) {
        table.withLock { $0.surfaces.forget(handle) }
    }

    func forget(item handle: OpaquePointer) {
        table.withLock { $0.items.forget(handle) }
    }

    func forget(context handle: OpaquePointer) {
        table.withLock { $0.contexts.forget(handle) }
    }

    func forget(interaction handle: OpaquePointer) {
        table.withLock { $0.interactions.forget(handle) }
    }
}

extension ClientContext: @unchecked Sendable {}
extension ClientInteraction: @unchecked Sendable {}
extension ClientSurface: @unchecked Sendable {}
extension ClientItem: @unchecked Sendable {}
