import CWaylandClient
import Synchronization

/// One spi_preview_interaction_v1 object, shared by the reading thread (which groups its
/// events, acknowledges each frame at once and files the group for the app) and the app's
/// thread (which takes the groups and sends answers and cancels). Requests go out under one
/// lock, so a repeated ack and the app's wl_surface.commit stay together on the wire.
final class Channel: @unchecked Sendable {  // every mutable field is behind a Mutex
    struct Received {
        /// Groups still open (no frame yet), one per interaction; usually one.
        var open: [WireGroup] = []
        /// Closed groups the app has not taken, at most one per interaction (merged).
        var inbox: [WireGroup] = []
        /// The last frame serial read.
        var lastSerial: UInt32 = 0
        var observer: (@Sendable (PreviewWireEvent) -> Void)?
    }

    struct Sending: @unchecked Sendable {  // the proxy is only used under the lock
        var proxy: OpaquePointer?
        /// The last frame serial acknowledged on reading.
        var acked: UInt32 = 0
    }

    /// The most interactions the library keeps apart at once on one surface; more (a
    /// compositor gone wild) are declined as soon as they are read.
    static let maximumOpen = 32

    private let received = Mutex(Received())
    private let sending: Mutex<Sending>
    /// The thread that reads this object's events (told when a group is filed).
    let reader: ReadingThread

    private let display: OpaquePointer

    init(proxy: OpaquePointer, display: OpaquePointer, reader: ReadingThread) {
        self.reader = reader
        self.display = display
        sending = Mutex(Sending(proxy: proxy))
        received.withLock {
            $0.open.reserveCapacity(Self.maximumOpen)
            $0.inbox.reserveCapacity(Self.maximumOpen)
        }
    }

    var observer: (@Sendable (PreviewWireEvent) -> Void)? {
        get { received.withLock { $0.observer } }
        set { received.withLock { $0.observer = newValue } }
    }

    // MARK: the reading thread

    /// One event read (not `frame`).
    func received(_ event: PreviewWireEvent) {
        let (observer, overflow) = received.withLock { state -> ((@Sendable (PreviewWireEvent) -> Void)?, Bool) in
            let id = event.interaction
            let index: Int
            if let found = state.open.firstIndex(where: { $0.interaction == id }) {
                index = found
            } else {
                guard state.open.count < Self.maximumOpen else { return (state.observer, true) }
                state.open.append(WireGroup(interaction: id))
                index = state.open.count - 1
            }
            switch event {
            case .shouldBegin(_, let source, let force): state.open[index].shouldBegin = (source, force)
            case .location(_, let x, let y): state.open[index].location = PreviewPoint(x: x, y: y)
            case .preview(_, let progress): state.open[index].preview = progress
            case .previewEnded: state.open[index].previewEnded = true
            case .commit(_, let progress): state.open[index].commit = progress
            case .completed: state.open[index].completed = true
            case .cancelled(_, let reason): state.open[index].cancelled = reason
            case .frame: break
            }
            return (state.observer, false)
        }
        observer?(event)
        if overflow, case .shouldBegin(let id, _, _) = event { send { spi_preview_interaction_v1_decline($0, id) } }
    }

    /// `frame`: acknowledged at once (the compositor may send the next progress while the app
    /// draws), then the group waits for the app. Returns true if the app has something new.
    func frame(_ id: UInt32, serial: UInt32, time: UInt64) -> Bool {
        let observer = received.withLock { $0.observer }
        observer?(.frame(interaction: id, serial: serial, time: time))
        send {
            spi_preview_interaction_v1_ack_frame($0, serial)
        }
        sending.withLock { $0.acked = max($0.acked, serial) }
        return received.withLock { state in
            state.lastSerial = max(state.lastSerial, serial)
            guard let index = state.open.firstIndex(where: { $0.interaction == id }) else { return false }
            var group = state.open.remove(at: index)
            group.serial = serial
            group.time = time
            if let waiting = state.inbox.lastIndex(where: { $0.interaction == id }), !state.inbox[waiting].isTerminal {
                state.inbox[waiting].merge(group)
            } else {
                state.inbox.append(group)
            }
            return true
        }
    }

    // MARK: the app's thread

    /// The groups read since the last call, in order (at most one per interaction).
    func take(into groups: inout [WireGroup]) {
        received.withLock { state in
            groups.append(contentsOf: state.inbox)
            state.inbox.removeAll(keepingCapacity: true)
        }
    }

    var hasWaiting: Bool { received.withLock { !$0.inbox.isEmpty } }

    /// Sends a request on the object, unless it was destroyed; any thread.
    func send(_ request: (OpaquePointer) -> Void) {
        sending.withLock { state in
            guard let proxy = state.proxy else { return }
            request(proxy)
        }
    }

    /// Sends what was queued now (answers leave at once, whatever thread gave them).
    func flush() { wl_display_flush(display) }

    /// Repeats the ack of `applied` (the last frame whose calls the app has had), then runs
    /// `commit` with no request of the reading thread in between (ack_frame in the XML).
    func commit(showing applied: UInt32, _ commit: () -> Void) {
        sending.withLock { state in
            if let proxy = state.proxy, applied > 0 { spi_preview_interaction_v1_ack_frame(proxy, applied) }
            commit()
        }
    }

    /// Sends destroy and forgets the proxy: nothing is sent on it afterwards. Events still
    /// queued for it are dropped by libwayland.
    func destroy() {
        sending.withLock { state in
            guard let proxy = state.proxy else { return }
            spi_preview_interaction_v1_destroy(proxy)
            state.proxy = nil
        }
    }
}
