import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which thread this is, to check a "called on its own thread" contract.
public struct ThreadIdentity: @unchecked Sendable, Equatable {  // pthread_t: compared, never used
    private let handle: pthread_t

    /// The calling thread.
    public static var current: ThreadIdentity { ThreadIdentity(handle: pthread_self()) }

    public static func == (left: ThreadIdentity, right: ThreadIdentity) -> Bool {
        pthread_equal(left.handle, right.handle) != 0
    }
}

/// A thread that is joined, not detached: its owner waits for its end (a library's reading
/// thread, stopped before the objects it reads are destroyed). No Foundation: the libraries
/// that use it run in other people's processes.
public final class JoinableThread: @unchecked Sendable {  // the handle is joined once, under `joined`
    private let handle: pthread_t
    private var joined = false

    private init(handle: pthread_t) { self.handle = handle }

    /// Starts `body` on a new thread, or returns nil when the system refuses one.
    public static func start(_ body: @escaping @Sendable () -> Void) -> JoinableThread? {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(
            &handle, nil,
            { context in
                // Always the context passed below; nil would be a system bug, and nothing to run.
                context.map { Unmanaged<ThreadBody>.fromOpaque($0).takeRetainedValue().run() }
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            return nil
        }
        return JoinableThread(handle: handle)
    }

    /// Waits for the thread's end (once; later calls return at once). Not from the thread itself.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }
}

/// A new thread's body, passed to it through pthread_create's context pointer. At file level:
/// the Embedded build cannot specialise a class local to a function other modules call.
final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
