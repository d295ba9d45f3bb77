import Foundation
import PreviewEngine
import PreviewTrace

/// A screenshot file and the trace moment it shows.
public struct Screenshot: Hashable, Sendable {
    /// File name relative to the report's folder.
    public var file: String
    /// 1, 2, 3… in the order they were taken: the plot's markers carry the same numbers.
    public var number: Int
    /// What the compositor called it (`0003-preview.png` → `preview`).
    public var label: String
    /// The phase change it was taken at, when known.
    public var moment: TraceRecord?

    public init(file: String, number: Int, label: String, moment: TraceRecord? = nil) {
        self.file = file
        self.number = number
        self.label = label
        self.moment = moment
    }

    /// `preview begins · progress 0.05 · 6.598 s`, or the label when the moment is unknown.
    public var caption: String {
        guard let moment else { return label }
        return
            "\(moment.interaction) \(Self.describe(moment)) · progress \(Fixed.format(moment.progress, digits: 2)) · "
            + "\(Fixed.format(seconds(moment.time), digits: 3)) s"
    }

    /// The phase change a record stands for, in words.
    public static func describe(_ record: TraceRecord) -> String {
        switch record.event {
        case .shouldBegin: "should-begin"
        case .preview where record.ended: "commit begins (peek)"
        case .preview: "preview"
        case .commit where record.ended: "completed (pop)"
        case .commit: "commit"
        case .cancel: "cancelled (\(record.reason?.description ?? "system"))"
        }
    }
}

public enum Screenshots {
    /// The PNGs in `directory` (sorted: the compositor numbers them `0001-label.png`), paired
    /// with the trace's phase changes. A name carrying a time (`…-t6598000us…`) is placed by it;
    /// otherwise, when there are as many phase-change shots as phase changes, in order.
    /// Shots taken for other reasons (`on-demand`) keep their label.
    public static func find(in directory: String, relativeTo base: String, stories: [InteractionStory]) -> [Screenshot]
    {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
        let prefix = relativePrefix(of: directory, from: base)
        var shots = names.enumerated().map { index, name in
            Screenshot(file: prefix + name, number: index + 1, label: label(of: name))
        }
        let changes = stories.flatMap(\.phaseChanges).sorted { $0.time < $1.time }
        let all = stories.flatMap(\.records)
        var unplaced: [Int] = []
        for index in shots.indices where shots[index].label != "on-demand" {
            if let time = time(in: shots[index].label) {
                shots[index].moment = all.last { $0.time.microseconds <= time } ?? all.first
            } else {
                unplaced.append(index)
            }
        }
        if unplaced.count == changes.count {
            for (index, change) in zip(unplaced, changes) { shots[index].moment = change }
        }
        return shots
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
