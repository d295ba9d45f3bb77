import PreviewEngine

/// The moments the compositor takes a phase screenshot at (`--screenshot-dir`,
/// docs/compositor.md "Screenshot moments"). The file `NNNN-interaction<K>-<moment>.png` shows
/// interaction K at that moment: the compositor writes the label, the demo's report reads it.
public enum ScreenshotMoment: String, CaseIterable, Hashable, Sendable {
    case preview
    case previewHalf = "preview-half"
    case commit
    case commitHalf = "commit-half"
    case completed
    case cancelled
    /// The client's animation after the end (pop or cancel) is over.
    case settled

    /// `interaction<K>-<moment>`: the file name's label.
    public func label(interaction: InteractionID) -> String {
        "interaction\(interaction.rawValue)-\(rawValue)"
    }

    /// `interaction12-commit-half` → (#12, .commitHalf); nil for any other label.
    public static func parse(label: String) -> (InteractionID, ScreenshotMoment)? {
        guard label.hasPrefix("interaction"), let dash = label.firstIndex(of: "-") else { return nil }
        guard let number = UInt32(label["interaction".endIndex..<dash]),
            let moment = ScreenshotMoment(rawValue: String(label[label.index(after: dash)...]))
        else { return nil }
        return (InteractionID(number), moment)
    }
}
