import PreviewCompositor
import PreviewEngine
import Testing

@Suite struct SceneTests {
    let client = ClientID(1)

    func mapped(_ id: UInt64, width: Int32, height: Int32, role: SceneSurface.Role = .toplevel) -> SceneSurface {
        let surface = SceneSurface(id: SurfaceID(id), client: client)
        surface.role = role
        surface.texture = SurfaceTexture(width: width, height: height, format: .argb8888)
        return surface
    }

    @Test func hitTestFindsTopmostWindowAndSurfaceLocalCoordinates() {
        let scene = Scene(output: Rect(x: 0, y: 0, width: 800, height: 600))
        let bottom = mapped(1, width: 400, height: 300)
        let top = mapped(2, width: 100, height: 100)
        top.position = (350, 250)
        scene.show(bottom)
        scene.show(top)
        let hit = scene.surface(at: Point(x: 360, y: 260))
        #expect(hit?.surface.id == SurfaceID(2))
        #expect(hit?.local == Point(x: 10, y: 10))
        #expect(scene.surface(at: Point(x: 10, y: 20))?.local == Point(x: 10, y: 20))
        #expect(scene.surface(at: Point(x: 700, y: 500)) == nil)
        scene.raise(bottom)
        #expect(scene.surface(at: Point(x: 360, y: 260))?.surface.id == SurfaceID(1))
    }

    @Test func subsurfacesStackAndOffsetRelativeToTheirParent() {
        let scene = Scene(output: Rect(x: 0, y: 0, width: 800, height: 600))
        let parent = mapped(1, width: 200, height: 200)
        parent.position = (100, 100)
        let child = mapped(2, width: 50, height: 50, role: .none)
        parent.addSubsurface(child)
        child.offset = (-20, 10)
        scene.show(parent)
        #expect(
            scene.surface(at: Point(x: 85, y: 115))?.surface.id == SurfaceID(2), "outside the parent, inside the child")
        #expect(scene.surface(at: Point(x: 105, y: 115))?.local == Point(x: 25, y: 5))
        #expect(parent.restack(child, relativeTo: parent, above: false))
        #expect(scene.surface(at: Point(x: 105, y: 115))?.surface.id == SurfaceID(1), "below the parent now")
        #expect(scene.extents(of: parent) == Rect(x: 80, y: 100, width: 220, height: 200))
        #expect(scene.placements().map(\.x) == [80, 100])
        let stranger = mapped(3, width: 1, height: 1)
        #expect(!parent.restack(child, relativeTo: stranger, above: true))
    }

    @Test func inputRegionAndUnmappedSurfacesAreSkipped() {
        let scene = Scene(output: Rect(x: 0, y: 0, width: 800, height: 600))
        let surface = mapped(1, width: 100, height: 100)
        var region = Region()
        region.add(Rect(x: 0, y: 0, width: 100, height: 100))
        region.subtract(Rect(x: 0, y: 0, width: 50, height: 100))
        surface.inputRegion = region
        scene.show(surface)
        #expect(scene.surface(at: Point(x: 10, y: 10)) == nil)
        #expect(scene.surface(at: Point(x: 60, y: 10))?.surface.id == SurfaceID(1))
        surface.texture = nil
        #expect(scene.surface(at: Point(x: 60, y: 10)) == nil)
        #expect(scene.placements().isEmpty)
    }

    @Test func bufferScaleHalvesTheLogicalSize() {
        let surface = mapped(1, width: 200, height: 100)
        surface.bufferScale = 2
        #expect(surface.size == (100, 50))
    }

    @Test func columnsTileTheOutput() {
        let output = Rect(x: 0, y: 0, width: 1280, height: 800)
        #expect(Scene.columns(count: 1, in: output) == [output])
        #expect(
            Scene.columns(count: 2, in: output) == [
                Rect(x: 0, y: 0, width: 640, height: 800), Rect(x: 640, y: 0, width: 640, height: 800),
            ])
    }
}
