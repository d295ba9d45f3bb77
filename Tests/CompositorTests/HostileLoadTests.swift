import CWaylandClient
import Foundation
import InputEvents
import PreviewEngine
import Testing
import WaylandServer

@testable import PreviewCompositor

/// Many clients behaving badly at once while one behaves well: the well-behaved client's
/// requests and interactions go on, and what the others took is given back.
@Suite("Hostile clients: load", .serialized)
struct HostileLoadTests {
    @Test("2,000 clients connect, map, flood, stall and leave; a steady client goes on; memory and fds come back")
    func twoThousandClients() throws {
        let host = try LocalCompositor { $0.stalledClientMilliseconds = 50 }
        let steady = try host.connect()
        let window = steady.window()
        host.compositor.dispatch()
        _ = malloc_trim(0)
        let fdsBefore = openDescriptors()
        let residentBefore = residentBytes()
        var stalled: [RawClient] = []
        for round in 0..<2_000 {
            let client = try host.connect()
            switch round % 5 {
            case 0:
                // A window with 256 KiB of pixels, and a subsurface, then gone.
                let mapped = client.window(size: (256, 256))
                client.subsurface(of: mapped.surface, size: (64, 64))
            case 1:
                // A flood of requests it never reads the answers to.
                client.requestAnswersWithoutReading(2_000)
            case 2:
                // Surfaces and regions created and abandoned without destroying anything.
                for _ in 0..<20 {
                    let surface = client.surface()
                    let region = wl_compositor_create_region(client.compositor)!
                    wl_region_add(region, 0, 0, 10, 10)
                    wl_surface_set_input_region(surface, region)
                    wl_surface_commit(surface)
                }
                client.roundtrip()
            case 3:
                // A protocol error.
                wl_surface_set_buffer_scale(client.surface(), 0)
                client.roundtrip()
            default:
                // Stops reading with a window up: dropped by the stall check.
                _ = client.window(size: (64, 64))
                client.requestAnswersWithoutReading(3_000)
                stalled.append(client)
            }
            host.compositor.dispatch()
            if round % 10 == 9 {
                #expect(steady.roundtrip(), "round \(round): the steady client lost its connection")
                stalled.removeAll()  // their sockets close; the compositor notices on its own
            }
        }
        stalled.removeAll()
        #expect(host.dispatch(until: { host.compositor.display.clients.count == 1 }), "clients left behind")
        #expect(host.compositor.windows.count == 1)
        #expect(host.compositor.surfaces.count == 1)
        // The steady client is still served: a configure for the whole output, acked and drawn.
        #expect(steady.roundtrip())
        #expect(steady.offeredSize(window.toplevel) == .init(width: 1280, height: 800))
        // 400 windows of 256 KiB leaked would be 100 MiB; allow for allocator slack and other tests.
        _ = malloc_trim(0)  // what the allocator keeps for reuse is not a leak
        // AddressSanitizer keeps freed memory in quarantine: there leaks are LeakSanitizer's job.
        let grown = residentBytes() - residentBefore
        #expect(underAddressSanitizer || grown < 48 << 20, "resident memory grew by \(grown >> 20) MiB")
        #expect(openDescriptors() <= fdsBefore + 32, "descriptors: \(fdsBefore) before, \(openDescriptors()) after")
    }

    @Test("A client that disconnects mid-interaction: its interaction is cancelled, the next press goes to the other")
    func disconnectMidInteraction() throws {
        let trace = TestRuntime.temporaryDirectory("mid-interaction") + "/trace.jsonl"
        let host = try LocalCompositor {
            $0.tracePath = trace
            $0.engine.shouldBeginTimeout = .milliseconds(5_000)
        }
        var leaving: RawClient? = try host.connect()
        let steady = try host.connect()
        let left = leaving!.window(size: (640, 800))
        let right = steady.window(size: (640, 800))
        for (client, window) in [(leaving!, left), (steady, right)] {
            let manager = try #require(
                client.connection.bind(cwl_interface_spi_preview_interaction_manager_v1(), version: 1))
            _ = spi_preview_interaction_manager_v1_get_interaction(manager, window.surface)
            client.roundtrip()
        }
        func press(x: Double, contact: Int32) {
            let key = ContactKey(device: DeviceID(9), contact: contact)
            func sample(_ force: Double) -> DeviceContact {
                DeviceContact(
                    key: key, time: now(), force: force, hasForce: true, position: NormalisedPoint(x: x, y: 0.5),
                    positioning: .absolute, source: .touchscreen)
            }
            host.compositor.inject(.contactBegan(sample(0.05)))
            host.compositor.inject(.frame(now()))
            for step in 1...10 {
                host.compositor.inject(.contactChanged(sample(0.05 + Double(step) * 0.05)))
                host.compositor.inject(.frame(now()))
                host.compositor.dispatch()
            }
        }
        press(x: 0.25, contact: 1)  // on the leaving client's window: should-begin asked
        leaving = nil  // gone while its answer is awaited, the finger still down
        #expect(host.dispatch(until: { host.compositor.windows.count == 1 }))
        host.compositor.inject(.contactEnded(ContactKey(device: DeviceID(9), contact: 1), time: now(), reason: .lifted))
        press(x: 0.6, contact: 2)  // on the steady client's window (centred in the whole output now)
        host.compositor.inject(.contactEnded(ContactKey(device: DeviceID(9), contact: 2), time: now(), reason: .lifted))
        host.compositor.dispatch()
        #expect(steady.roundtrip())
        host.compositor.stop()
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.contains { $0.contains("\"interaction\":1,") && $0.contains("\"reason\":\"surface-gone\"") },
            "\(lines)")
        #expect(
            lines.contains { $0.contains("\"interaction\":2,") && $0.contains("\"client\":\"client2\"") }, "\(lines)")
    }

    func now() -> Timestamp { Timestamp(microseconds: MonotonicClock.system.microseconds()) }
}

/// Whether this process runs under AddressSanitizer (its runtime is linked in).
let underAddressSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

/// Open descriptors of this process.
func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

/// This process's resident set in bytes.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// glibc's malloc_trim (malloc.h is not in the Glibc module): hands free heap pages back.
@_silgen_name("malloc_trim") func malloc_trim(_ pad: Int) -> Int32
