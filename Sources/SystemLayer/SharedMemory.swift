import CSystemLayer
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shared-memory files for wl_shm buffers and keymaps.
public enum SharedMemory {
    private static let counter = Atomic<Int>(0)

    /// An unlinked shared-memory file of `length` bytes, close-on-exec.
    /// shm_open + shm_unlink: memfd_create needs _GNU_SOURCE, which Swift's Glibc module lacks.
    public static func anonymousFile(length: Int) throws(SystemCallError) -> Descriptor {
        for _ in 0..<100 {
            let number = counter.add(1, ordering: .relaxed).newValue
            let name = "/preview-interaction-\(getpid())-\(number)"
            let fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                if errno == EEXIST { continue }
                throw SystemCallError()
            }
            let file = Descriptor(adopting: fd)
            shm_unlink(name)
            guard ftruncate(file.rawValue, off_t(length)) == 0 else { throw SystemCallError() }
            return file
        }
        throw SystemCallError(EEXIST)
    }

    /// A file holding `contents`, sealed: no one can write or resize it, so the one file can be
    /// handed to every reader (a keymap every client maps).
    public static func sealedFile(name: String, contents: [UInt8]) throws(SystemCallError) -> Descriptor {
        let fd = contents.withUnsafeBytes { system_layer_sealed_memfd(name, $0.baseAddress, $0.count) }
        guard fd >= 0 else { throw SystemCallError() }
        return Descriptor(adopting: fd)
    }

    /// A new anonymous file of `length` bytes, mapped read-write and shared: the memory of a
    /// wl_shm pool (hand `file.rawValue` to wl_shm.create_pool, which duplicates it).
    public struct Region: ~Copyable {
        public let file: Descriptor
        public let mapping: MemoryMapping

        public init(length: Int) throws(SystemCallError) {
            let file = try SharedMemory.anonymousFile(length: length)
            mapping = try MemoryMapping(file, length: length, writable: true)
            self.file = file
        }
    }
}

/// A mapping of a file into memory, unmapped when this value ends.
public struct MemoryMapping: ~Copyable {
    /// The first byte; valid while this value lives.
    public let base: UnsafeMutableRawPointer
    public let length: Int

    /// Maps `length` bytes of `file` from its start: writable and shared (a buffer both sides
    /// see), or read-only and private (a keymap a peer sent).
    public init(_ file: borrowing Descriptor, length: Int, writable: Bool) throws(SystemCallError) {
        guard length > 0 else { throw SystemCallError(EINVAL) }
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        let sharing = writable ? MAP_SHARED : MAP_PRIVATE
        let failed = UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED, a cast Swift cannot import
        guard let memory = mmap(nil, length, protection, sharing, file.rawValue, 0), memory != failed else {
            throw SystemCallError()
        }
        base = memory
        self.length = length
    }

    /// The mapped bytes.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: length) }

    deinit { munmap(base, length) }
}
