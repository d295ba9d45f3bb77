import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a pthread mutex, reached only inside `withLock`: what `Mutex` of the
/// Synchronization module offers, also in the Embedded build of the C libraries (which has no
/// `Mutex`). Not recursive: a `withLock` inside another on the same lock deadlocks.
///
/// A final class: the mutex must not move once initialised, so it lives in memory of its own.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {  // the value is reached under the mutex only
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the mutex held; what it throws is rethrown, the mutex released.
    public func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
