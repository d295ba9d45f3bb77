import Foundation
import Testing

/// The compositor holds its concerns, and each concern's state lives with the code that owns
/// it: the wl_compositor surfaces and clients (`SurfaceRegistry`), the output (`CompositorOutput`),
/// the input (`CompositorInput`), the globals (`WaylandGlobals`), the exit once clients settled
/// (`ExitSettling`). Their stored state is private to them: no other file reaches into it. The
/// other concerns (the seat, popup grabs, tiling, the host core's side, the screenshots, Look Up,
/// the Wayland resources) are made with what they need, not the compositor.
@Suite struct CompositorConcernsTests {
    static let sources =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/PreviewCompositor").standardized.path

    static let concerns = [
        "Wayland/SurfaceRegistry.swift", "Core/CompositorOutput.swift", "Core/CompositorInput.swift",
        "Wayland/WaylandGlobals.swift", "Core/ExitSettling.swift",
    ]

    /// The stored properties of the type declared first in `file` (members at four spaces,
    /// computed ones left out).
    static func storedProperties(_ file: String) throws -> [String] {
        let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
        return text.split(separator: "\n").map(String.init).filter { line in
            guard line.hasPrefix("    "), !line.hasPrefix("     "), !line.hasPrefix("    //") else { return false }
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let keyword = words.firstIndex(where: { $0 == "var" || $0 == "let" }),
                words[..<keyword].allSatisfy({ !$0.hasPrefix("static") && !$0.hasPrefix("func") })
            else { return false }
            // A computed property's body opens before any initial value: `var x: T { … }`.
            guard let brace = line.range(of: " {") else { return true }
            guard let value = line.range(of: " = ") else { return false }
            return value.lowerBound < brace.lowerBound
        }
    }

    @Test func theCompositorHoldsConcernsNotTheirState() throws {
        let stored = try Self.storedProperties("Core/Compositor.swift")
        #expect(stored.count <= 27, "the compositor keeps state of its own again:\n\(stored.joined(separator: "\n"))")
        for removed in ["frameCallbacks", "outputResources", "wmBases", "clientIDs", "nextSurfaceID", "globals: ["] {
            #expect(!stored.contains { $0.contains(removed) }, "\(removed) is back in Compositor")
        }
    }

    /// Made before the compositor is whole, these once held it implicitly unwrapped.
    static let madeWithWhatTheyNeed = [
        "Core/Compositor.swift", "Input/Seat.swift", "Wayland/PopupGrabs.swift", "WindowManagement/Tiling.swift",
        "Interaction/InteractionHost.swift", "Interaction/InteractionShell.swift",
        "Screenshots/PhaseScreenshots.swift", "Lookup/LookupController.swift", "Lookup/LookupHighlight.swift",
    ]

    @Test(arguments: madeWithWhatTheyNeed)
    func nothingIsImplicitlyUnwrapped(_ file: String) throws {
        let unwrapped = try Self.storedProperties(file).filter { $0.hasSuffix("!") }
        #expect(unwrapped.isEmpty, "\(file): \(unwrapped.joined(separator: "\n"))")
        let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
        if file != "Core/Compositor.swift" {
            #expect(!text.contains(try Regex(#":\s*Compositor\b"#)), "\(file) is given the whole compositor")
        }
    }

    /// No file reaches through the compositor into one of its concerns (`compositor.seat.…`,
    /// `compositor.scene.…`): what a part needs of another is given to it.
    @Test func noFileReachesThroughTheCompositor() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sources).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50, "the sources were not found")
        let reach = try Regex(#"\bcompositor\??\.[a-zA-Z]+\."#)
        var reaches: [String] = []
        for file in files {
            let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if line.contains(reach) { reaches.append("\(file): \(line)") }
            }
        }
        #expect(reaches.isEmpty, "\(reaches.joined(separator: "\n"))")
    }

    @Test(arguments: concerns)
    func aConcernsStateIsItsOwn(_ file: String) throws {
        let stored = try Self.storedProperties(file)
        #expect(!stored.isEmpty, "\(file): no stored state found")
        for line in stored {
            #expect(line.contains("private"), "\(file): its state is reachable from other files: \(line)")
        }
    }
}
