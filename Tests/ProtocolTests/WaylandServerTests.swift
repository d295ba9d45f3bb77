import CWaylandClient
import CWaylandServer
import Glibc
import Testing
import WaylandServer
import _PreviewProtocolTestSupport

/// Counts live instances so tests can prove nothing leaks.
final class Probe: ResourceObject {
    nonisolated(unsafe) static var live = 0
    var destroyedCalls = 0
    override init?(
        client: Client, interface: UnsafePointer<wl_interface>, version: UInt32, id: UInt32,
        implementation: UnsafeRawPointer?
    ) {
        super.init(client: client, interface: interface, version: version, id: id, implementation: implementation)
        Probe.live += 1
    }
    deinit { Probe.live -= 1 }
    override func resourceDestroyed() { destroyedCalls += 1 }
}

@Suite(.serialized) struct WaylandServerTests {
    @Test func theResourceOwnsItsObjectUntilTheClientGoes() throws {
        let display = try Display()
        let before = Probe.live
        var bound: [Probe] = []
        let global = Global(display: display, interface: cwl_interface_wl_data_device_manager(), version: 1) {
            client, version, id in
            // No implementation: any request would be a protocol error, we only bind.
            if let probe = Probe(
                client: client, interface: cwl_interface_wl_data_device_manager(), version: version, id: id,
                implementation: nil)
            {
                bound.append(probe)
            }
        }
        #expect(global != nil)
        let connection = try Connection(to: display)
        #expect(connection.bind(cwl_interface_wl_data_device_manager(), version: 1) != nil)
        #expect(connection.roundtrip())
        #expect(bound.count == 1 && bound[0].isAlive)
        #expect(Probe.live == before + 1)

        connection.serverClient.destroy()
        #expect(!bound[0].isAlive)
        #expect(bound[0].destroyedCalls == 1)
        bound.removeAll()
        #expect(Probe.live == before, "the resource released its object")
    }

    @Test func aDestroyListenerFiresOnceAndCanBeRemovedEarly() throws {
        let display = try Display()
        let connection = try Connection(to: display)
        var fired = 0
        let listener = Listener { _ in fired += 1 }
        listener.listen(toDestroyOf: connection.serverClient)
        #expect(listener.isListening)
        let other = Listener { _ in Issue.record("removed listener fired") }
        other.listen(toDestroyOf: connection.serverClient)
        other.remove()
        other.remove()
        connection.serverClient.destroy()
        #expect(fired == 1)
        #expect(!listener.isListening)
    }

    @Test func idleAndTimerSourcesFireOnTheLoop() throws {
        let display = try Display()
        var idled = 0
        display.eventLoop.addIdle { idled += 1 }
        let cancelled = display.eventLoop.addIdle { Issue.record("cancelled idle fired") }
        cancelled?.remove()
        display.dispatch()
        display.dispatch()
        #expect(idled == 1)

        var ticks = 0
        let timer = try #require(display.eventLoop.addTimer { ticks += 1 })
        timer.arm(milliseconds: 1)
        display.dispatch(timeoutMilliseconds: 1_000)
        #expect(ticks == 1)
    }

    @Test func aGlobalGoesAwayWithItsObject() throws {
        let display = try Display()
        var global = Global(display: display, interface: cwl_interface_wl_data_device_manager(), version: 1) {
            _, _, _ in
        }
        let connection = try Connection(to: display)
        #expect(connection.globalInterfaces().contains("wl_data_device_manager"))
        global = nil
        _ = global
        let later = try Connection(to: display)
        #expect(!later.globalInterfaces().contains("wl_data_device_manager"))
    }
}

@Suite struct EventSourceLifetimeTests {
    @Test func sourcesOutlivingTheirDisplayAreForgottenNotTouched() throws {
        var display: Display? = try Display()
        let timer = try #require(display!.eventLoop.addTimer {})
        timer.arm(milliseconds: 1_000)
        var idleRan = false
        let idle = display!.eventLoop.addIdle { idleRan = true }
        display!.destroy()
        display = nil
        #expect(!timer.isActive)
        #expect(idle?.isActive == false)
        timer.remove()  // no use of the freed loop
        #expect(!idleRan)
    }

    /// The loop frees (and closes the descriptor of) only the sources removed from it: one that
    /// outlives its display must be removed when the loop goes, or its copy of the fd stays open.
    @Test func anFDSourceOutlivingItsDisplayClosesItsDescriptor() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        var display: Display? = try Display()
        let source = try #require(display!.eventLoop.addFD(pair[0], events: .readable) { _ in })
        close(pair[0])  // the loop watches its own copy
        display!.destroy()
        display = nil
        #expect(!source.isActive)
        // With every copy of the other end closed, the peer sees a broken pipe.
        var byte: UInt8 = 1
        #expect(send(pair[1], &byte, 1, Int32(MSG_NOSIGNAL)) == -1 && errno == EPIPE, "the loop's copy is still open")
        withExtendedLifetime(source) {}
    }
}
