import CWaylandClient
import PreviewClientCore
import Synchronization

/// The user's settings as the manager tells them (protocol version 2): read where the
/// library's queue is dispatched (its reading thread), applied at settings_done, and taken on
/// the app's thread, which compares `generation` to know a change came.
package final class SettingsWatch: Sendable {
    private let group = Mutex(SettingsGroup())
    private let reader = Mutex<ReadingThread?>(nil)
    private let log: @Sendable (String) -> Void

    package init(log: @escaping @Sendable (String) -> Void) { self.log = log }

    /// Wakes `thread`'s app when a group is applied.
    package func watch(with thread: ReadingThread) { reader.withLock { $0 = thread } }

    func read(_ event: PreviewSettingsEvent) {
        if let message = group.withLock({ $0.read(event) }) { log(message) }
        if event == .done { reader.withLock { $0?.filed() } }
    }

    /// The settings applied last (nil before the first group), and how many groups came.
    package var current: (settings: PreviewUserSettings?, generation: UInt64) {
        group.withLock { ($0.current, $0.generation) }
    }
}

/// The protocol version a manager was bound at (the global's, at most the library's).
package enum ProtocolVersion {
    /// The newest version this library speaks.
    package static let supported: UInt32 = 2

    /// Binds `name` at min(`advertised`, supported).
    package static func bindManager(_ registry: OpaquePointer, name: UInt32, advertised: UInt32) -> OpaquePointer? {
        OpaquePointer(
            cwlc_registry_bind(
                registry, name, cwl_interface_spi_preview_interaction_manager_v1(), min(advertised, supported)))
    }
}
