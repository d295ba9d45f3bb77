/// One press the compositor reported on the surface (one finger, pen or button): what the
/// delegate's calls are about. `PreviewInteraction.currentPress` is the press of the call in
/// progress, so a delegate tells simultaneous presses apart by `id`.
public struct PreviewPress: Sendable, Hashable, Identifiable {
    public enum Phase: Sendable, Hashable {
        /// should-begin was asked; the app has not seen progress yet.
        case asking
        case preview
        case commit
        case completed
        case cancelled(PreviewCancelReason)
    }

    /// Unique on the interaction (the protocol's interaction number, from 1).
    public let id: UInt32
    /// The device, or `nil` for a value this library does not know (a newer compositor).
    public let source: PreviewSource?
    /// Measured or simulated (long press) force; `nil` if unknown.
    public let force: PreviewForce?
    /// Where the contact is, surface-local.
    public internal(set) var location: PreviewPoint
    public internal(set) var phase: Phase
    /// The progress of the current phase, 0...1.
    public internal(set) var progress: Double
    /// The timestamp of the latest hardware event about the press, µs (the clock of core
    /// input event times: divided by 1000 and truncated to 32 bits it is their `time`).
    public internal(set) var timestamp: UInt64

    /// True once completed or cancelled.
    public var hasEnded: Bool {
        switch phase {
        case .asking, .preview, .commit: false
        case .completed, .cancelled: true
        }
    }

    /// The cancel reason, once cancelled.
    public var cancelReason: PreviewCancelReason? {
        if case .cancelled(let reason) = phase { return reason }
        return nil
    }
}

/// A delegate call that a press's events make.
enum DelegateCall: Sendable, Equatable {
    case shouldBegin
    case preview(Double, ended: Bool)
    case commit(Double, ended: Bool)
    case cancel(PreviewCancelReason)
}

/// At most five calls per group (should-begin, preview, preview ended, commit, completed):
/// inline, no allocation.
struct DelegateCalls: Sendable, Equatable, Sequence {
    private var calls: (DelegateCall?, DelegateCall?, DelegateCall?, DelegateCall?, DelegateCall?) = (
        nil, nil, nil, nil, nil
    )
    private(set) var count = 0

    mutating func append(_ call: DelegateCall) {
        switch count {
        case 0: calls.0 = call
        case 1: calls.1 = call
        case 2: calls.2 = call
        case 3: calls.3 = call
        case 4: calls.4 = call
        default: return  // a group never makes more (see PressMachine)
        }
        count += 1
    }

    subscript(index: Int) -> DelegateCall? {
        switch index {
        case 0: calls.0
        case 1: calls.1
        case 2: calls.2
        case 3: calls.3
        case 4: calls.4
        default: nil
        }
    }

    static func == (a: DelegateCalls, b: DelegateCalls) -> Bool { Array(a) == Array(b) }

    func makeIterator() -> AnyIterator<DelegateCall> {
        var index = 0
        return AnyIterator {
            defer { index += 1 }
            return index < count ? self[index] : nil
        }
    }
}

/// The app's view of one press, as the seeds define UIPreviewInteraction's calls: preview
/// progress repeatedly, `ended` true once (then no preview call), commit progress, `ended`
/// true on the commit means completed; a cancel at any point before completion; nothing after
/// the end. Pure: one `mutating func` per input, returning the calls to make. Whatever order
/// the wire brings, the calls keep this contract (a missing preview_ended is supplied, late
/// or repeated events are dropped).
struct PressMachine: Sendable {
    enum State: Sendable, Equatable {
        /// should-begin delivered (or about to be); no progress yet.
        case asking
        case preview
        case commit
        /// cancelInteraction() reported the cancel already; the wire's end is awaited silently.
        case cancelledLocally
        /// Completed or cancelled: nothing more is reported.
        case ended
    }

    private(set) var state = State.asking
    private(set) var press: PreviewPress

    init(id: UInt32, source: UInt32, force: UInt32, location: PreviewPoint, time: UInt64) {
        press = PreviewPress(
            id: id, source: PreviewSource(rawValue: source), force: PreviewForce(rawValue: force), location: location,
            phase: .asking, progress: 0, timestamp: time)
    }

    /// True once the wire's end arrived (the machine can be forgotten).
    var isFinished: Bool { state == .ended }

    /// The events of one (possibly merged) frame group.
    mutating func apply(_ group: WireGroup) -> DelegateCalls {
        var calls = DelegateCalls()
        if let location = group.location { press.location = location }
        press.timestamp = group.time
        switch state {
        case .cancelledLocally, .ended:
            if group.isTerminal { state = .ended }
            return calls
        case .asking, .preview, .commit:
            break
        }
        if group.shouldBegin != nil && state == .asking {
            // Already over before the app heard of it (a timeout while it was busy): no calls.
            guard !group.isTerminal else {
                state = .ended
                press.phase = group.completed ? .completed : .cancelled(PreviewCancelReason(wire: group.cancelled ?? 0))
                return calls
            }
            calls.append(.shouldBegin)
        }
        if let progress = group.preview, state == .asking || state == .preview {
            state = .preview
            press.phase = .preview
            press.progress = Self.clamp(progress)
            calls.append(.preview(press.progress, ended: false))
        }
        if group.previewEnded || group.commit != nil || group.completed {
            endPreviewIfNeeded(&calls)
        }
        if let progress = group.commit, state == .commit, !group.completed {
            press.progress = Self.clamp(progress)
            calls.append(.commit(press.progress, ended: false))
        } else if group.location != nil && group.preview == nil && !group.previewEnded && !group.isTerminal {
            // The contact moved at the same progress: the app hit-tests again (quick actions).
            switch state {
            case .preview: calls.append(.preview(press.progress, ended: false))
            case .commit: calls.append(.commit(press.progress, ended: false))
            case .asking, .cancelledLocally, .ended: break
            }
        }
        if group.completed {
            state = .ended
            press.phase = .completed
            press.progress = 1
            calls.append(.commit(1, ended: true))
        } else if let wire = group.cancelled {
            let reason = PreviewCancelReason(wire: wire)
            state = .ended
            press.phase = .cancelled(reason)
            // The app said no itself: like UIKit, no cancel call for a press that never began.
            if reason != .declined { calls.append(.cancel(reason)) }
        }
        return calls
    }

    /// cancelInteraction(): the cancel is reported now, whatever the wire says later.
    mutating func cancelLocally() -> DelegateCalls {
        var calls = DelegateCalls()
        switch state {
        case .asking, .preview, .commit:
            state = .cancelledLocally
            press.phase = .cancelled(.clientCancelled)
            calls.append(.cancel(.clientCancelled))
        case .cancelledLocally, .ended:
            break
        }
        return calls
    }

    /// Progress from the wire, kept to 0...1 (a wl_fixed_t can say anything).
    static func clamp(_ value: Double) -> Double { value.isFinite ? min(max(value, 0), 1) : 0 }

    private mutating func endPreviewIfNeeded(_ calls: inout DelegateCalls) {
        guard state == .asking || state == .preview else { return }
        state = .commit
        press.phase = .commit
        press.progress = 0
        calls.append(.preview(1, ended: true))
    }
}
