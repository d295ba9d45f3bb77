import SystemLayer

/// One line to stderr, unbuffered.
enum StandardError {
    static func write(_ line: String) { StandardStreams.writeError(line + "\n") }
}

/// One line to stdout with write(2): each line leaves as soon as it is known, also into a pipe
/// (`libinput record | preview-replay - | …`), where stdio would hold it in a 4 KiB buffer; a
/// closed pipe (`| head`) ends the output quietly.
enum StandardOutput {
    static func write(_ line: String) { StandardStreams.writeOutput(line + "\n") }
}
