import EvdevDecoder
import LibinputRecording
import PreviewEngine
import ReplayTool
import WaylandServer

/// Plays `--replay` recordings, one file after the other, through the decoder into the
/// `InteractionHost` on the event loop's timer.
///
/// Timing: each event is re-timed onto CLOCK_MONOTONIC (recording time + offset) and fed when
/// that time comes, so engine timers and client answers share one clock. `--fast` skips the
/// idle gaps: whenever no contact is down and no engine timer is pending, the next event is
/// due at once; inside a gesture the recording's own timing is kept, so long presses and force
/// ramps behave exactly as recorded.
///
/// Start rule: input starts when the first toplevel is mapped (so the first contact has a
/// surface to hit), or after `mapTimeout` if no client maps one.
final class ReplayDriver {
    unowned let compositor: Compositor
    private var paths: [String]
    private var input: RecordingInput?
    private var batch: [DeviceEvent] = []
    private var index = 0
    private var offset: Int64?
    private var timer: EventSource?
    private var startTimer: EventSource?
    private(set) var started = false
    private(set) var finished = false
    var onFinished: (() -> Void)?
    let mapTimeoutMilliseconds: Int32 = 10_000

    init(compositor: Compositor, paths: [String]) {
        self.compositor = compositor
        self.paths = paths
    }

    /// Arms the fallback start; `surfaceMapped()` starts earlier.
    func arm(on loop: EventLoop) {
        timer = loop.addTimer { [unowned self] in pump() }
        startTimer = loop.addTimer { [unowned self] in
            guard !started else { return }
            compositor.logger.warning("no client mapped a window within \(mapTimeoutMilliseconds) ms: replaying anyway")
            begin()
        }
        startTimer?.arm(milliseconds: mapTimeoutMilliseconds)
    }

    func surfaceMapped() {
        guard !started else { return }
        compositor.logger.info("a window is mapped: starting the replay")
        begin()
    }

    func stop() {
        timer?.remove()
        startTimer?.remove()
    }

    private func begin() {
        started = true
        startTimer?.remove()
        timer?.arm(milliseconds: 1)
    }

    private func nextEvent() -> DeviceEvent? {
        while true {
            if index < batch.count {
                defer { index += 1 }
                return batch[index]
            }
            batch.removeAll(keepingCapacity: true)
            index = 0
            if input == nil {
                guard !paths.isEmpty else { return nil }
                let path = paths.removeFirst()
                do {
                    input = try RecordingInput(path: path)
                    offset = nil
                    for device in input!.devices { compositor.interaction.name(device.id, device.name) }
                    compositor.logger.info("replaying \(path)")
                } catch {
                    compositor.logger.error("\(path): \(error)")
                    continue
                }
            }
            do {
                if try input!.next(into: &batch) == false {
                    input!.finish(at: lastTime, into: &batch)
                    input = nil
                    if batch.isEmpty { continue }
                }
            } catch {
                compositor.logger.error("recording: \(error)")
                input!.finish(at: lastTime, into: &batch)
                input = nil
            }
        }
    }

    private var lastTime = Timestamp(microseconds: 0)
    private var held: DeviceEvent?

    private func pump() {
        let host = compositor.interaction!
        while true {
            guard let event = held ?? nextEvent() else {
                finish()
                return
            }
            held = nil
            let now = MonotonicClock.microseconds()
            let recorded = event.time.microseconds
            if offset == nil { offset = now - recorded }
            if compositor.configuration.fast && host.contactsDown == 0 && !host.timerPending {
                // Skip idle time: this event is due now.
                offset = min(offset!, now - recorded)
            }
            let due = recorded + offset!
            if due > now + 500 {
                held = event
                timer?.arm(milliseconds: Int32(clamping: max(1, (due - now) / 1000)))
                return
            }
            lastTime = event.time
            host.handle(retimed(event, by: offset!))
        }
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        compositor.logger.info("replay finished")
        onFinished?()
    }

    private func retimed(_ event: DeviceEvent, by offset: Int64) -> DeviceEvent {
        func shift(_ t: Timestamp) -> Timestamp { Timestamp(microseconds: t.microseconds + offset) }
        switch event {
        case .contactBegan(var c):
            c.time = shift(c.time)
            return .contactBegan(c)
        case .contactChanged(var c):
            c.time = shift(c.time)
            return .contactChanged(c)
        case .contactEnded(let key, let time, let reason): return .contactEnded(key, time: shift(time), reason: reason)
        case .toolProximity(var s, let inProximity):
            s.time = shift(s.time)
            return .toolProximity(s, inProximity: inProximity)
        case .toolMotion(var s):
            s.time = shift(s.time)
            return .toolMotion(s)
        case .pointerMotion(var m):
            m.time = shift(m.time)
            return .pointerMotion(m)
        case .scroll(var s):
            s.time = shift(s.time)
            return .scroll(s)
        case .button(var k):
            k.time = shift(k.time)
            return .button(k)
        case .key(var k):
            k.time = shift(k.time)
            return .key(k)
        case .frame(let t): return .frame(shift(t))
        }
    }
}
