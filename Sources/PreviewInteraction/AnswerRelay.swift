import CWaylandClient
import PreviewClientWire
import Synchronization

/// Sends the answers a delegate gives through `PreviewAnswer`, from any thread, at once (an
/// app that looks something up on a worker answers from there, and the compositor hears it
/// without waiting for the app's thread), and hands them to the interaction's core, which
/// learns them on the app's thread before its next event (`ForeignAnswers`). Every answer goes
/// this way, the app's thread's too: one path. The lock guards the proxy against `invalidate`
/// on the app's thread; the per-event check is one atomic load.
final class AnswerRelay: ForeignAnswers, @unchecked Sendable {  // the proxy and answers are behind `state`
    private struct State: @unchecked Sendable {  // a proxy pointer, used under the lock
        var proxy: OpaquePointer?
        var answers: [(id: UInt32, accept: Bool)] = []
    }
    private let state: Mutex<State>
    private let pending = Atomic<Bool>(false)
    private let display: OpaquePointer

    init(proxy: OpaquePointer, display: OpaquePointer) {
        state = Mutex(State(proxy: proxy))
        self.display = display
    }

    /// Any thread: sends the answer now (nothing once the interaction was invalidated).
    func answer(_ id: UInt32, accept: Bool) {
        let sent = state.withLock { state -> Bool in
            guard let proxy = state.proxy else { return false }
            state.answers.append((id, accept))
            pending.store(true, ordering: .releasing)
            if accept {
                spi_preview_interaction_v1_accept(proxy, id)
            } else {
                spi_preview_interaction_v1_decline(proxy, id)
            }
            return true
        }
        if sent { wl_display_flush(display) }
    }

    /// The app's thread, before its proxy is destroyed: nothing more is sent.
    func invalidate() { state.withLock { $0.proxy = nil } }

    var waiting: Bool { pending.load(ordering: .acquiring) }

    func take() -> [(id: UInt32, accept: Bool)] {
        state.withLock { state in
            pending.store(false, ordering: .releasing)
            defer { state.answers.removeAll(keepingCapacity: true) }
            return state.answers
        }
    }
}

/// The interaction a channel's calls go to, held weakly: the interaction goes away with the
/// app's last reference to it (its deinit destroys the protocol object).
final class DeliveryTarget: ChannelOwner {
    private weak var interaction: PreviewInteraction?

    init(_ interaction: PreviewInteraction) { self.interaction = interaction }

    func callsReady() { interaction?.callsReady() }
}
