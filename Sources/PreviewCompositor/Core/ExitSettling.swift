import Logging
import WaylandServer

/// `--exit-when-done`: once the input played everything, the compositor stops when its clients
/// have settled. Keeps the bound xdg_wm_base resources (pinged after the last input: a client
/// handles its events in order, so it has handled the last key or button before it pongs) and
/// the timer that checks.
final class ExitSettling {
    private var wmBases: [Weak<XdgWmBase>] = []
    private var timer: EventSource?

    /// A client bound xdg_wm_base.
    func bound(_ wmBase: XdgWmBase) {
        wmBases.removeAll { $0.value?.isAlive != true }
        wmBases.append(Weak(wmBase))
    }

    /// Pings every client's xdg_wm_base, then checks every 100 ms (from 300 ms on: time for a
    /// last redraw) until `busy` says nothing is pending, then calls `settled`. A client that
    /// owes an acknowledgement or a pong holds it `patience` µs at most.
    func start(
        loop: EventLoop, serial: UInt32, patience: Int64, owesAcknowledgement: @escaping () -> Bool,
        busy: @escaping () -> Bool, settled: @escaping () -> Void
    ) {
        for wmBase in wmBases { wmBase.value?.ping(serial: serial) }
        var checks = 0
        let maximumChecks = Int(patience / 100_000)
        timer = loop.addTimer { [unowned self] in
            let owing = owesAcknowledgement() || wmBases.contains { $0.value?.awaitsPong == true }
            let unread = owing && checks < maximumChecks
            checks += 1
            if busy() || unread {
                timer?.arm(milliseconds: 100)
            } else {
                settled()
            }
        }
        timer?.arm(milliseconds: 300)
    }

    func stop() {
        timer?.remove()
        timer = nil
    }
}
