import SystemLayer

/// Diagnostics go to stderr, so that stdout carries only the --log lines.
func printError(_ message: String) {
    StandardStreams.writeError(message + "\n")
}

struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Seconds on the one monotonic clock: the model's clock (time is read here, passed into PeekModel).
func monotonicSeconds() -> Double {
    Double(MonotonicTime.microseconds()) / 1e6
}

/// --log lines are read by other programs as they arrive (pipes are block-buffered otherwise).
func fflushStdout() {
    CurrentProcess.flushOutput()
}
