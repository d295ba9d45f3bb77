import ArgumentParser
import DemoReport
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the demo (not yet).")
    func run() throws {}
}
