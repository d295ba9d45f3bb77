import EvdevDecoder
import Foundation
import InputEvents
import LibinputRecording
import PreviewEngine
import Synchronization
import Testing

/// What decoding a whole recording produced.
struct DecodeStats {
    var devices = 0
    var kinds: [DeviceKind] = []
    var frames = 0
    var eventLines = 0
    var contacts = 0
    var ended: [CancelReason: Int] = [:]
    var peakForce = 0.0
    /// Fingers put down on touch devices (tracked touch points), and their peak pressure.
    var touches = 0
    var peakTouchPressure = 0.0
    var buttons = 0
    var motions = 0
    var hovers = 0
    var events: [DeviceEvent] = []
}

/// Reads and decodes `path` completely, keeping every event.
func decodeAll(_ path: String, options: ReadOptions = ReadOptions()) throws -> DecodeStats {
    let recording = try Recording.open(path, options: options)
    var stats = DecodeStats()
    stats.devices = recording.devices.count
    var decoders = recording.devices.map {
        EvdevDecoder(description: $0.description, device: DeviceID(UInt32($0.index)))
    }
    stats.kinds = decoders.map(\.kind)
    let frames = try recording.frames()
    var output: [DeviceEvent] = []
    var down = Array(repeating: [Bool](), count: decoders.count)
    while let frame = try frames.nextFrame() {
        stats.frames += 1
        decoders[frame.device].decode(frame, into: &output)
        let points = decoders[frame.device].touchPoints
        if decoders[frame.device].kind == .touchpad || decoders[frame.device].kind == .touchscreen {
            if down[frame.device].count != points.count {
                down[frame.device] = Array(repeating: false, count: points.count)
            }
            for (slot, point) in points.enumerated() {
                if point.down && !down[frame.device][slot] { stats.touches += 1 }
                down[frame.device][slot] = point.down
                if point.down {
                    stats.peakTouchPressure = max(stats.peakTouchPressure, decoders[frame.device].pressure(of: point))
                }
            }
        }
    }
    for index in decoders.indices {
        decoders[index].endAllContacts(at: Timestamp(microseconds: Int64.max / 2), reason: .system, into: &output)
    }
    stats.eventLines = frames.eventLines
    for event in output {
        switch event {
        case .contactBegan(let contact):
            stats.contacts += 1
            stats.peakForce = max(stats.peakForce, contact.force)
        case .contactChanged(let contact): stats.peakForce = max(stats.peakForce, contact.force)
        case .contactEnded(_, _, let reason): stats.ended[reason, default: 0] += 1
        case .button: stats.buttons += 1
        case .pointerMotion: stats.motions += 1
        case .toolMotion: stats.hovers += 1
        case .toolProximity, .key, .scroll, .frame: break
        }
    }
    stats.events = output
    return stats
}

/// Collects lenient-mode warnings.
final class WarningLog: Sendable {
    private let lines = Mutex<[RecordingError]>([])
    var all: [RecordingError] { lines.withLock { $0 } }
    var options: ReadOptions {
        ReadOptions(lenient: true, onWarning: { [self] problem in lines.withLock { $0.append(problem) } })
    }
    var strictOptions: ReadOptions {
        ReadOptions(lenient: false, onWarning: { [self] problem in lines.withLock { $0.append(problem) } })
    }
}

/// A scratch file with `text`, removed by the caller's `defer`.
func scratchFile(_ text: String, name: String = "case.yml") throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "recording-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func removeScratch(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
}
