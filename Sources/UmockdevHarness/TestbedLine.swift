import Foundation
import LibinputBackend
import PreviewEngine

/// How the runner inside the testbed reports the backend's events to the process that
/// started it: one line per `BackendEvent`, space-separated, times in µs on the recording's
/// clock. Doubles print in Swift's shortest round-trip form, so nothing is lost.
public enum TestbedLine {
    public static func format(_ event: BackendEvent) -> String {
        switch event {
        case .deviceAdded(let device):
            return "added \(device.id.rawValue) \(device.source.rawValue) \(device.hasForce ? 1 : 0) "
                + "\(escape(device.forceOrigin)) \(escape(device.name))"
        case .deviceRemoved(let id, let time):
            return "removed \(time.microseconds) \(id.rawValue)"
        case .contactBegan(let sample, let hasForce):
            return "began \(sample: sample) \(hasForce ? 1 : 0)"
        case .forceChanged(let sample):
            return "changed \(sample: sample)"
        case .contactEnded(let key, let time, let reason):
            return "ended \(time.microseconds) \(key.device.rawValue) \(key.contact) \(reason.rawValue)"
        case .pointerMotion(let id, let dx, let dy, let time):
            return "motion \(time.microseconds) \(id.rawValue) \(dx) \(dy)"
        }
    }

    /// Nil for a line that is not one of ours (the caller reports it).
    public static func parse(_ line: Substring) -> BackendEvent? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let kind = fields.first else { return nil }
        func int(_ index: Int) -> Int64? { index < fields.count ? Int64(fields[index]) : nil }
        func double(_ index: Int) -> Double? { index < fields.count ? Double(fields[index]) : nil }
        switch kind {
        case "added":
            guard fields.count >= 6, let id = UInt32(fields[1]), let raw = UInt8(fields[2]),
                let source = InputSource(rawValue: raw)
            else { return nil }
            return .deviceAdded(
                DeviceDescription(
                    id: DeviceID(id), name: unescape(fields[5...].joined(separator: " ")), source: source,
                    hasForce: fields[3] == "1", forceOrigin: unescape(String(fields[4]))))
        case "removed":
            guard let time = int(1), let id = int(2) else { return nil }
            return .deviceRemoved(DeviceID(UInt32(id)), at: Timestamp(microseconds: time))
        case "began":
            guard let sample = sample(fields), fields.count == 10 else { return nil }
            return .contactBegan(sample, hasForce: fields[9] == "1")
        case "changed":
            guard let sample = sample(fields) else { return nil }
            return .forceChanged(sample)
        case "ended":
            guard let time = int(1), let device = int(2), let contact = int(3), let raw = int(4),
                let reason = CancelReason(rawValue: UInt8(clamping: raw))
            else { return nil }
            return .contactEnded(
                ContactKey(device: DeviceID(UInt32(device)), contact: Int32(contact)),
                at: Timestamp(microseconds: time), reason: reason)
        case "motion":
            guard let time = int(1), let id = int(2), let dx = double(3), let dy = double(4) else { return nil }
            return .pointerMotion(DeviceID(UInt32(id)), dx: dx, dy: dy, at: Timestamp(microseconds: time))
        default:
            return nil
        }
    }

    private static func sample(_ fields: [Substring]) -> ForceSample? {
        guard fields.count >= 9, let time = Int64(fields[1]), let device = UInt32(fields[2]),
            let contact = Int32(fields[3]), let raw = UInt8(fields[4]), let source = InputSource(rawValue: raw),
            let force = Double(fields[5]), let x = Double(fields[6]), let y = Double(fields[7])
        else { return nil }
        return ForceSample(
            time: Timestamp(microseconds: time), force: force, location: Point(x: x, y: y), source: source,
            simulated: fields[8] == "1", contact: ContactKey(device: DeviceID(device), contact: contact))
    }

    private static func escape(_ text: String) -> String {
        text.isEmpty ? "-" : text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: " ", with: "%20")
    }

    private static func unescape(_ text: String) -> String {
        text == "-" ? "" : text.replacingOccurrences(of: "%20", with: " ").replacingOccurrences(of: "%25", with: "%")
    }
}

extension DefaultStringInterpolation {
    fileprivate mutating func appendInterpolation(sample: ForceSample) {
        appendLiteral(
            "\(sample.time.microseconds) \(sample.contact.device.rawValue) \(sample.contact.contact) "
                + "\(sample.source.rawValue) \(sample.force) \(sample.location.x) \(sample.location.y) "
                + "\(sample.simulated ? 1 : 0)")
    }
}
