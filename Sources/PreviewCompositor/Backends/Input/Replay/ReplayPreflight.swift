import LibinputRecording
import SystemLayer

/// Why the replay backend cannot start: one line each, for the user.
public enum ReplayError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file cannot be opened, or is a folder: its path and the reason.
    case unreadableRecording(String, String)
    /// A recording that is not one: its `file:line: reason`.
    case invalidRecording(String)

    public var description: String {
        switch self {
        case .unreadableRecording(let path, let reason): "cannot read recording \(path): \(reason)"
        case .invalidRecording(let reason): reason
        }
    }
}

enum ReplayPreflight {
    /// Reads every recording through to its last event, as preview-replay would, so a bad file
    /// is a one-line error before the socket opens (never an error in the log of a running
    /// compositor). Returns their headers, parsed once: the replay reads only events on the loop.
    static func recordings(_ paths: [String]) throws(ReplayError) -> [Recording] {
        var recordings: [Recording] = []
        for path in paths {
            let isDirectory: Bool
            do {
                isDirectory = try Descriptor(readingFrom: path).status().isDirectory
            } catch {
                throw .unreadableRecording(path, error.description)
            }
            if isDirectory { throw .unreadableRecording(path, "is a directory") }
            do {
                let recording = try Recording.open(path)
                let frames = try recording.frames()
                while try frames.nextFrame() != nil {}
                recordings.append(recording)
            } catch {
                throw .invalidRecording(error.description)
            }
        }
        return recordings
    }
}
