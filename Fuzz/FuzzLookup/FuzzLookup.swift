import FuzzInput
import PreviewEngine
import PreviewProtocolServer

// Each input is a script for Look Up's host-independent part, as every host drives it: presses
// and preview keys on the panel, elsewhere or on windows (with and without a declared preview
// area, Look Up available or not), force changes with absurd numbers, lifts and losses for any
// reason, Escape, time passing (the session's timer fired when it is due, and spuriously), the
// user's settings changing, windows and preview-lookup going away, Look Up turned off; and
// preview-lookup's side as bytes on its private channel: well-formed answers and dismissals
// (for questions asked, answered already, or never asked; extents and strings of any size)
// and raw bytes, in chunks of any size, through the same frame reader and decoder the library
// uses. The effects must make sense to a host (checked below); a trap or a broken promise
// is a finding.

typealias Script = FuzzBytes

extension FuzzBytes {
    static let forces: [Double] = [0, 0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1, 1.5, -1, .nan, .infinity, 1e308]
    mutating func force() -> Double { pick(Self.forces) }

    static let coordinates: [Double] = [0, 10, 120.5, -5, 4096, .nan, -.infinity, 1e300]
    mutating func point() -> Point { Point(x: pick(Self.coordinates), y: pick(Self.coordinates)) }

    static let int32s: [Int32] = [0, 1, 10, 100, -1, -100, 1 << 20, (1 << 20) + 1, .max, .min]
    mutating func int32() -> UInt32 { UInt32(bitPattern: pick(Self.int32s)) }
}

/// What a host would have on screen and in flight, rebuilt from the effects alone.
struct HostModel {
    var now = Timestamp(microseconds: 1_000_000)
    var timerDue: Timestamp?
    /// Every question asked, with its window (ids are never reused).
    var asked: [UInt32: SurfaceID] = [:]
    var lastAsked: UInt32 = 0
    var shown: (id: UInt32, surface: SurfaceID)?
    var panelShown = false
    /// An answer found while something else was shown: its dismissal comes next.
    var replacing: (id: UInt32, surface: SurfaceID)?

    mutating func check(_ effects: [LookupSession.Effect], _ session: LookupSession) {
        for effect in effects {
            if let replacing {
                if case .dismiss(let id) = effect, id == shown?.id {
                } else if shown != nil {
                    broken("a new answer shown without dismissing \(shown!.id): \(effect)")
                }
                shown = replacing
                panelShown = false
                self.replacing = nil
                if case .dismiss = effect { continue }
            }
            switch effect {
            case .scheduleTimer(let due):
                timerDue = due ?? now
            case .ask(let id, let surface, _, let caret):
                guard asked[id] == nil, id > lastAsked else { broken("question \(id) asked again") }
                // What the driver sends for it: one frame of a fixed size.
                let request: LookupChannel.Request =
                    caret
                    ? .lookUpCaret(id: id, pid: 1, x: .min, y: .max, geometryX: -1, geometryY: 0, deadline: .max)
                    : .lookUp(id: id, pid: .max, x: 0, y: -1, geometryX: .min, geometryY: .max, deadline: 0)
                let encoded = LookupChannel.encode(request)
                guard encoded.count == 36,
                    Array(encoded.prefix(12)) == bytes(of: 32) + bytes(of: caret ? 3 : 1) + bytes(of: id)
                else { broken("question \(id) framed as \(encoded)") }
                asked[id] = surface
                lastAsked = id
            case .answered(let answer, let outcome, let surface, _):
                guard asked[answer.id] == surface else { broken("answer \(answer.id) reported for \(surface)") }
                if outcome == .found {
                    guard answer.kind != .nothing else { broken("nothing found reported as found") }
                    if shown == nil {
                        shown = (answer.id, surface)
                        panelShown = false
                    } else {
                        replacing = (answer.id, surface)
                    }
                }
            case .highlight(let extents, let surface, let progress):
                guard let shown, shown.surface == surface, !panelShown, (0...1).contains(progress), !extents.isEmpty
                else { broken("highlight \(extents) on \(surface) at \(progress), shown \(String(describing: shown))") }
            case .showPanel(_, let surface):
                guard let shown, shown.surface == surface, !panelShown else { broken("panel shown twice or unasked") }
                panelShown = true
            case .growPanel(let progress):
                guard shown != nil, panelShown, (0...1).contains(progress) else { broken("panel grown to \(progress)") }
            case .completed(let id):
                guard id == shown?.id, panelShown else { broken("lookup \(id) completed, not shown") }
            case .cancelled(let id, _):
                // Only the lookup shown is cancelled, and its dismiss follows.
                guard id == shown?.id else { broken("lookup \(id) cancelled, not shown") }
            case .dismiss(let id):
                guard LookupChannel.encode(.hide(id: id)) == bytes(of: 8) + bytes(of: 2) + bytes(of: id) else {
                    broken("a hide frame for \(id) is wrong")
                }
                guard id == shown?.id else { broken("lookup \(id) dismissed, \(String(describing: shown?.id)) shown") }
                shown = nil
                panelShown = false
            }
        }
        if let replacing {
            guard shown == nil else { broken("a new answer shown without dismissing the old one") }
            shown = replacing
            panelShown = false
            self.replacing = nil
        }
        guard session.shownLookup == shown?.id else {
            broken("session shows \(String(describing: session.shownLookup)), effects say \(String(describing: shown))")
        }
    }
}

