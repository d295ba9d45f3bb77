import Synchronization

/// A flag set at most once, from any thread.
final class OnceFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    /// True for the one call that set it.
    func set() -> Bool {
        flag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
