import Glibc
import SystemLayer
import Testing

/// SystemLayer's owned descriptor: close-on-exec always, closed exactly once.
@Suite struct DescriptorTests {
    @Test func anOpenedDescriptorIsCloseOnExecEvenWhenTheFlagsOmitIt() throws {
        let descriptor = try Descriptor(opening: "/dev/null", O_RDONLY)
        let flags = fcntl(descriptor.rawValue, F_GETFD)
        #expect(flags >= 0 && flags & FD_CLOEXEC != 0, "a child must not inherit it")
        try descriptor.close()
    }

    /// A locked file: held while the descriptor's file is open, free once it is closed. The lock
    /// belongs to the open file, not to the number, so a number another test reuses cannot fool it.
    private func withLockedFile(_ body: (String, () -> Bool) throws -> Void) throws {
        var template = Array("/tmp/descriptor-test-XXXXXX".utf8CString)
        let observer = mkstemp(&template)
        try #require(observer >= 0)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer {
            close(observer)
            unlink(path)
        }
        let isHeld = { flock(observer, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK }
        try body(path, isHeld)
    }

    @Test func anExplicitCloseClosesTheFile() throws {
        try withLockedFile { path, isHeld in
            let descriptor = try Descriptor(opening: path, O_RDONLY)
            #expect(flock(descriptor.rawValue, LOCK_EX | LOCK_NB) == 0)
            #expect(isHeld())
            try descriptor.close()
            // The compiler rejects a second close or a use here: `close()` consumed the value.
            #expect(!isHeld())
        }
    }

    @Test func aDescriptorNobodyClosedIsClosedWhenItsValueEnds() throws {
        try withLockedFile { path, isHeld in
            do {
                let descriptor = try Descriptor(opening: path, O_RDONLY)
                #expect(flock(descriptor.rawValue, LOCK_EX | LOCK_NB) == 0)
                #expect(isHeld())
            }
            #expect(!isHeld())
        }
    }

    @Test func aReleasedDescriptorIsNotClosedByTheValue() throws {
        let descriptor = try Descriptor(opening: "/dev/null", O_RDONLY)
        let fd = descriptor.release()
        #expect(fcntl(fd, F_GETFD) >= 0, "its new owner closes it")
        #expect(close(fd) == 0)
    }

    @Test func aFailedOpenThrowsItsErrno() {
        #expect(throws: SystemCallError(ENOENT)) {
            _ = try Descriptor(opening: "/nonexistent/descriptor-test", O_RDONLY)
        }
        #expect(SystemCallError(ENOENT).description == errnoText(ENOENT))
    }
}
