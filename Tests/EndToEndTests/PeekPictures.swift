import CCairo
import DemoReport
import Foundation
import PeekUI
import SystemLayer
import _FixtureTestSupport

// Support for PeekScreenshotTests: the compositor's screenshots of peek-client read back through
// cairo, measured (sharpness, colours) and compared with reference images at half size.

/// A compositor screenshot as a cairo image surface, with measurements in output pixels.
final class Shot: @unchecked Sendable {  // never mutated after init
    let surface: OpaquePointer
    let path: String
    var width: Int { Int(cairo_image_surface_get_width(surface)) }
    var height: Int { Int(cairo_image_surface_get_height(surface)) }

    init?(path: String) {
        let surface = cairo_image_surface_create_from_png(path)!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        self.surface = surface
        self.path = path
    }

    init(surface: OpaquePointer) {
        self.surface = surface
        path = ""
    }

    /// What peek-client draws for `model` (the same renderer, in-process): the sharp baseline
    /// the screenshots are measured against.
    convenience init(rendering model: PeekModel, at now: Double = 0) {
        let surface = PeekRenderer.makeSurface(size: model.size, scale: 1)
        PeekRenderer(theme: .light).render(model, at: now, into: surface, scale: 1)
        self.init(surface: surface)
    }

    deinit { cairo_surface_destroy(surface) }

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let row = UnsafeRawPointer(cairo_image_surface_get_data(surface)! + y * stride).assumingMemoryBound(
            to: UInt32.self)
        let p = row[x]
        return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }

    private func luminance(_ x: Int, _ y: Int) -> Double {
        let p = pixel(x, y)
        return 0.299 * Double(p.r) + 0.587 * Double(p.g) + 0.114 * Double(p.b)
    }

    /// High-frequency energy: mean absolute luminance step between neighbouring pixels
    /// (right and down) in `rect`. A sharp photo with edges scores several times a blurred one.
    func sharpness(_ rect: Rect) -> Double {
        let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
        let x1 = min(width - 1, Int(rect.maxX)), y1 = min(height - 1, Int(rect.maxY))
        guard x1 > x0, y1 > y0 else { return 0 }
        var total = 0.0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let here = luminance(x, y)
                total += abs(luminance(x + 1, y) - here) + abs(luminance(x, y + 1) - here)
            }
        }
        return total / Double((x1 - x0) * (y1 - y0))
    }

    /// How many pixels in `rect` are within `tolerance` of `colour` on every channel.
    func count(near colour: (r: Int, g: Int, b: Int), tolerance: Int = 30, in rect: Rect) -> Int {
        var n = 0
        for y in max(0, Int(rect.y))..<min(height, Int(rect.maxY)) {
            for x in max(0, Int(rect.x))..<min(width, Int(rect.maxX)) {
                let p = pixel(x, y)
                if abs(p.r - colour.r) <= tolerance && abs(p.g - colour.g) <= tolerance
                    && abs(p.b - colour.b) <= tolerance
                {
                    n += 1
                }
            }
        }
        return n
    }

    /// Mean luminance in `rect`.
    func brightness(_ rect: Rect) -> Double {
        var total = 0.0
        var n = 0
        for y in max(0, Int(rect.y))..<min(height, Int(rect.maxY)) {
            for x in max(0, Int(rect.x))..<min(width, Int(rect.maxX)) {
                total += luminance(x, y)
                n += 1
            }
        }
        return n == 0 ? 0 : total / Double(n)
    }

    /// The picture at half size (box-filtered): what references are stored and compared at.
    func halfSize() -> Shot {
        let small = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width / 2), Int32(height / 2))!
        let cr = cairo_create(small)!
        cairo_scale(cr, 0.5, 0.5)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(small)
        return Shot(surface: small)
    }

    func writePNG(to path: String) -> Bool { cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS }

    /// Mean absolute per-channel difference (0...255) and the share of pixels off by more than
    /// `pixelTolerance` on some channel. Nil if the sizes differ.
    func difference(from other: Shot, pixelTolerance: Int = 40, excluding holes: [Rect] = []) -> (
        mean: Double, share: Double
    )? {
        guard width == other.width, height == other.height else { return nil }
        var total = 0
        var differing = 0
        var counted = 0
        for y in 0..<height {
            for x in 0..<width where !holes.contains(where: { $0.contains(Point(x: Double(x), y: Double(y))) }) {
                counted += 1
                let a = pixel(x, y)
                let b = other.pixel(x, y)
                let d = (abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                total += d.0 + d.1 + d.2
                if max(d.0, d.1, d.2) > pixelTolerance { differing += 1 }
            }
        }
        let pixels = Double(max(1, counted))
        return (Double(total) / (pixels * 3), Double(differing) / pixels)
    }
}

/// One run of preview-compositor with peek-client and a recording, the screenshots of one of
/// its interactions by moment.
struct PeekRun {
    let output: String
    let status: Int32?
    let log: String
    /// The interaction photographed (the engine numbers them from 1); the client exits after it.
    let interaction: Int
    let shots: [String: String]  // "preview-half" → path
    let trace: String

    static let outputSize = Size(width: 1280, height: 800)

    /// Runs the compositor headless with --fast; returns when it exited.
    static func run(recording: String, interaction: Int = 1, client: [String] = [], name: String = #function) throws
        -> PeekRun
    {
        let output = scratchDirectory(name)
        let shots = output + "/shots"
        let trace = output + "/trace.jsonl"
        let command = ([tools.client, "--exit-after-interactions", String(interaction)] + client)
            .map(shellQuote).joined(separator: " ")
        let run = try runIsolated(
            [
                tools.compositor, "--backend", "headless", "-v", "--replay", recording, "--fast", "--exit-when-done",
                "--screenshot-dir", shots,
                "--should-begin-timeout", String(slowClientShouldBeginTimeout),
                "--trace", trace, "--run", command,
            ])
        var byMoment: [String: String] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: shots)) ?? [] where file.hasSuffix(".png") {
            // 0004-interaction1-commit-half.png → commit-half
            guard let range = file.range(of: "-interaction\(interaction)-") else { continue }
            byMoment[String(file[range.upperBound...].dropLast(4))] = shots + "/" + file
        }
        return PeekRun(
            output: output, status: run.status, log: run.output, interaction: interaction, shots: byMoment, trace: trace
        )
    }

    func shot(_ moment: String) -> Shot? { shots[moment].flatMap { Shot(path: $0) } }
}

/// Reference images for the end-to-end screenshots, next to peek-client's own references.
enum References {
    static let directory = checkout + "/Tests/Fixtures/peek-client"

    static func path(_ name: String) -> String { directory + "/" + name + ".png" }

    /// PEEK_UPDATE_REFERENCES=1 rewrites them (look at them before committing).
    static var updating: Bool { ProcessInfo.processInfo.environment["PEEK_UPDATE_REFERENCES"] == "1" }
}

/// Runs one of the project's executables to its exit in a runtime directory of its own (so
/// compositors started by tests running in parallel never share a socket directory); stdout and
/// stderr together.
func runIsolated(_ arguments: [String], timeout: Double = 120) throws -> (status: Int32?, output: String) {
    let runtime = scratchDirectory("runtime")
    chmod(runtime, 0o700)
    let log = runtime + "/output.log"
    let child = try ChildProcess(arguments, environment: ["XDG_RUNTIME_DIR": runtime], output: .file(log))
    let status = child.wait(timeout: timeout)
    return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
}
