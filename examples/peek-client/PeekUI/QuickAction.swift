// The peek's quick actions (UIPreviewAction / UIPreviewActionGroup), in the order they are shown.
// No "Open" action: pressing deeper opens the item (HIG: "Avoid providing an action button that
// opens a peeked item").

public enum QuickAction: String, Hashable, Sendable, CaseIterable {
    case share
    case love
    case nope
    case copy
    case delete

    public enum Style: Sendable {
        case normal
        case destructive
    }

    public var title: String {
        switch self {
        case .share: "Share…"
        case .love: "❤️ Love"
        case .nope: "💀 Nope"
        case .copy: "Copy"
        case .delete: "Delete"
        }
    }

    /// A symbol drawn at the row's trailing edge (rating rows show their emoji in the title).
    public var symbol: String? {
        switch self {
        case .share: "⇪"
        case .copy: "📋"
        case .delete: "🗑"
        case .love, .nope: nil
        }
    }

    public var style: Style {
        switch self {
        case .delete: .destructive
        case .share, .love, .nope, .copy: .normal
        }
    }

    /// The haptic tick when the pen slides onto the action during the commit phase: every action
    /// gets the same light tick, as a selection moving does on iOS (a selection feedback
    /// generator) and macOS (the generic pattern). None is played when the action is performed:
    /// that is the end of the interaction, where the compositor's own release click is felt and
    /// an app's request would be dropped.
    public var feedback: HapticFeedback { .tick }

    /// Rows of the action platter; a row of two is the "Rate" group, shown side by side as in the
    /// rating example of the iOS articles so the pen only has to slide left or right.
    public static let rows: [[QuickAction]] = [[.share], [.love, .nope], [.copy], [.delete]]

    /// The past-tense sentence shown in the toast after the action was performed.
    func confirmation(for title: String) -> String {
        switch self {
        case .share: "Shared “\(title)”"
        case .love: "❤️ Loved “\(title)”"
        case .nope: "💀 Not for you: “\(title)”"
        case .copy: "Copied “\(title)”"
        case .delete: "Deleted “\(title)”"
        }
    }
}
