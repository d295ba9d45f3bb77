import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shared-memory files for wl_shm buffers.
public enum SharedMemory {
    private static let counter = Atomic<Int>(0)

    /// An unlinked shared-memory file of `length` bytes, close-on-exec, or -1 (errno set).
    /// shm_open + shm_unlink: memfd_create needs _GNU_SOURCE, which Swift's Glibc module lacks.
    public static func anonymousFile(length: Int) -> Int32 {
        for _ in 0..<100 {
            let number = counter.add(1, ordering: .relaxed).newValue
            let name = "/preview-interaction-\(getpid())-\(number)"
            let fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                if errno == EEXIST { continue }
                return -1
            }
            shm_unlink(name)
            guard ftruncate(fd, off_t(length)) == 0 else {
                let saved = errno
                close(fd)
                errno = saved
                return -1
            }
            return fd
        }
        return -1
    }
}
