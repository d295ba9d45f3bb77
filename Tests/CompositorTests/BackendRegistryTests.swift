import Foundation
import InputEvents
import PreviewCompositor
import PreviewEngine
import Synchronization
import Testing

/// The backends come from one registry: the command line reads names and options there, the
/// man page lists them, and a backend from outside the library (a folder here and a line in
/// the test) is selected by name and runs.
@Suite struct BackendRegistryTests {
    @Test("A backend in nothing but its own folder, added at run time, is selected by name and runs")
    func aFolderIsABackend() throws {
        let windowColour: UInt32 = 0xff33_6699  // RawClient's buffers
        let tally = FrameCounter.Tally(colour: windowColour)
        var registry = BackendRegistry.standard
        registry.add(ScriptedTouch.descriptor)
        registry.add(FrameCounter.descriptor(tally: tally))
        let selected = try registry.select(
            output: "frame-counter", input: "scripted-touch", arguments: ["--touch-at", "100,75"], environment: [:])
        #expect(selected.input.name == "scripted-touch" && selected.output.name == "frame-counter")

        let host = try LocalCompositor {
            $0.input = selected.input
            $0.output = selected.output
        }
        let events = Mutex<[DeviceEvent]>([])
        host.compositor.hooks.onInputEvent = { event in events.withLock { $0.append(event) } }
        #expect(host.compositor.outputMode.width == 640, "the output decides the mode")
        let client = try host.connect()
        // The scripted touch comes when the window maps.
        _ = client.window(size: (200, 150))
        // The first painted frames may precede the window's buffer: wait for one that shows it.
        let windowPixels = 200 * 150
        #expect(
            host.dispatch(until: {
                host.compositor.replayFinishedAll == true && tally.pixelsOfColour.withLock { $0 } == windowPixels
            }))

        let began = events.withLock { $0 }.compactMap { event -> DeviceContact? in
            if case .contactBegan(let contact) = event { contact } else { nil }
        }
        #expect(began.count == 1)
        #expect(began.first?.source == .touchscreen)
        let x = began.first?.position.x ?? 0
        #expect(abs(x - 100.0 / 640) < 1e-9, "the scripted point, normalised to the output")
        #expect(events.withLock { $0 }.contains { if case .contactEnded = $0 { true } else { false } })
        #expect(tally.frames.withLock { $0 } >= 1, "the counting output was given the painted frames")
        #expect(tally.pixelsOfColour.withLock { $0 } == windowPixels, "and read the client's window in them")
    }

    @Test("Options are parsed per backend: values, ranges, and only for the selected backend")
    func optionsBelongToTheirBackend() throws {
        let registry = BackendRegistry.standard
        let replay = try registry.select(
            output: nil, input: nil, arguments: ["--fast", "--replay", "a.yml", "b.yml", "--map-timeout=50"],
            environment: [:])
        #expect(replay.input.name == "replay" && replay.output.name == "headless")
        let window = try registry.select(
            output: nil, input: "libinput", arguments: [], environment: ["WAYLAND_DISPLAY": "w"])
        #expect(window.input.name == "libinput" && window.output.name == "wayland", "a window inside a session")
        #expect(try registry.select(output: nil, input: nil, arguments: [], environment: [:]).input.name == "none")

        func error(_ output: String?, _ input: String?, _ arguments: [String]) -> String {
            do {
                _ = try registry.select(output: output, input: input, arguments: arguments, environment: [:])
                return ""
            } catch {
                return error.description
            }
        }
        #expect(error(nil, nil, ["--fast"]) == "--fast only applies to the replay input (--replay)")
        #expect(error(nil, nil, ["--replay", "a", "--libinput"]) == "--replay and --libinput are exclusive")
        #expect(error(nil, "libinput", ["--replay", "a"]) == "--input libinput and --replay are exclusive")
        #expect(error("gl", nil, []) == "--backend must be headless or wayland, got gl")
        #expect(error(nil, "tablet", []) == "--input must be replay or libinput, got tablet")
        let range = "--map-timeout must be within 1...600000, got 0"
        #expect(error(nil, nil, ["--replay", "a", "--map-timeout", "0"]) == range)
        #expect(error(nil, nil, ["--replay"]) == "Missing value for '--replay <file> ...'")
        #expect(error(nil, nil, ["--fsat"]) == "Unknown option '--fsat'")
    }

    @Test("The man page and --help list every backend of the registry with its options")
    func manPageListsTheRegistry() throws {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let page = try String(contentsOfFile: checkout + "/docs/man/preview-compositor.1", encoding: .utf8)
        let help = try runClient([ReplayRunTests.binaries + "/preview-compositor", "--help"], socket: "").output
        let registry = BackendRegistry.standard
        for text in [page, help] {
            for backend in registry.inputs.map(\.name) + registry.outputs.map(\.name) {
                #expect(text.contains("\(backend):"), "\(backend) is not listed: run scripts/man")
            }
            for option in registry.inputs.flatMap(\.options) + registry.outputs.flatMap(\.options) {
                #expect(text.contains("--\(option.name)"), "--\(option.name) is not listed: run scripts/man")
            }
        }
    }
}
