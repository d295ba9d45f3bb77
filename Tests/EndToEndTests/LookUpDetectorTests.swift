import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// preview-lookup's data detectors and its rule for files, run alone (`preview-lookup --detect`,
/// `--file`) in the user's locale as its environment gives it: what a press on a character of a
/// text finds there, in several locales' formats.
struct LookUpDetectorTests {
    static let lookup = tools.directory + "/preview-lookup"

    /// The detector's line for character `at` of `text` (kind, range, text, value, [phone]).
    func detect(_ text: String, at: Int, locale: String = "en_US.UTF-8") throws -> [String] {
        let result = try ChildProcess.run(
            [Self.lookup, "--detect", text, String(at)], environment: ["LANG": locale, "LC_ALL": locale],
            unsetting: ["LC_TIME", "LC_TELEPHONE"], timeout: 20)
        return result.output.trimmingCharacters(in: .newlines).components(separatedBy: "\t")
    }

    /// Character `at` is the first of `word` in `text`.
    func at(_ word: String, in text: String) -> Int {
        text.distance(from: text.startIndex, to: text.range(of: word)!.lowerBound)
    }

    @Test(arguments: [
        ("en_US.UTF-8", "Meet on March 14, 2025 at 3:30 PM, room 4", "14", "2025-03-14T15:30"),
        ("en_US.UTF-8", "Due 03/14/2025 at noon", "14", "2025-03-14"),
        ("en_GB.UTF-8", "Due 14/03/2025 please", "03", "2025-03-14"),
        ("de_DE.UTF-8", "Am 14. März 2025 um 15:30 Uhr", "März", "2025-03-14T15:30"),
        ("de_DE.UTF-8", "Am 14.03.2025 um 15.30 Uhr", "03", "2025-03-14T15:30"),
        ("fr_FR.UTF-8", "Le vendredi 14 mars 2025 à 15h30", "mars", "2025-03-14T15:30"),
        ("es_ES.UTF-8", "El 14 de marzo de 2025 a las 10:00", "marzo", "2025-03-14T10:00"),
        ("en_US.UTF-8", "Standup at 9:15 am daily", "9", "09:15"),
        ("en_US.UTF-8", "Released 2025-03-14T10:00 today", "03", "2025-03-14T10:00"),
    ])
    func datesAndTimesInTheirLocalesFormats(locale: String, text: String, pressed: String, value: String) throws {
        let line = try detect(text, at: at(pressed, in: text), locale: locale)
        #expect(line.first == "date" && line.count >= 5 && line[4] == value, "\(line)")
    }

    @Test func aTimesWordsAreItsOwn() throws {
        let text = "Am 14. März 2025 um 15:30 Uhr, bitte"
        let line = try detect(text, at: at("März", in: text), locale: "de_DE.UTF-8")
        #expect(line.count >= 4 && line[3] == "14. März 2025 um 15:30 Uhr", "\(line)")
    }

    @Test(arguments: [
        ("en_US.UTF-8", "Call +44 20 7946 0958 today", "7946", "tel:+442079460958", "+44 20 7946 0958"),
        ("en_US.UTF-8", "Call (650) 253-0000 now", "253", "tel:+16502530000", "+1 650-253-0000"),
        ("de_DE.UTF-8", "Ruf an: 030 901820 bitte", "901820", "tel:+4930901820", "+49 30 901820"),
        ("fr_FR.UTF-8", "Tél. 01 42 68 53 00 ok", "68", "tel:+33142685300", "+33 1 42 68 53 00"),
        ("ja_JP.UTF-8", "電話 03-3224-3000 まで", "3224", "tel:+81332243000", "+81 3-3224-3000"),
    ])
    func phoneNumbersInEveryRegionsFormat(locale: String, text: String, pressed: String, uri: String, shown: String)
        throws
    {
        let line = try detect(text, at: at(pressed, in: text), locale: locale)
        #expect(line.first == "phone" && line.count >= 6 && line[4] == uri && line[5] == shown, "\(line)")
    }

    @Test func addressesAndPaths() throws {
        let mail = "Write to jane.doe@example.org."
        #expect(
            try detect(mail, at: at("doe", in: mail)) == [
                "email", "9", "29", "jane.doe@example.org", "mailto:jane.doe@example.org",
            ])
        let url = "See (https://example.org/a?b=1), then"
        #expect(
            try detect(url, at: at("example", in: url)) == [
                "link", "5", "30", "https://example.org/a?b=1", "https://example.org/a?b=1",
            ])
        let www = "Visit www.example.com."
        #expect(try detect(www, at: at("example", in: www)).last == "https://www.example.com")
        let path = "Open ~/notes/today.txt now"
        #expect(try detect(path, at: at("today", in: path)).first == "file")
    }

    @Test func wordsNumbersAndVersionsAreNotData() throws {
        for (text, pressed) in [("plain words here", "words"), ("version 1.2.3 here", "2"), ("page 42 of 300", "42")] {
            #expect(try detect(text, at: at(pressed, in: text)) == ["nothing"], "\(text)")
        }
    }
}

/// Which paths a press may preview: the user's own files only (files.c's rule).
struct LookUpFileRuleTests {
    func check(_ path: String, home: String) throws -> [String] {
        let result = try ChildProcess.run(
            [LookUpDetectorTests.lookup, "--file", path], environment: ["HOME": home], timeout: 20)
        return result.output.trimmingCharacters(in: .newlines).components(separatedBy: "\t")
    }

    @Test func onlyTheUsersOwnFilesInTheirHome() throws {
        let home = scratchDirectory() + "/home"
        let fm = FileManager.default
        try fm.createDirectory(atPath: home + "/docs", withIntermediateDirectories: true)
        try "line one\nline two\n".write(toFile: home + "/docs/notes.txt", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: home + "/docs/passwords", withDestinationPath: "/etc/passwd")
        try fm.createSymbolicLink(atPath: home + "/docs/also-notes", withDestinationPath: home + "/docs/notes.txt")
        try "theirs".write(toFile: home + "/docs/theirs.txt", atomically: true, encoding: .utf8)
        #expect(chown(home + "/docs/theirs.txt", 65534, 65534) == 0)

        let notes = try check("~/docs/notes.txt", home: home)
        #expect(notes.first == "allowed" && notes.last == "lines" && notes[2] == "plain text document", "\(notes)")
        #expect(try check("file://\(home)/docs/notes.txt", home: home).first == "allowed")
        #expect(try check("~/docs/also-notes", home: home).first == "allowed", "a link inside the home")
        #expect(try check("~/docs/passwords", home: home) == ["refused", "outside the home directory"])
        #expect(try check("~/docs/theirs.txt", home: home) == ["refused", "not the user's"])
        #expect(try check("/etc/passwd", home: home) == ["refused", "outside the home directory"])
        #expect(try check("/proc/self/environ", home: home) == ["refused", "a system file"])
        #expect(try check("~/../../../../etc/passwd", home: home) == ["refused", "outside the home directory"])
        #expect(try check("~/docs/none.txt", home: home) == ["refused", "no such file"])
    }
}
