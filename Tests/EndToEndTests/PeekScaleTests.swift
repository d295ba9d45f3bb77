import DemoReport
import Foundation
import SystemLayer
import Testing
import _FixtureTestSupport

/// Buffer scale: our compositor's output is scale 1, so peek-client's HiDPI path runs against
/// weston's headless backend with a scale-2 output: the client follows wl_surface.enter and
/// the output's scale, and draws twice the pixels.
@Suite struct PeekScaleTests {
    @Test("On a scale-2 output peek-client draws 2x buffers with set_buffer_scale(2)")
    func followsTheOutputScale() throws {
        let runtime = scratchDirectory("runtime")
        chmod(runtime, 0o700)
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let weston = try ChildProcess(
            [
                "/usr/bin/weston", "--backend=headless-backend.so", "--use-pixman", "--scale=2", "--width=1280",
                "--height=800", "--socket=peek-scale", "--idle-time=0",
            ], environment: environment, output: .file(runtime + "/weston.log"))
        defer {
            kill(weston.pid, SIGKILL)  // test-runner children may block SIGTERM
            _ = weston.wait(timeout: 10)
        }
        let socket = runtime + "/peek-scale"
        _ = FileWatch.wait(inDirectoryOf: socket, timeout: 20) { FileManager.default.fileExists(atPath: socket) }
        try #require(FileManager.default.fileExists(atPath: socket), "weston did not start")

        // WAYLAND_DEBUG shows the requests: the buffer size and the scale the client sets.
        let log = runtime + "/client.log"
        let client = try ChildProcess(
            [tools.client],
            environment: environment.merging(["WAYLAND_DISPLAY": "peek-scale", "WAYLAND_DEBUG": "1"]) { $1 },
            output: .file(log))
        defer {
            kill(client.pid, SIGKILL)
            _ = client.wait(timeout: 10)
        }
        let output = FileWatch.waitForText(in: log, timeout: 30) {
            $0.contains("set_buffer_scale(2)") && Self.bufferWidths($0).contains(where: { $0 >= 1600 })
        }
        #expect(output.contains("wl_output@") && output.contains(".scale(2)"), "weston announces scale 2")
        #expect(output.contains(".enter(wl_output@"), "the surface entered the output")
        #expect(output.contains("set_buffer_scale(2)"), "no set_buffer_scale(2): \(output.suffix(2000))")
        // The window is configured in logical pixels; its buffers after the enter are twice as big.
        let widths = Self.bufferWidths(output)
        #expect(widths.contains(1600), "no 1600-pixel buffer for the 800-point window: \(widths)")
    }

    /// The widths of the wl_shm buffers created: `create_buffer(new id wl_buffer@N, offset, width, …`.
    static func bufferWidths(_ log: String) -> [Int] {
        log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "create_buffer(new id ") else { return nil }
            let fields = line[start.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return fields.count > 2 ? Int(fields[2]) : nil
        }
    }
}
