import Foundation
import PreviewEngine
import PreviewTrace

/// A trace line that is not a record: the file, the line and why.
public struct TraceError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int
    public var reason: String
    public var description: String { "\(file):\(line): \(reason)" }

    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }
}

/// Reads the JSON lines `preview-replay --format json` and `preview-compositor --trace` write
/// back into `TraceRecord`s, with Foundation's JSONDecoder (which reads back the writer's
/// shortest round-tripping numbers exactly). Blank lines are skipped; anything else that is not
/// a record is an error naming the line (a report from half a trace would mislead).
public enum TraceReader {
    public static func read(path: String) throws(TraceError) -> [TraceRecord] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TraceError(file: path, line: 0, reason: "cannot read the trace")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    public static func parse(_ text: String, file: String = "trace") throws(TraceError) -> [TraceRecord] {
        var records: [TraceRecord] = []
        var number = 0
        let decoder = JSONDecoder()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            // Haptic and Look Up lines (docs/look-up.md) are not interaction records.
            if line.allSatisfy(\.isWhitespace) || HapticRecord.isHapticLine(line) || line.contains("\"event\":\"lookup")
            {
                continue
            }
            do throws(TraceError) {
                records.append(try record(String(line), decoder: decoder))
            } catch {
                throw TraceError(file: file, line: number, reason: error.reason)
            }
        }
        return records
    }

    /// One line as the writer spells it (`TraceRecord.jsonLine`). Null numbers are JSON's
    /// spelling of NaN.
    private struct Line: Decodable {
        var time_us: Int64
        var device: String
        var source: String
        var simulated: Bool
        var interaction: Double
        var event: String
        var progress: Double?
        var ended: Bool
        var phase: String?
        var force: Double?
        var x: Double?
        var y: Double?
        var reason: String?
        var stage: UInt8?
        var surface: UInt64?
        var client: String?
    }

    /// One line; errors carry the reason only (the caller knows where).
    public static func record(_ line: String, decoder: JSONDecoder = JSONDecoder()) throws(TraceError) -> TraceRecord {
        func fail(_ reason: String) -> TraceError { TraceError(file: "", line: 0, reason: reason) }
        let object: Line
        do {
            object = try decoder.decode(Line.self, from: Data(line.utf8))
        } catch let error as DecodingError {
            throw fail(reason(error))
        } catch {
            throw fail("not JSON")
        }
        guard let source = InputSource.allCases.first(where: { $0.description == object.source }) else {
            throw fail("unknown source \"\(object.source)\"")
        }
        guard let event = TraceEvent(rawValue: object.event) else { throw fail("unknown event \"\(object.event)\"") }
        var reason: CancelReason?
        if let name = object.reason {
            guard let known = CancelReason.allCases.first(where: { $0.description == name }) else {
                throw fail("unknown reason \"\(name)\"")
            }
            reason = known
        }
        let interaction = object.interaction
        guard interaction >= 0, interaction <= Double(UInt32.max), interaction == interaction.rounded() else {
            throw fail("\"interaction\" is not an id")
        }
        var phase: PhaseEvent?
        if event != .shouldBegin {
            guard let name = object.phase else { throw fail("\"phase\" missing") }
            guard let known = PhaseEvent(name: name, reason: reason, stage: object.stage) else {
                throw fail("unknown phase \"\(name)\"")
            }
            phase = known
        }
        let record = TraceRecord(
            time: Timestamp(microseconds: object.time_us), device: object.device, source: source,
            simulated: object.simulated, interaction: InteractionID(UInt32(interaction)), phase: phase,
            progress: object.progress ?? .nan, location: Point(x: object.x ?? .nan, y: object.y ?? .nan),
            surface: object.surface.map(SurfaceID.init), client: object.client, force: object.force)
        guard record.event == event, record.ended == object.ended else {
            throw fail("\"phase\" \(phase.map { "\($0)" } ?? "-") does not go with event \(object.event) and \"ended\"")
        }
        return record
    }

    /// The decoder's complaint in the trace's words: which key, and what it should have been.
    private static func reason(_ error: DecodingError) -> String {
        func key(_ path: [any CodingKey]) -> String? { path.first.map { "\"\($0.stringValue)\"" } }
        func what(_ type: Any.Type) -> String {
            switch type {
            case is String.Type, is String?.Type: "a string"
            case is Bool.Type, is Bool?.Type: "true/false"
            default: "a number"
            }
        }
        switch error {
        case .keyNotFound(let missing, _): return "\"\(missing.stringValue)\" missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            guard let name = key(context.codingPath) else { return "not a JSON object" }
            return "\(name) missing or not \(what(type))"
        case .dataCorrupted(let context):
            guard let name = key(context.codingPath) else { return "not JSON" }
            return "\(name) is not \(what(Double.self))"
        @unknown default: return "not a record"
        }
    }
}
