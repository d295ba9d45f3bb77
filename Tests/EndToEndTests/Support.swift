import CCairo
import DemoReport
import Foundation
import PreviewEngine
import PreviewTrace
import SystemLayer

/// The project's executables, built next to the test bundle by `swift build --build-tests`.
let tools = Tools.beside(CommandLine.arguments[0])

/// A fresh empty folder.
func scratchDirectory(_ name: String = #function) -> String {
    let safe = String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    let path = NSTemporaryDirectory() + "e2e-\(safe)-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs one of the project's executables to its exit; stdout and stderr together.
func runTool(_ arguments: [String], timeout: Double = 120) throws -> (status: Int32?, output: String) {
    let log = scratchDirectory("tool") + "/output.log"
    let child = try ChildProcess(arguments, output: .file(log))
    let status = child.wait(timeout: timeout)
    return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
}
