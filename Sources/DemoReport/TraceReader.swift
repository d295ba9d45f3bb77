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
/// back into `TraceRecord`s. Blank lines are skipped; anything else that is not a record is an
/// error naming the line (a report from half a trace would mislead).
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
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            do throws(TraceError) {
                records.append(try record(String(line)))
            } catch {
                throw TraceError(file: file, line: number, reason: error.reason)
            }
        }
        return records
    }

    /// One line; errors carry the reason only (the caller knows where).
    public static func record(_ line: String) throws(TraceError) -> TraceRecord {
        func fail(_ reason: String) -> TraceError { TraceError(file: "", line: 0, reason: reason) }
        let object = try FlatJSON.object(line)
        func number(_ key: String) throws(TraceError) -> Double {
            guard case .number(let value)? = object[key] else { throw fail("\"\(key)\" missing or not a number") }
            return value
        }
        func text(_ key: String) throws(TraceError) -> String {
            guard case .string(let value)? = object[key] else { throw fail("\"\(key)\" missing or not a string") }
            return value
        }
        func flag(_ key: String) throws(TraceError) -> Bool {
            guard case .bool(let value)? = object[key] else { throw fail("\"\(key)\" missing or not true/false") }
            return value
        }
        let sourceName = try text("source")
        guard let source = InputSource.allCases.first(where: { $0.description == sourceName }) else {
            throw fail("unknown source \"\(sourceName)\"")
        }
        let eventName = try text("event")
        guard let event = TraceEvent(rawValue: eventName) else { throw fail("unknown event \"\(eventName)\"") }
        var phase: PhaseEvent?
        var reason: CancelReason?
        if case .string(let reasonName)? = object["reason"] {
            guard let known = CancelReason.allCases.first(where: { $0.description == reasonName }) else {
                throw fail("unknown reason \"\(reasonName)\"")
            }
            reason = known
        }
        if event != .shouldBegin {
            let name = try text("phase")
            guard let known = PhaseEvent(name: name, reason: reason) else { throw fail("unknown phase \"\(name)\"") }
            phase = known
        }
        let interaction = try number("interaction")
        guard interaction >= 0, interaction <= Double(UInt32.max), interaction == interaction.rounded() else {
            throw fail("\"interaction\" is not an id")
        }
        var surface: SurfaceID?
        if case .number(let value)? = object["surface"], value >= 0, value < 1.8e19 {
            surface = SurfaceID(UInt64(value))
        }
        var client: String?
        if case .string(let value)? = object["client"] { client = value }
        // Null coordinates (JSON's spelling of NaN) read back as NaN.
        func coordinate(_ key: String) throws(TraceError) -> Double {
            switch object[key] {
            case .number(let value)?: return value
            case .null?, nil: return .nan
            case .string?, .bool?: throw fail("\"\(key)\" is not a number")
            }
        }
        let x = try coordinate("x")
        let y = try coordinate("y")
        let record = TraceRecord(
            time: Timestamp(microseconds: Int64(try number("time_us"))), device: try text("device"), source: source,
            simulated: try flag("simulated"), interaction: InteractionID(UInt32(interaction)), phase: phase,
            progress: try number("progress"), location: Point(x: x, y: y), surface: surface, client: client)
        guard record.event == event, record.ended == (try flag("ended")) else {
            throw fail("\"phase\" \(phase.map { "\($0)" } ?? "-") does not go with event \(eventName) and \"ended\"")
        }
        return record
    }
}
