import Logging
import WaylandServer

/// Clients that stop reading. libwayland queues what their full socket cannot take and drops
/// such a client only when it next writes, so a client that neither reads nor writes would keep
/// its windows, and take presses it never hears of, for ever. Here a client whose socket stays
/// full for `grace` is disconnected: its windows leave the scene (the rest re-tile) and stop
/// taking input at once. A client that reads again in time keeps going. "Full" is three quarters
/// of the socket's send buffer (`Display.cloggedClients`).
final class StalledClients {
    private let display: Display
    private let grace: Int64  // microseconds
    private let interval: Int32  // milliseconds
    private let logger: Logger
    private let describe: (Client) -> String
    private var timer: EventSource?
    /// Clients unwritable at the last check, and since when.
    private var since: [Client: Int64] = [:]

    init(display: Display, graceMilliseconds: Int32, logger: Logger, describe: @escaping (Client) -> String) {
        self.display = display
        grace = Int64(max(1, graceMilliseconds)) * 1000
        interval = max(1, min(100, graceMilliseconds / 2))
        self.logger = logger
        self.describe = describe
        timer = display.eventLoop.addTimer { [unowned self] in check() }
        timer?.arm(milliseconds: interval)
    }

    deinit { timer?.remove() }

    func stop() { timer?.remove() }

    private func check() {
        let now = display.clock.microseconds()
        var stillStalled: [Client: Int64] = [:]
        for client in display.cloggedClients() {
            let start = since[client] ?? now
            if now - start >= grace {
                logger.warning("\(describe(client)) stopped reading its events for \(grace / 1000) ms: disconnected")
                client.destroy()
            } else {
                stillStalled[client] = start
            }
        }
        since = stillStalled
        timer?.arm(milliseconds: interval)
    }
}
