import ArgumentParser
import PeekUI
import ToolOptions

/// The command line. The compositor and the end-to-end tests run the client with these flags:
/// keep their names and meaning stable.
struct PeekClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peek-client",
        abstract: "A photo grid that answers preview interactions (peek and pop) on Wayland.",
        discussion: """
            Press a photo firmly (pen, force touchpad, touchscreen, or a long press) to peek; press \
            harder to pop it open, or slide onto a quick action and press through to perform it; lift \
            to cancel. Without pressure: right click, the Menu key or Shift+F10 opens the same quick \
            actions; click, tap or Enter opens a photo; Escape goes back. On a photo's page, press the \
            photo firmly to zoom (each stage of force one step) and draw on the markup pad, where a \
            firm press never peeks.
            """,
        version: ToolVersion.current)

    @Option(help: "How many photos the grid shows.")
    var items = 12

    @Option(help: ArgumentHelp("Colour theme: light or dark.", valueName: "light|dark"))
    var theme = "light"

    @Option(
        help: ArgumentHelp(
            "Exit (status 0) once this many interactions have ended (completed or cancelled).", valueName: "N"))
    var exitAfterInteractions: Int?

    @Flag(help: "Print one line per preview-interaction event received on stdout (format: README.md).")
    var log = false

    @Option(
        help: ArgumentHelp("Start on this photo's page (0 is the first photo) instead of the grid.", valueName: "N"))
    var open: Int?

    @Option(
        help: ArgumentHelp(
            "Simulate an app slow to draw its peek: wait this long before each frame of an interaction or animation (tests use it).",
            valueName: "ms"))
    var drawDelay = 0

    func validate() throws {
        guard (0...1000).contains(items) else {
            throw ValidationError("--items must be between 0 and 1000, not \(items)")
        }
        guard Theme(rawValue: theme) != nil else {
            throw ValidationError("--theme must be light or dark, not '\(theme)'")
        }
        if let n = exitAfterInteractions, n < 1 {
            throw ValidationError("--exit-after-interactions must be at least 1, not \(n)")
        }
        if let open, !(0..<items).contains(open) {
            throw ValidationError("--open must name one of the \(items) photos (0...\(items - 1)), not \(open)")
        }
        guard (0...5000).contains(drawDelay) else {
            throw ValidationError("--draw-delay must be 0...5000 ms, not \(drawDelay)")
        }
    }

    func run() throws {
        let app: PeekApp
        do {
            app = try PeekApp(
                items: items, theme: Theme(rawValue: theme)!, exitAfterInteractions: exitAfterInteractions, log: log,
                drawDelay: drawDelay, open: open)
        } catch {
            printError("peek-client: \(error)")
            throw ExitCode.failure
        }
        let status = app.run()
        if status != 0 { throw ExitCode(status) }
    }
}
