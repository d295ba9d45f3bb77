import Foundation
import PreviewEngine
import PreviewProtocolServer
import Synchronization
import WaylandServer
import _PreviewProtocolTestSupport

/// The scripted protocol server (ProtocolHarness: a mini wl_compositor and the real
/// PreviewInteractionServer) on a thread of its own, so the test's thread can be the app's
/// thread and block in libwayland like an app does. `sync` runs a closure on the server's
/// thread and waits for it (the test plays the engine there).
final class ServerThread: @unchecked Sendable {  // the harness is only touched on its thread
    private let thread: DisplayThread<ProtocolHarness>

    /// The client end of a socket connected to the server.
    let clientFD: Int32
    private let client: Client

    /// Closes the app's connection from the server's side, as a compositor that goes away.
    func disconnectClient() {
        let client = self.client
        sync { harness in
            client.destroy()
            harness.display.flushClients()
        }
    }

    /// `version`: the protocol version the global advertises (an older compositor's).
    init(advertising version: Int32 = PreviewInteractionServer.version) throws {
        let harness = try ProtocolHarness(advertising: version)
        let connected = try harness.display.connectedClientSocket()
        (client, clientFD) = (connected.client, connected.clientFD)
        thread = try DisplayThread(harness, display: harness.display)
    }
    /// Performs `actions(i)` for i in 0..<count on the server's thread, one every `interval`
    /// milliseconds (a device reporting at its own rate, whatever the app does); `finished`
    /// is signalled after the last.
    func emit(count: Int, everyMilliseconds interval: Int32, _ action: @escaping @Sendable (Int) -> Action)
        -> DispatchSemaphore
    {
        let finished = DispatchSemaphore(value: 0)
        sync { harness in
            var index = 0
            nonisolated(unsafe) var timer: EventSource?
            timer = harness.display.eventLoop.addTimer {
                harness.server.perform(action(index))
                harness.display.flushClients()
                index += 1
                if index < count {
                    timer?.arm(milliseconds: interval)
                } else {
                    timer = nil
                    finished.signal()
                }
            }
            timer?.arm(milliseconds: interval)
        }
        return finished
    }

    /// Runs `body` on the server's thread and returns its result.
    func sync<T>(_ body: @escaping (ProtocolHarness) -> T) -> T { thread.sync(body) }

    func stop() { thread.stop() }
}
