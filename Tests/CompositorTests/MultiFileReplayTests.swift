import Foundation
import InputEvents
import PreviewCompositor
import PreviewEngine
import Synchronization
import Testing

/// `--replay A B C`: every file numbers its devices from 0, the compositor gives each file's
/// devices their own numbers, and with `--fast` consecutive files stay 500 ms apart so their
/// gestures never run into each other.
@Suite(.serialized) struct MultiFileReplayTests {
    final class Events: Sendable {
        let all = Mutex<[DeviceEvent]>([])
    }

    @Test func filesGetTheirOwnDevicesAndStayHalfASecondApartWithFast() throws {
        let recordings = ReplayRunTests.recordings
        // The same pen twice around another pen: all three are device 0 in their files.
        let files = ["wacom-cintiq13hd-pen.yml", "dell-canvas-isdv4-pen.yml", "wacom-cintiq13hd-pen.yml"]
        let compositor = try startCompositor { $0.input = .replay(files.map { recordings + "/" + $0 }, fast: true) }
        defer { compositor.stop() }
        let events = Events()
        compositor.sync { $0.hooks.onInputEvent = { event in events.all.withLock { $0.append(event) } } }
        // The replay starts when a window is mapped.
        let client = try startClient(["weston-simple-shm"], socket: compositor.socketName)
        defer { _ = client.terminate() }
        #expect(compositor.wait(timeout: 60) { $0.replayFinishedAll == true })
        let replayed = events.all.withLock { $0 }.filter { $0.device != nil }

        // Devices: 0, 1, 2 in file order, each file's events together.
        var runs: [(device: UInt32, first: Int, last: Int)] = []
        for (index, event) in replayed.enumerated() {
            let device = event.device!.rawValue
            if runs.last?.device == device {
                runs[runs.count - 1].last = index
            } else {
                runs.append((device, index, index))
            }
        }
        #expect(runs.map(\.device) == [0, 1, 2], "\(runs.map(\.device))")
        // Between files: every contact of the earlier file has ended, and at least 500 ms pass.
        for (earlier, later) in zip(runs, runs.dropFirst()) {
            let gap = replayed[later.first].time - replayed[earlier.last].time
            #expect(gap.microseconds >= 500_000, "gap before device \(later.device): \(gap.microseconds) µs")
            #expect(
                contactsDown(replayed[...earlier.last]).isEmpty, "file of device \(earlier.device) leaves nothing down")
        }
        // Each file has its own pen presses (the Cintiq file twice: the same number of contacts).
        let began = runs.map { run in
            replayed[run.first...run.last].filter { if case .contactBegan = $0 { true } else { false } }.count
        }
        #expect(began[0] > 0 && began[1] > 0 && began[0] == began[2], "\(began)")
    }

    private func contactsDown(_ events: ArraySlice<DeviceEvent>) -> Set<ContactKey> {
        var down: Set<ContactKey> = []
        for event in events {
            switch event {
            case .contactBegan(let contact): down.insert(contact.key)
            case .contactEnded(let key, _, _): down.remove(key)
            case .contactChanged, .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key, .frame: break
            }
        }
        return down
    }
}

extension DeviceEvent {
    /// The device of every event but a frame end.
    var device: DeviceID? {
        switch self {
        case .contactBegan(let contact), .contactChanged(let contact): contact.key.device
        case .contactEnded(let key, _, _): key.device
        case .toolProximity(let state, _), .toolMotion(let state): state.device
        case .pointerMotion(let motion): motion.device
        case .scroll(let scroll): scroll.device
        case .button(let key), .key(let key): key.device
        case .frame: nil
        }
    }
}