/// A broken promise of the session to its host: a finding.
func broken(_ what: String) -> Never { fatalError("FuzzLookup: \(what)") }

nonisolated(unsafe) var tracing = false

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLookup(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var script = Script(bytes: UnsafeBufferPointer(start: data, count: size))
    let deadline = Timestamp.Duration.milliseconds(script.pick([150, 0, 1, 60_000, .max]))
    var session = LookupSession(
        configuration: configuration(&script), deadline: deadline, longPress: script.byte() % 2 == 0)
    var model = HostModel()
    var effects: [LookupSession.Effect] = []
    var reader = LookupChannel.FrameReader()

    func key(_ script: inout Script) -> ContactKey {
        ContactKey(seat: UInt32(script.byte() % 2), device: DeviceID(UInt32(script.byte() % 3)), contact: 0)
    }
    func time(_ script: inout Script, _ model: HostModel) -> Timestamp {
        // Hosts pass their own times: mostly now, sometimes absurd.
        switch script.byte() % 8 {
        case 0: Timestamp(microseconds: script.pick([0, .max, .min, -1]))
        case 1: model.now + .milliseconds(-500)
        default: model.now
        }
    }
    func target(_ script: inout Script) -> LookupPressTarget {
        switch script.byte() % 6 {
        case 0: .panel
        case 1: .elsewhere
        case 2: .window(SurfaceID(UInt64(script.byte() % 3)), script.point(), declaresPreview: true)
        default: .window(SurfaceID(UInt64(script.byte() % 3)), script.point(), declaresPreview: false)
        }
    }
    func sample(_ script: inout Script, _ model: HostModel) -> ForceSample {
        ForceSample(
            time: time(&script, model), force: script.force(), location: script.point(),
            source: script.pick([.pen, .touchpad, .touchscreen, .pointer]), simulated: script.byte() % 4 == 0,
            contact: key(&script))
    }
    /// A question the session asked (most often the latest), or one it never asked.
    func id(_ script: inout Script, _ model: HostModel) -> UInt32 {
        let choice = script.byte()
        switch choice % 4 {
        case 0: return UInt32(choice / 4)
        case 1: return model.lastAsked &- UInt32(choice / 4 % 3)
        default: return model.lastAsked
        }
    }
    func input(_ change: (inout LookupSession, inout [LookupSession.Effect]) -> Void) {
        change(&session, &effects)
        if tracing { print(effects) }
        model.check(effects, session)
    }

    /// A frame of a given body, as preview-lookup writes it.
    func frame(_ body: [UInt8]) -> [UInt8] { bytes(of: UInt32(body.count)) + body }

    func feed(frame body: [UInt8], in script: inout Script) {
        let whole = frame(body)
        var start = 0
        while start < whole.count {
            let end = min(whole.count, start + script.pick([whole.count, 1, 3, 4, 7, 64]))
            feed(raw: Array(whole[start..<end]))
            start = end
        }
    }

    func feed(raw: [UInt8]) {
        raw.withUnsafeBytes { reader.append($0) }
        while let body = reader.next() {
            switch LookupChannel.decode(body) {
            case .answer(let answer):
                if let extents = answer.extents {
                    guard !extents.isEmpty, abs(Int64(extents.x)) <= 1 << 20, abs(Int64(extents.y)) <= 1 << 20,
                        extents.width <= 1 << 20, extents.height <= 1 << 20
                    else { broken("extents \(extents) not bounded") }
                }
                let at = model.now
                input { $0.answered(answer, at: at, into: &$1) }
            case .dismiss(let id): input { $0.processDismissed(id, into: &$1) }
            case nil: break
            }
        }
        // An oversized frame: the library ends preview-lookup, which is then gone.
        if reader.overrun {
            reader = LookupChannel.FrameReader()
            input { $0.processGone(into: &$1) }
        }
    }

    /// An answer's body; its fields from the script (kinds, extents and strings of any size).
    func answerFrame(_ script: inout Script, id: UInt32) -> [UInt8] {
        var body = bytes(of: 101) + bytes(of: id) + bytes(of: UInt32(script.byte() % 4))
        for _ in 0..<4 { body += bytes(of: script.int32()) }
        body += bytes(of: UInt32(script.byte()))
        for _ in 0..<4 {
            let length = script.pick([0, 5, 0, 1024, 1025, 65535])
            body += [UInt8(length & 0xff), UInt8(length >> 8)]
            let fill = script.byte()
            body += [UInt8](repeating: fill, count: min(length, 2000))
        }
        // A truncated body now and then.
        if script.byte() % 16 == 0 { body.removeLast(Int(script.byte()) % body.count) }
        return body
    }

    var steps = 0
    while !script.atEnd && steps < 512 {
        steps += 1
        let op = script.byte()
        if tracing { print("op \(op % 20)") }
        switch op % 20 {
        case 0, 1:
            let pressed = sample(&script, model)
            let on = target(&script)
            let hasForce = script.byte() % 3 != 0
            let available = script.byte() % 5 != 0
            input { $0.contactBegan(pressed, hasForce: hasForce, on: on, available: available, into: &$1) }
            if on == .panel, !effects.isEmpty { broken("a press on the panel changed something") }
            var looksUp = false
            if case .window(_, _, false) = on { looksUp = available && (hasForce || session.longPress) }
            if !looksUp, effects.contains(where: { if case .dismiss = $0 { false } else { true } }) {
                broken("a press that looks nothing up had effects \(effects)")
            }
        case 2, 3, 4:
            let moved = sample(&script, model)
            input { $0.contactMoved(moved, into: &$1) }
        case 5:
            let ended = key(&script)
            let reason = script.pick(CancelReason.allCases)
            let at = time(&script, model)
            input { $0.contactEnded(ended, at: at, reason: reason, into: &$1) }
            if session.follows(ended) { broken("a lookup still follows an ended contact") }
        case 6:
            var pressed = key(&script)
            pressed.device = DeviceID(100)
            let on = target(&script)
            let available = script.byte() % 5 != 0
            let at = time(&script, model)
            input { $0.keyPressed(pressed, on: on, available: available, at: at, into: &$1) }
        case 7:
            var released = key(&script)
            released.device = DeviceID(100)
            let at = time(&script, model)
            input { $0.keyReleased(released, at: at, into: &$1) }
            if session.follows(released) { broken("a lookup still follows a released key") }
        case 8:
            let seat = UInt32(script.byte() % 2)
            let at = time(&script, model)
            input { $0.escapePressed(seat: seat, at: at, into: &$1) }
        case 9, 10:
            // Time passes on the host's clock; the session's timer fires when it is due.
            model.now = model.now + .milliseconds(script.pick([1, 16, 100, 151, 500, 1_000, 60_001, 1 << 40]))
            if let due = model.timerDue, due <= model.now {
                model.timerDue = nil
                let now = model.now
                input { $0.timerFired(at: now, into: &$1) }
            }
        case 11:
            let at = time(&script, model)
            input { $0.timerFired(at: at, into: &$1) }
        case 12, 13:
            // preview-lookup answers, through the channel's encoding (a frame split anywhere).
            feed(frame: answerFrame(&script, id: id(&script, model)), in: &script)
        case 14:
            let failed = id(&script, model)
            let at = time(&script, model)
            input { $0.askFailed(failed, at: at, into: &$1) }
        case 15:
            feed(frame: [103, 0, 0, 0] + bytes(of: id(&script, model)), in: &script)
        case 16:
            // Raw bytes from a broken or hostile preview-lookup.
            var raw: [UInt8] = []
            for _ in 0..<(script.byte() % 32) { raw.append(script.byte()) }
            feed(raw: raw)
        case 17:
            switch script.byte() % 4 {
            case 0: input { $0.dismiss(into: &$1) }
            case 1:
                input { $0.processGone(into: &$1) }
                reader = LookupChannel.FrameReader()
                if session.awaitingAnswerCount != 0 { broken("questions outlived preview-lookup") }
            case 2:
                let gone = SurfaceID(UInt64(script.byte() % 3))
                let at = time(&script, model)
                input { $0.surfaceDestroyed(gone, at: at, into: &$1) }
            default:
                let at = time(&script, model)
                input { $0.endAll(at: at, into: &$1) }
                if session.awaitingAnswerCount != 0 || session.shownLookup != nil { broken("endAll left something") }
            }
        case 18:
            let changed = configuration(&script)
            session.configure(changed, longPress: script.byte() % 2 == 0)
            if session.deadline != deadline { broken("the deadline changed with the settings") }
        default:
            if let shown = session.shownLookup { _ = session.phase(of: shown) }
            _ = session.nextDeadline
        }
    }

    while session.nextDeadline != nil && steps < 1024 {
        steps += 1
        let at = max(model.now, session.nextDeadline!)
        model.now = at
        input { $0.timerFired(at: at, into: &$1) }
    }
    return 0
}

func configuration(_ script: inout Script) -> EngineConfiguration {
    EngineConfiguration(
        sensitivity: script.pick(Sensitivity.allCases), longPress: script.pick(LongPressDuration.allCases),
        shouldBeginTimeout: .milliseconds(script.pick([150, 0, 5_000])),
        completion: script.byte() % 2 == 0 ? .onForce : .onRelease)
}

func bytes(of value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
