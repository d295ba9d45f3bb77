import Glibc
import InputEvents
import LibinputRecording
import PreviewEngine

/// The reader works on files (it streams them): each input is written to one file in memory.
private let path = "/dev/shm/fuzz-recording-\(getpid()).yml"

/// One input: a recording's bytes, read strictly and leniently, decoded, and played through the
/// engine with a host that answers should-begin by interaction parity and fires every timer.
/// Errors are the expected outcome for most inputs; a trap, a leak or a hang is a finding.
func prepare() { _ = path }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return 0 }
    var written = 0
    while written < size {
        let count = write(fd, data + written, size - written)
        if count <= 0 { break }
        written += count
    }
    close(fd)
    for lenient in [false, true] {
        play(ReadOptions(lenient: lenient, onWarning: { _ in }))
    }
    return 0
}

private func play(_ options: ReadOptions) {
    guard var input = try? RecordingInput(path: path, options: options) else { return }
    var engine = InteractionEngine()
    var timer: Timestamp?
    var events: [DeviceEvent] = []
    var steps = 0

    func perform(_ actions: Actions?) {
        guard let actions else { return }
        for action in actions {
            switch action {
            case .scheduleTimer(let due): timer = due
            case .askShouldBegin(let update):
                perform(
                    engine.clientAnswered(
                        update.interaction, accept: update.interaction.rawValue % 2 == 1, at: update.time))
            case .phase: break
            }
        }
    }
    func runTimers(upTo time: Timestamp) {
        var rounds = 0
        while let due = timer, due <= time, rounds < 1_000 {
            rounds += 1
            timer = nil
            perform(engine.timerFired(at: due))
        }
    }

    var last = Timestamp(microseconds: 0)
    while steps < 100_000 {
        steps += 1
        events.removeAll(keepingCapacity: true)
        let more: Bool
        do { more = try input.next(into: &events) } catch { break }
        if !more { input.finish(at: last, into: &events) }
        for event in events {
            runTimers(upTo: event.time)
            last = max(last, event.time)
            let location = Point(x: Double(steps % 640), y: Double(steps % 480))
            perform(engine.apply(event, location: location, surface: SurfaceID(UInt64(steps % 3))))
        }
        if !more { break }
    }
    perform(engine.endAllContacts(at: last, reason: .system))
    runTimers(upTo: Timestamp(microseconds: .max))
}
