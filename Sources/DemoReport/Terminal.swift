import Foundation
import PreviewTrace

/// Standard output and error without buffering surprises: the live view must appear as it happens.
public enum Terminal {
    public static var isTerminal: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    public static func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Reads JSON lines from a pipe or FIFO as they arrive (blocking reads, no polling) and hands
/// each record on; lines that are not records are skipped (the report reports them).
public enum TraceFollower {
    public static func follow(
        _ handle: FileHandle, raw: (Data) -> Void = { _ in }, onRecord: (TraceRecord) -> Void
    ) {
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            raw(chunk)
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if let record = try? TraceReader.record(line) { onRecord(record) }
            }
        }
        if !pending.isEmpty, let record = try? TraceReader.record(String(decoding: pending, as: UTF8.self)) {
            onRecord(record)
        }
    }
}
