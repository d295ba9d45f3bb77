import Testing

/// System calls live in Sources/SystemLayer: outside it, no Swift file (the product's Sources/ and
/// examples/, and Tests/, Fuzz/ and Benchmarks/) imports the C library or calls a descriptor
/// function itself, except the files rules/system-calls.txt lists, each with its reason (test code
/// may need a raw call the product never makes). (Foundation re-exports the C library on Linux,
/// so the calls are looked for too, not only the imports.)
@Suite("System calls stay in the system layer")
struct SystemCallBoundaryTests {
    static let scannedFolders = ["Sources", "examples", "Tests", "Fuzz", "Benchmarks"]
    static let layerFolder = "Sources/SystemLayer/"

    /// The descriptor calls, with the fewest arguments each takes (a method of the same name
    /// that takes fewer, such as `connection.close()` or `read()`, is not one of them).
    static let descriptorCalls: [String: Int] = [
        "open": 2, "openat": 3, "close": 1, "dup": 1, "dup2": 2, "dup3": 3, "pipe": 1, "pipe2": 2, "socket": 3,
        "socketpair": 4, "fcntl": 2, "ioctl": 2, "poll": 3, "ppoll": 4, "select": 5, "read": 3, "write": 3,
        "pread": 4, "pwrite": 4, "mmap": 6, "munmap": 2, "shm_open": 3, "ftruncate": 2, "memfd_create": 2,
        "eventfd": 2, "timerfd_create": 2, "fopen": 2, "fdopen": 2, "mkstemp": 1,
    ]

    struct Finding: CustomStringConvertible {
        var file: String
        var line: Int
        var what: String
        var description: String { "\(file):\(line): \(what)" }
    }

    /// The allow-list: `path | reason` lines (a path ending in `/` is a folder).
    static func allowList() throws -> [(path: String, reason: String)] {
        try SourceTree.read("rules/system-calls.txt").split(separator: "\n").compactMap { line in
            let text = line.trimmingPrefix(while: { $0 == " " })
            guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
            let parts = text.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters() }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    /// What `text` (one Swift file) does that belongs in the system layer.
    static func findings(in text: String, file: String) -> [Finding] {
        var found: [Finding] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = codeOnly(rawLine)
            if let module = importedCLibrary(line) {
                found.append(Finding(file: file, line: index + 1, what: "import \(module)"))
            }
            for call in calls(in: line) {
                found.append(Finding(file: file, line: index + 1, what: "\(call)(…)"))
            }
        }
        return found
    }

    /// The line without its comment and without the contents of its string literals.
    static func codeOnly(_ line: Substring) -> String {
        var result = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if inString {
                if character == "\"" && previous != "\\" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/" && previous == "/" {
                result.removeLast()
                break
            }
            if !inString || character == "\"" { result.append(character) }
            previous = character
        }
        return result
    }

    static func importedCLibrary(_ line: String) -> String? {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first,
            first.hasPrefix("@") || ["internal", "public", "package", "private"].contains(first)
        {
            words.removeFirst()
        }
        guard words.count >= 2, words[0] == "import" else { return nil }
        let module = words[1]
        return ["Glibc", "Musl", "Darwin", "SwiftGlibc"].contains(module) ? module : nil
    }

    /// The descriptor calls on the line: a name from the table, not after `.` (a method) or
    /// `func ` (a declaration) unless qualified by a C library module, with enough arguments.
    static func calls(in line: String) -> [String] {
        let characters = Array(line)
        var found: [String] = []
        var index = 0
        while index < characters.count {
            guard characters[index].isLetter || characters[index] == "_" else {
                index += 1
                continue
            }
            let start = index
            while index < characters.count
                && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_")
            {
                index += 1
            }
            let name = String(characters[start..<index])
            guard let arity = descriptorCalls[name], index < characters.count, characters[index] == "(" else {
                continue
            }
            let before = String(characters[..<start])
            let qualified = ["Glibc.", "Musl.", "Darwin."].contains { before.hasSuffix($0) }
            if !qualified && (before.hasSuffix(".") || before.hasSuffix("func ")) { continue }
            if argumentCount(characters, openingAt: index) >= arity { found.append(name) }
        }
        return found
    }

    /// Top-level arguments of the call whose `(` is at `open` (counted to the line's end).
    static func argumentCount(_ characters: [Character], openingAt open: Int) -> Int {
        var depth = 0
        var commas = 0
        var sawArgument = false
        for character in characters[(open + 1)...] {
            switch character {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                if depth == 0 { return sawArgument ? commas + 1 : 0 }
                depth -= 1
            case "," where depth == 0: commas += 1
            case " ": break
            default: break
            }
            if character != " " { sawArgument = true }
        }
        return sawArgument ? commas + 1 : 0
    }

    @Test("No file outside the layer and the allow-list imports the C library or calls a descriptor function")
    func noSystemCallsOutsideTheLayer() throws {
        let allowed = try Self.allowList()
        var findings: [Finding] = []
        for folder in Self.scannedFolders {
            for file in try SourceTree.swiftFiles(under: folder) where !file.hasPrefix(Self.layerFolder) {
                if allowed.contains(where: { file == $0.path || ($0.path.hasSuffix("/") && file.hasPrefix($0.path)) }) {
                    continue
                }
                findings += Self.findings(in: try SourceTree.read(file), file: file)
            }
        }
        #expect(
            findings.isEmpty,
            """
            system calls outside Sources/SystemLayer (use or add its API; a file that must stay \
            outside goes in rules/system-calls.txt with its reason):
            \(findings.map(\.description).joined(separator: "\n"))
            """)
    }

    @Test("Every allow-list entry names a file or folder that exists, with a reason, and still needs it")
    func allowListEntriesAreLiveAndExplained() throws {
        for entry in try Self.allowList() {
            #expect(!entry.reason.isEmpty, "\(entry.path): no reason given")
            let files = try Self.scannedFolders.flatMap { try SourceTree.swiftFiles(under: $0) }
                .filter { $0 == entry.path || (entry.path.hasSuffix("/") && $0.hasPrefix(entry.path)) }
            #expect(!files.isEmpty, "\(entry.path): no such Swift file or folder under \(Self.scannedFolders)")
            let needed = try files.contains { !Self.findings(in: try SourceTree.read($0), file: $0).isEmpty }
            #expect(needed || files.isEmpty, "\(entry.path): makes no system call any more; remove its entry")
        }
    }

    @Test("The scanner sees what it must and nothing else")
    func theScannerSeesCallsAndImports() {
        let text = """
            import Glibc
            internal import Musl
            let fd = open(path, O_RDONLY)
            _ = Glibc.close(fd)
            connection.close()
            read()
            func write(_ text: String, to fd: Int32) {}
            let s = "close(a)" // close(fd)
            guard let m = mmap(nil, n, PROT_READ, MAP_SHARED, fd, 0) else { return }
            """
        let found = Self.findings(in: text, file: "x.swift").map(\.description)
        #expect(
            found == [
                "x.swift:1: import Glibc", "x.swift:2: import Musl", "x.swift:3: open(…)", "x.swift:4: close(…)",
                "x.swift:9: mmap(…)",
            ])
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(self.trimmingPrefix(while: { $0 == " " }).reversed().trimmingPrefix(while: { $0 == " " }).reversed())
    }
}
