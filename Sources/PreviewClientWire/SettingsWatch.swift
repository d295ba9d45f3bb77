import CWaylandClient
import PreviewClientCore

/// The user's settings as the manager tells them (protocol version 2 and later): read where the
/// manager's queue is dispatched (the library's thread), applied at settings_done; `generation`
/// says that a group came.
package final class SettingsWatch {
    // The library's thread's alone: no runtime exclusivity check (read on every dispatch).
    @exclusivity(unchecked) private var group = SettingsGroup()
    private let log: (String) -> Void
    /// A group was applied (settings_done).
    package var applied: (() -> Void)?

    package init(log: @escaping (String) -> Void) { self.log = log }

    func read(_ event: PreviewSettingsEvent) {
        if let message = group.read(event) { log(message) }
        if event == .done { applied?() }
    }

    /// The settings applied last (nil before the first group), and how many groups came.
    package var current: (settings: PreviewUserSettings?, generation: UInt64) { (group.current, group.generation) }

    /// How many groups came (cheap: checked on every dispatch).
    package var generation: UInt64 { group.generation }
}

/// The protocol version a manager was bound at (the global's, at most the library's).
package enum ProtocolVersion {
    /// The newest version this library speaks.
    package static let supported: UInt32 = 3
    /// The newest version whose requests and events an app can see: version 3 changes only how
    /// the library acknowledges frames (the acknowledgement window), so the APIs report a
    /// global of version 3 as 2, the range they promised.
    package static let features: UInt32 = 2

    /// Binds `name` at min(`advertised`, supported).
    package static func bindManager(_ registry: OpaquePointer, name: UInt32, advertised: UInt32) -> OpaquePointer? {
        OpaquePointer(
            cwlc_registry_bind(
                registry, name, cwl_interface_spi_preview_interaction_manager_v1(), min(advertised, supported)))
    }

    /// The version an API reports for a manager bound at `bound` (0: none).
    package static func reported(_ bound: UInt32) -> UInt32 { min(bound, features) }
}
