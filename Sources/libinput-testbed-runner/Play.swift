import ArgumentParser
import Foundation
import LibinputRecording
import PreviewProtocolServer
import UmockdevHarness

/// For scripts (scripts/sway-headless): plays recordings of one device, one after the other, as
/// /dev/input/event0 of a testbed (with its udev entry on seat0) while `command` runs in it, as
/// a session's compositor would open a person's device. Prints the command's output, then exits
/// with its status after the runner's SIGINT at the end of the stream.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Plays recordings of one device to a command in a testbed (the command gets SIGINT at the end).")

    @Option(help: "Time the command gets to start before the first event, in ms.") var leadMs = 5000
    @Option(help: "Pause between one recording's last event and the next one's first, in ms (every host's replay gap).")
    var gapMs = Int(ReplayPacer.gapBetweenFiles / 1000)
    @Option(help: "Start the stream once this file exists (the command's client is ready), --lead-ms at the earliest.")
    var readyFile: String?
    @Option(help: "Write every force-feedback call the device got here (the testbed's PREVIEW_FF_LOG lines).")
    var ffLog: String?
    @Option(help: "Recordings (libinput record), played in order; all of the same device.")
    var recording: [String]
    @Argument(parsing: .postTerminator) var command: [String]

    func run() throws {
        guard !recording.isEmpty, !command.isEmpty else { throw RunnerError("play: --recording FILE... -- COMMAND") }
        var device = try TestbedDevice(recording: try Recording.open(recording[0]))
        for path in recording.dropFirst() {
            let next = try TestbedDevice(recording: try Recording.open(path))
            guard next.name == device.name, next.codes == device.codes else {
                throw RunnerError("\(path): device '\(next.name)', not '\(device.name)': one device per testbed")
            }
            let shift = device.duration + Int64(gapMs) * 1000 - (next.events.first?.time ?? 0)
            device.events += next.events.map {
                TestbedDevice.Event(time: $0.time + shift, type: $0.type, code: $0.code, value: $0.value)
            }
        }
        var options = LibinputTestbed.Options(leadMilliseconds: leadMs)
        options.readyFile = readyFile
        options.logsForceFeedback = ffLog != nil
        let live = try LibinputTestbed.runLive(
            device, command: command, options: options)
        if let ffLog { try Data(live.forceFeedback.utf8).write(to: URL(fileURLWithPath: ffLog)) }
        FileHandle.standardError.write(Data(live.log.utf8))
        print(live.output)
        Foundation.exit(live.status ?? 1)
    }
}
