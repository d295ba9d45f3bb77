import CWaylandClient
import PreviewEngine
import PreviewInteraction
import Testing

/// An app's rectangles may hold anything: the library turns them into wl_region coordinates
/// without trapping in the app's process (ones that are not finite cover nothing, the rest is
/// clamped to 32 bits).
@Suite struct AbsurdRectTests {
    @Test("A region of NaN, infinite and huge rectangles reaches the compositor, the huge one clamped")
    func absurdRegionIsClamped() throws {
        let app = try AppHarness()
        app.interaction.region = [
            PreviewRect(x: .nan, y: .nan, width: .nan, height: .infinity),
            PreviewRect(x: -1e300, y: -1e300, width: 1e300, height: 1e300),
            PreviewRect(x: 10, y: 10, width: -.infinity, height: .greatestFiniteMagnitude),
            PreviewRect(x: -.infinity, y: 0, width: .infinity, height: 10),
        ]
        app.interaction.commitSurface()
        wl_display_roundtrip(app.display)
        let inside = app.server.sync {
            $0.server.allowsInteraction(on: SurfaceID(1), at: Point(x: -5, y: -5), source: .pen)
        }
        let outside = app.server.sync {
            $0.server.allowsInteraction(on: SurfaceID(1), at: Point(x: 5, y: 5), source: .pen)
        }
        // The second rectangle, clamped, spans INT32_MIN...0 on both axes; the others are dropped.
        #expect(inside && !outside)
    }
}
