import InputEvents
import LibinputRecording
import PreviewEngine
import PreviewProtocolServer
import PreviewTrace
import ReplayTool
import WaylandServer
import _PreviewProtocolTestSupport

/// A recording driving the real engine behind the real protocol server, with real libwayland
/// clients on the other end of a socket: the compositor's input path without its pixels.
/// Surfaces sit side by side on a virtual 1920×1080 output; a contact begins on the surface
/// under it (surface-local coordinates), as the compositor's hit-test does.
final class WireHost {
    struct Placement {
        var surface: SurfaceID
        var client: String
        var x: Double
        var width: Double
    }

    static let output = (width: 1920.0, height: 1080.0)
    var engine = InteractionEngine()
    let harness: ProtocolHarness
    let placements: [Placement]
    /// Every engine output, as the compositor's `--trace` writes it (should-begin included).
    private(set) var trace: [TraceRecord] = []
    private var now = Timestamp(microseconds: 0)
    private var timer: Timestamp?
    private var names: [DeviceID: String] = [:]
    private var bound: [ContactKey: Placement] = [:]
    /// Called after every input frame: the clients read, answer, acknowledge.
    var pump: () -> Void = {}

    init(harness: ProtocolHarness, placements: [Placement]) {
        self.harness = harness
        self.placements = placements
        harness.react = { [unowned self] input in
            switch input {
            case .answered(let id, let accept, _):
                self.collect(self.engine.clientAnswered(id, accept: accept, at: self.now))
            case .cancelled(let id, _): self.collect(self.engine.clientCancelled(id, at: self.now))
            case .surfaceDestroyed(let surface, _): self.collect(self.engine.surfaceDestroyed(surface, at: self.now))
            }
        }
    }

    /// Traces the actions and keeps the timer; returns what the server must perform.
    private func collect(_ actions: Actions) -> [Action] {
        var forServer: [Action] = []
        for action in actions {
            if case .scheduleTimer(let time) = action {
                timer = time
                continue
            }
            forServer.append(action)
            let update: PhaseUpdate
            switch action {
            case .askShouldBegin(let value), .phase(_, let value):
                update = value
            case .scheduleTimer: continue
            }
            let placement = placements.first { $0.surface == update.surface }
            if let record = TraceRecord(
                action, device: names[update.contact.device] ?? "?", surface: update.surface, client: placement?.client)
            {
                trace.append(record)
            }
        }
        return forServer
    }

    private func perform(_ actions: Actions?) {
        guard let actions else { return }
        for action in collect(actions) { harness.server.perform(action) }
    }

    private func advance(to time: Timestamp) {
        while let due = timer, due <= time {
            timer = nil
            now = due
            perform(engine.timerFired(at: due))
            pump()
        }
        now = max(now, time)
    }

    /// Plays a whole recording (decoded), pumping the clients after every frame.
    func play(_ path: String) throws {
        var input = try RecordingInput(path: path)
        for device in input.devices { names[device.id] = device.name }
        var events: [DeviceEvent] = []
        var last = Timestamp(microseconds: 0)
        while try input.next(into: &events) {
            for event in events {
                last = max(last, event.time)
                handle(event)
            }
            events.removeAll(keepingCapacity: true)
            pump()
        }
        advance(to: last)
        input.finish(at: last, into: &events)
        for event in events { handle(event) }
        pump()
        var rounds = 0
        while let due = timer, rounds < 1_000 {
            rounds += 1
            advance(to: due)
        }
        pump()
    }

    private func handle(_ event: DeviceEvent) {
        advance(to: event.time)
        switch event {
        case .contactBegan(let contact):
            let point = Point(x: contact.position.x * Self.output.width, y: contact.position.y * Self.output.height)
            let placement = placements.first { point.x >= $0.x && point.x < $0.x + $0.width }
            var surface: SurfaceID?
            if let placement {
                bound[contact.key] = placement
                let local = Point(x: point.x - placement.x, y: point.y)
                if harness.server.allowsInteraction(on: placement.surface, at: local, source: contact.source) {
                    surface = placement.surface
                }
            }
            perform(engine.apply(event, location: local(contact), surface: surface))
        case .contactChanged(let contact):
            perform(engine.apply(event, location: local(contact), surface: nil))
        case .contactEnded(let key, _, _):
            perform(engine.apply(event, location: .zero, surface: nil))
            bound[key] = nil
        case .toolProximity, .toolMotion, .pointerMotion, .scroll, .button, .key, .frame:
            break
        }
    }

