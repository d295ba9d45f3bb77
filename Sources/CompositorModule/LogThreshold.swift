import CCompositorModule
import Logging
import Synchronization

/// One context's minimum log level.
final class LogThreshold: Sendable {
    private let raw = Atomic<UInt8>(Logger.Level.info.rank)

    var level: Logger.Level {
        get { Logger.Level.allCases.first { $0.rank == raw.load(ordering: .relaxed) } ?? .info }
        set { raw.store(newValue.rank, ordering: .relaxed) }
    }

    /// The C API's level as the logger's.
    static func level(_ value: preview_interaction_log_level) -> Logger.Level? {
        switch value {
        case PREVIEW_INTERACTION_LOG_DEBUG: .debug
        case PREVIEW_INTERACTION_LOG_INFO: .info
        case PREVIEW_INTERACTION_LOG_WARNING: .warning
        case PREVIEW_INTERACTION_LOG_ERROR: .error
        default: nil
        }
    }
}

extension Logger.Level {
    /// Its place in `allCases` (every level is there: 0 is never used for a missing one).
    fileprivate var rank: UInt8 { UInt8(truncatingIfNeeded: Logger.Level.allCases.firstIndex(of: self) ?? 0) }
}
