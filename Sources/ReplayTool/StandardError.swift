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

/// One line to stdout with write(2): each line leaves as soon as it is known, also into a pipe
/// (`libinput record | preview-replay - | …`), where stdio would hold it in a 4 KiB buffer.
enum StandardOutput {
    static func write(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // a closed pipe (`| head`): nothing more to say
                }
            }
        }
    }
}