    /// Surface-local position of a contact on the surface it began on.
    private func local(_ contact: DeviceContact) -> Point {
        let x = contact.position.x * Self.output.width - (bound[contact.key]?.x ?? 0)
        return Point(x: x, y: contact.position.y * Self.output.height)
    }
}

/// What a client saw, as phases: the wire's events without frames and locations, interactions
/// numbered in the order they began (wire numbers are the server's own).
enum PhaseStep: Equatable, CustomStringConvertible {
    case shouldBegin(Int)
    case preview(Int, Double)
    case previewEnded(Int)
    case commit(Int, Double)
    case completed(Int)
    case cancelled(Int, UInt32)

    var description: String {
        switch self {
        case .shouldBegin(let i): "should_begin #\(i)"
        case .preview(let i, let p): "preview #\(i) \(p)"
        case .previewEnded(let i): "preview_ended #\(i)"
        case .commit(let i, let p): "commit #\(i) \(p)"
        case .completed(let i): "completed #\(i)"
        case .cancelled(let i, let r): "cancelled #\(i) reason \(r)"
        }
    }

    var isProgress: Bool {
        switch self {
        case .preview, .commit: true
        case .shouldBegin, .previewEnded, .completed, .cancelled: false
        }
    }

    /// The same step, within wl_fixed's precision (1/256) for progress.
    func matches(_ other: PhaseStep) -> Bool {
        switch (self, other) {
        case (.preview(let a, let p), .preview(let b, let q)), (.commit(let a, let p), .commit(let b, let q)):
            a == b && abs(p - q) <= 1.0 / 256
        default: self == other
        }
    }

    /// The client's events as steps.
    static func steps(of events: [Event]) -> [PhaseStep] {
        var numbers: [UInt32: Int] = [:]
        func number(_ wire: UInt32) -> Int {
            if let known = numbers[wire] { return known }
            numbers[wire] = numbers.count + 1
            return numbers.count
        }
        return events.compactMap { event in
            switch event {
            case .shouldBegin(let id, _, _): .shouldBegin(number(id))
            case .preview(let id, let p): .preview(number(id), p)
            case .previewEnded(let id): .previewEnded(number(id))
            case .commit(let id, let p): .commit(number(id), p)
            case .completed(let id): .completed(number(id))
            case .cancelled(let id, let reason): .cancelled(number(id), reason)
            case .location, .frame, .behaviour, .stage, .haptics: nil
            }
        }
    }

    /// What the protocol promises a client for a trace of the engine: should_begin, the progress,
    /// preview_ended when the preview phase ends, completed or cancelled.
    static func steps(of records: [TraceRecord]) -> [PhaseStep] {
        var numbers: [InteractionID: Int] = [:]
        func number(_ id: InteractionID) -> Int {
            if let known = numbers[id] { return known }
            numbers[id] = numbers.count + 1
            return numbers.count
        }
        return records.compactMap { record in
            let id = number(record.interaction)
            switch record.phase {
            case nil: return .shouldBegin(id)
            case .previewBegan?, .previewProgress?: return .preview(id, record.progress)
            case .previewEnded?: return .previewEnded(id)
            case .commitProgress?: return .commit(id, record.progress)
            case .completed?: return .completed(id)
            case .cancelled(let reason)?: return .cancelled(id, UInt32(reason.rawValue))
            case .stage?: return nil  // accelerators are version 2's; these runs speak version 1
            }
        }
    }

    /// Whether `received` is what the engine sent: the same phase steps in the same order, and
    /// progress values that the engine produced, in order (the server may coalesce progress for
    /// a client that has not acknowledged a frame yet, never invent or reorder it).
    static func received(_ received: [PhaseStep], matches sent: [PhaseStep]) -> Bool {
        guard received.filter({ !$0.isProgress }) == sent.filter({ !$0.isProgress }) else { return false }
        var index = sent.startIndex
        for step in received {
            guard let found = sent[index...].firstIndex(where: { step.matches($0) }) else { return false }
            // No phase step may be skipped to find a progress value.
            if sent[index..<found].contains(where: { !$0.isProgress }) { return false }
            index = found + 1
        }
        return true
    }
}
