import PreviewEngine
import Testing

@testable import PreviewCompositor

/// Look Up's highlight is drawn over the app's window, whatever the window does, and takes no input.
@Suite struct LookupOverlayTests {
    @Test func theHighlightIsDrawnOverTheWordAndTakesNoInput() throws {
        let host = try LocalCompositor()
        let client = try host.connect()
        _ = client.window(size: (400, 300))
        let root = try #require(host.compositor.scene.toplevels.first)
        let compositor = host.compositor
        let highlight = LookupHighlight(
            scene: compositor.scene, surfaces: compositor.surfaces, output: compositor.output)
        let word = Rect(x: 40, y: 50, width: 60, height: 20)
        highlight.show(word, in: root, progress: 1)
        host.compositor.scene.raise(root)  // a click raises the app's window
        host.compositor.framebuffer.addDamage(host.compositor.framebuffer.bounds)
        host.compositor.framebuffer.repaint(host.compositor.scene.placements())
        let origin = root.outputOrigin
        let inside = host.compositor.framebuffer.pixel(x: origin.x + 45, y: origin.y + 55)
        let outside = host.compositor.framebuffer.pixel(x: origin.x + 200, y: origin.y + 200)
        #expect(inside != outside, "no highlight over the word")
        let hit = host.compositor.scene.surface(at: Point(x: Double(origin.x + 45), y: Double(origin.y + 55)))
        #expect(hit?.surface === root, "the highlight took the press")
        highlight.hide()
        host.compositor.framebuffer.repaint(host.compositor.scene.placements())
        #expect(host.compositor.framebuffer.pixel(x: origin.x + 45, y: origin.y + 55) == outside)
    }
}
