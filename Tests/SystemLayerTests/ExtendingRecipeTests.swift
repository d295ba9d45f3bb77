import SystemLayer
import Testing

/// docs/extending.md names files in order: every path it names exists (NAME stands for the new
/// backend's folder), so a recipe cannot send the next engineer to a file that moved.
@Suite struct ExtendingRecipeTests {
    /// The backquoted paths in `text`: words with a `/` whose first folder is one of the tree's.
    static func paths(in text: String) -> [String] {
        let roots = [
            "Sources/", "Tests/", "protocol/", "gtk/", "qt/", "docs/", "scripts/", "examples/", "rules/", "debian/",
            "Fuzz/", "abi/",
        ]
        return text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            guard index % 2 == 1, !part.contains(" "), roots.contains(where: { part.hasPrefix($0) }) else { return nil }
            return String(part)
        }
    }

    @Test func everyFileARecipeNamesExists() throws {
        let named = Self.paths(in: try SourceTree.read("docs/extending.md"))
        #expect(named.count > 50, "the recipes name their files")
        let tracked = Set(try SourceTree.files(under: "."))
        for path in named where !path.contains("/NAME/") {
            let exists =
                tracked.contains(path) || tracked.contains { $0.hasPrefix(path.hasSuffix("/") ? path : path + "/") }
            #expect(exists, "docs/extending.md names \(path), which is not in the tree")
        }
    }
}
