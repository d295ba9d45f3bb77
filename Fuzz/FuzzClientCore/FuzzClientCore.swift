import PreviewClientCore

/// One input: the bytes as a compositor's events (any order, any interaction, any progress,
/// any reason) interleaved with the app's answers, cancels and takes, on one InteractionCore.
/// The calls the app gets must keep UIKit's contract per press whatever arrives; a trap, a
/// broken contract (reported with fatalError), a leak or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientCore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = UnsafeBufferPointer(start: data, count: size).makeIterator()
    var core = InteractionCore()
    var contract = Contract()
    var serial: UInt32 = 0
    func next() -> UInt8? { bytes.next() }
    while let op = next() {
        let id = UInt32(next() ?? 0) % 40
        let value = next() ?? 0
        // Progress from -0.5 to 1.5 in steps of 1/128 (out of range on purpose).
        let progress = (Double(value) - 64) / 128
        var output = CoreOutput()
        switch op % 18 {
        case 0: output = core.read(.shouldBegin(interaction: id, source: UInt32(value % 6), force: UInt32(value % 4)))
        case 1: output = core.read(.location(interaction: id, x: progress * 100, y: -progress))
        case 2: output = core.read(.preview(interaction: id, progress: progress))
        case 3: output = core.read(.previewEnded(interaction: id))
        case 4: output = core.read(.commit(interaction: id, progress: progress))
        case 5: output = core.read(.completed(interaction: id))
        case 6: output = core.read(.cancelled(interaction: id, reason: UInt32(value % 12)))
        case 7, 8:
            serial = value == 0 ? serial : serial &+ 1
            output = core.read(.frame(interaction: id, serial: serial, time: UInt64(value)))
        case 9:
            if let answer = try? core.answer(id, accept: value & 1 == 0) {
                output = answer
                if value & 1 != 0 { contract.declined(id) }
            }
        case 10:
            if let (cancelled, call) = try? core.cancel(id) {
                output = cancelled
                if let call { contract.check(call) }
                contract.ended(id)
            }
        case 11: output = core.connectionLost()
        // Version 2: behaviours (also ones no press can have), stages out of range, haptics.
        case 12:
            output = core.read(.behaviour(interaction: id, behaviour: UInt32(value % 4), stages: UInt32(value % 7)))
        case 13: output = core.read(.stage(interaction: id, stage: UInt32(value % 7)))
        case 14: output = core.read(.haptics(interaction: id, state: UInt32(value % 3)))
        case 15:
            if let request = try? core.playHaptic(id, effect: .tick) {
                guard contract.isRunning(id) else { fatalError("a haptic effect for \(id), which is not running") }
                output = request
            }
        default:
            while let call = core.nextCall() { contract.check(call) }
        }
        _ = output.message?.description
        if core.runningCount > InteractionCore.maximumRunning { fatalError("more than the maximum running") }
    }
    while let call = core.nextCall() { contract.check(call) }
    return 0
}

/// UIKit's order per press, as the app sees it.
struct Contract {
    enum Seen { case asked, preview, commit, stages, ended }
    private var presses: [UInt32: Seen] = [:]

    mutating func declined(_ id: UInt32) { presses[id] = .ended }
    mutating func ended(_ id: UInt32) { presses[id] = .ended }

    /// Asked about (and maybe answered) and not ended, as far as the app saw.
    func isRunning(_ id: UInt32) -> Bool { presses[id] != .ended }

    mutating func check(_ entry: CoreCall) {
        let id = entry.press.id
        let seen = presses[id]
        switch entry.call {
        case .shouldBegin:
            guard seen == nil else { fatalError("should-begin twice for \(id)") }
            presses[id] = .asked
        case .preview(let progress, let ended):
            guard seen == .asked || seen == .preview, (0...1).contains(progress) else {
                fatalError("preview \(progress) after \(String(describing: seen)) for \(id)")
            }
            presses[id] = ended ? .commit : .preview
        case .commit(let progress, let ended):
            guard seen == .commit, (0...1).contains(progress) else {
                fatalError("commit \(progress) after \(String(describing: seen)) for \(id)")
            }
            if ended { presses[id] = .ended }
        case .acceleratorEnded:
            // An accelerator's press lifted, after its stages or before the first.
            guard seen == .stages || seen == .asked else {
                fatalError("accelerator ended after \(String(describing: seen)) for \(id)")
            }
            presses[id] = .ended
        case .stage(let level):
            guard seen == .asked || seen == .stages, level >= 1, entry.press.stage == level else {
                fatalError("stage \(level) after \(String(describing: seen)) for \(id)")
            }
            presses[id] = .stages
        case .haptics:
            guard seen != nil, seen != .ended else { fatalError("haptics after \(String(describing: seen)) for \(id)") }
        case .cancel(let reason):
            guard seen != nil, seen != .ended, reason != .declined else {
                fatalError("cancel \(reason) after \(String(describing: seen)) for \(id)")
            }
            presses[id] = .ended
        }
    }
}
