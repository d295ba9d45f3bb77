import DemoReport
import Foundation
import Testing

@Suite("The demo's runtime folder (XDG_RUNTIME_DIR)")
struct RuntimeDirectoryTests {
    @Test("A usable XDG_RUNTIME_DIR is used as it is and left alone")
    func usable() throws {
        let folder = scratchDirectory()
        chmod(folder, 0o700)
        let runtime = try RuntimeDirectory(environment: ["XDG_RUNTIME_DIR": folder])
        #expect(runtime.path == folder && !runtime.isPrivate && runtime.reason == nil)
        runtime.remove()
        #expect(FileManager.default.fileExists(atPath: folder))
    }

    @Test("Unset, empty, relative, missing or a file: a private 0700 folder, removed with what is left in it")
    func unusable() throws {
        let file = scratchDirectory() + "/file"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let cases: [(String?, String)] = [
            (nil, "is not set"), ("", "is not set"), ("run/user", "not an absolute path"),
            ("/nonexistent/runtime", "No such file"), (file, "not a directory"),
        ]
        for (value, reason) in cases {
            let environment = value.map { ["XDG_RUNTIME_DIR": $0] } ?? [:]
            let runtime = try RuntimeDirectory(environment: environment)
            #expect(runtime.isPrivate)
            #expect(runtime.reason?.contains(reason) == true, "\(runtime.reason ?? "nil")")
            let attributes = try FileManager.default.attributesOfItem(atPath: runtime.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700)
            #expect(runtime.environment == ["XDG_RUNTIME_DIR": runtime.path])
            // What a killed compositor leaves behind goes too.
            _ = FileManager.default.createFile(atPath: runtime.path + "/wayland-0.lock", contents: Data())
            runtime.remove()
            #expect(!FileManager.default.fileExists(atPath: runtime.path))
        }
    }

    // Only root (CI, this machine) can hand a folder to nobody.
    @Test("Another user's folder is not used", .enabled(if: geteuid() == 0))
    func someoneElses() throws {
        let folder = scratchDirectory()
        #expect(chown(folder, 65534, 65534) == 0)
        #expect(RuntimeDirectory.problem(with: folder)?.contains("another user") == true)
    }
}
