#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line to stderr, unbuffered, after flushing stdout so the two streams interleave sensibly.
enum StandardError {
    static func write(_ line: String) {
        // Written with write(2): the C stdio globals aren't concurrency-safe to name in Swift 6.
        let text = line + "\n"
        _ = text.utf8CString.withUnsafeBufferPointer { bytes in
            Glibc.write(2, bytes.baseAddress, bytes.count - 1)
        }
    }
}
