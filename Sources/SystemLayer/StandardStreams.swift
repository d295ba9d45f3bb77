import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard output and error, written with write(2): unbuffered (a line leaves
/// as soon as it is known, also into a pipe, where stdio would hold it), and without naming the
/// C stdio globals, which are not concurrency-safe in Swift 6. A failed write (a closed pipe:
/// `| head`) is dropped: there is nowhere left to say it.
public enum StandardStreams {
    /// `text` to standard error, as it is (add the newline).
    public static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

    /// `text` to standard output, as it is (add the newline).
    public static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Whether standard output is a terminal.
    public static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    private static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in try? writeAll(fd, UnsafeRawBufferPointer(bytes)) }
    }
}

/// The process environment, read (never changed: tests share one process).
public enum Environment {
    /// The value of `name`, or nil when it is unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// This process: its id, its exit.
public enum CurrentProcess {
    /// The process id (getpid).
    public static var id: Int32 { getpid() }

    /// Flushes what `print` buffered, then ends the process with `status` (exit(3): atexit
    /// handlers run).
    public static func exit(_ status: Int32) -> Never {
        fflush(nil)
        #if canImport(Glibc)
            Glibc.exit(status)
        #elseif canImport(Musl)
            Musl.exit(status)
        #elseif canImport(Darwin)
            Darwin.exit(status)
        #else  // Embedded: no Glibc module, libc through the layer's header
            CSystemLayer.exit(status)
        #endif
    }

    /// A write to a pipe whose reader went away fails with `EPIPE` instead of killing the
    /// process (SIGPIPE ignored): for programs, never for a library or a test process.
    public static func ignoreBrokenPipes() { system_layer_ignore_broken_pipes() }

    /// Sends what `print` buffered now (a parent waiting for a line reads it at once).
    public static func flushOutput() { fflush(nil) }
}
