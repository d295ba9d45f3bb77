import Foundation
import PreviewEngine
import PreviewTrace

extension ScreenshotMoment {
    /// In words, for captions.
    public var words: String {
        switch self {
        case .preview: "preview begins"
        case .previewHalf: "preview half-way"
        case .commit: "commit begins (peek)"
        case .commitHalf: "commit half-way"
        case .completed: "completed (pop)"
        case .cancelled: "cancelled"
        case .settled: "settled"
        }
    }

    /// The trace record this moment stands for in `story` (nil: the trace never got there).
    /// Half-way moments are the first record at or past 0.5 of their phase, else the highest.
    func record(in story: InteractionStory) -> TraceRecord? {
        let records = story.records
        func halfway(_ phase: Phase) -> TraceRecord? {
            let progress = records.filter { $0.phase?.changesPhase == false && $0.phaseAfter == phase }
            return progress.first { $0.progress >= 0.5 } ?? progress.max { $0.progress < $1.progress }
        }
        switch self {
        case .preview: return records.first { $0.phase?.isPreview == true } ?? records.first
        case .previewHalf: return halfway(.preview)
        case .commit: return records.first { $0.phaseAfter == .commit }
        case .commitHalf: return halfway(.commit)
        case .completed: return records.first { $0.phase == .completed }
        case .cancelled: return records.first { $0.phaseAfter == .cancelled }
        case .settled: return records.last.flatMap { $0.isFinal ? $0 : nil }
        }
    }
}

/// A screenshot file and the trace moment it shows.
public struct Screenshot: Hashable, Sendable {
    /// File name relative to the report's folder.
    public var file: String
    /// 1, 2, 3… in the order they were taken: the plot's markers carry the same numbers.
    public var number: Int
    /// What the compositor called it (`0003-interaction1-commit.png` → `interaction1-commit`).
    public var label: String
    /// The interaction and moment the label names, when it follows the contract.
    public var interaction: InteractionID?
    public var moment: ScreenshotMoment?
    /// The trace record it was taken at, when known.
    public var record: TraceRecord?

    public init(
        file: String, number: Int, label: String, interaction: InteractionID? = nil, moment: ScreenshotMoment? = nil,
        record: TraceRecord? = nil
    ) {
        self.file = file
        self.number = number
        self.label = label
        self.interaction = interaction
        self.moment = moment
        self.record = record
    }

    /// `#1 commit begins (peek) · progress 1.00 · 0.137 s`, or the label when the moment is unknown.
    public var caption: String {
        guard let record else { return label }
        let what: String
        switch moment {
        case .settled?: what = "settled after " + (record.phaseAfter == .cancelled ? "the cancel" : "the pop")
        case .cancelled?, nil: what = Self.describe(record)
        case let moment?: what = moment.words
        }
        return "\(record.interaction) \(what) · progress \(Fixed.format(record.progress, digits: 2)) · "
            + "\(Fixed.format(seconds(record.time), digits: 3)) s"
    }

    /// The phase change a record stands for, in words.
    public static func describe(_ record: TraceRecord) -> String {
        switch record.phase {
        case nil: "should-begin"
        case .previewEnded?: "commit begins (peek)"
        case .previewBegan?, .previewProgress?: "preview"
        case .completed?: "completed (pop)"
        case .commitProgress?: "commit"
        case .cancelled(let reason)?: "cancelled (\(reason))"
        case .stage(let level)?: "stage \(level)"
        }
    }
}

public enum Screenshots {
    /// The PNGs in `directory` (sorted: the compositor numbers them), each paired with the trace
    /// record it shows. Names by the contract (`0003-interaction1-commit.png`) are placed by
    /// interaction and moment; whatever moments are missing are simply not shown. Other names
    /// are placed by a time token (`…-t6598000us…`, on the trace's clock before `origin` was
    /// taken off), or in order when there are as many of them as phase changes; the rest
    /// (`on-demand`) keep their label.
    public static func find(
        in directory: String, relativeTo base: String, stories: [InteractionStory],
        origin: Timestamp = Timestamp(microseconds: 0)
    ) -> [Screenshot] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
        let prefix = relativePrefix(of: directory, from: base)
        let byID = Dictionary(stories.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var shots = names.enumerated().map { index, name in
            Screenshot(file: prefix + name, number: index + 1, label: label(of: name))
        }
        let all = stories.flatMap(\.records)
        var unplaced: [Int] = []
        for index in shots.indices where shots[index].label != "on-demand" {
            if let (id, moment) = contract(shots[index].label) {
                shots[index].interaction = id
                shots[index].moment = moment
                shots[index].record = byID[id].flatMap { moment.record(in: $0) }
            } else if let time = time(in: shots[index].label) {
                shots[index].record = all.last { $0.time.microseconds <= time - origin.microseconds } ?? all.first
            } else {
                unplaced.append(index)
            }
        }
        let changes = stories.flatMap(\.phaseChanges).sorted { $0.time < $1.time }
        if unplaced.count == changes.count {
            for (index, change) in zip(unplaced, changes) { shots[index].record = change }
        }
        return shots
    }

    static func contract(_ label: String) -> (InteractionID, ScreenshotMoment)? {
        ScreenshotMoment.parse(label: label)
    }

    /// `0003-preview-1.png` → `preview-1`.
    static func label(of name: String) -> String {
        var stem = name.hasSuffix(".png") ? String(name.dropLast(4)) : name
        if let dash = stem.firstIndex(of: "-"), stem[..<dash].allSatisfy(\.isNumber) {
            stem = String(stem[stem.index(after: dash)...])
        }
        return stem
    }

    /// A `t<microseconds>us` token in a label.
    static func time(in label: String) -> Int64? {
        for token in label.split(separator: "-") where token.hasPrefix("t") && token.hasSuffix("us") {
            if let value = Int64(token.dropFirst().dropLast(2)) { return value }
        }
        return nil
    }

    static func relativePrefix(of directory: String, from base: String) -> String {
        let dir = URL(fileURLWithPath: directory).standardizedFileURL.path
        let root = URL(fileURLWithPath: base).standardizedFileURL.path
        if dir == root { return "" }
        if dir.hasPrefix(root + "/") { return String(dir.dropFirst(root.count + 1)) + "/" }
        return dir + "/"
    }
}
