import PreviewCompositor
import PreviewEngine
import Testing
import _FixtureTestSupport

/// The scene's hit test answers from a grid index per window (rebuilt after geometry changes);
/// here it is checked against the plain definition (walk the tree top to bottom, recompute every
/// origin) on random trees, before and after random changes.
@Suite struct HitIndexTests {
    /// The definition the index must agree with.
    func reference(_ scene: Scene, _ point: Point) -> SurfaceID? {
        func test(_ surface: SceneSurface) -> SurfaceID? {
            for member in surface.stack.reversed() {
                if member === surface {
                    guard surface.isMapped else { continue }
                    let origin = surface.outputOrigin
                    let size = surface.size
                    let local = Point(x: point.x - Double(origin.x), y: point.y - Double(origin.y))
                    guard Rect(x: 0, y: 0, width: size.width, height: size.height).contains(x: local.x, y: local.y)
                    else { continue }
                    if surface.inputRegion?.contains(x: local.x, y: local.y) ?? true { return surface.id }
                } else if member.isMapped, let hit = test(member) {
                    return hit
                }
            }
            return nil
        }
        for window in scene.windows.reversed() { if let hit = test(window) { return hit } }
        return nil
    }

    func texture(_ random: inout SplitMix64) -> SurfaceTexture? {
        SurfaceTexture(
            width: .random(in: 1...300, using: &random), height: .random(in: 1...300, using: &random), format: .argb8888
        )
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func agreesWithTheTreeWalkOnRandomTreesAndChanges(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let scene = Scene(output: Rect(x: 0, y: 0, width: 800, height: 600))
        var all: [SceneSurface] = []
        var next: UInt64 = 1
        for _ in 0..<3 {
            let window = SceneSurface(id: SurfaceID(next), client: ClientID(1))
            next += 1
            window.role = .toplevel
            window.texture = texture(&random)
            window.position = (.random(in: -50...700, using: &random), .random(in: -50...500, using: &random))
            scene.show(window)
            all.append(window)
            // A tree: each new subsurface under a random surface already in this window.
            var tree = [window]
            for _ in 0..<(Int.random(in: 20...200, using: &random)) {
                let child = SceneSurface(id: SurfaceID(next), client: ClientID(1))
                next += 1
                child.texture = Bool.random(using: &random) || Bool.random(using: &random) ? texture(&random) : nil
                tree.randomElement(using: &random)!.addSubsurface(child)
                child.offset = (.random(in: -100...300, using: &random), .random(in: -100...300, using: &random))
                if Int.random(in: 0..<8, using: &random) == 0 {
                    var region = Region()
                    region.add(Rect(x: 0, y: 0, width: 40, height: 40))
                    child.inputRegion = region
                }
                tree.append(child)
            }
            all += tree.dropFirst()
        }
        func check(_ when: String) {
            for _ in 0..<400 {
                let point = Point(
                    x: Double.random(in: -100...900, using: &random), y: Double.random(in: -100...700, using: &random))
                #expect(scene.surface(at: point)?.surface.id == reference(scene, point), "\(when) at \(point)")
            }
        }
        check("built")
        for round in 0..<30 {
            let surface = all.randomElement(using: &random)!
            switch Int.random(in: 0..<6, using: &random) {
            case 0: surface.offset = (.random(in: -100...300, using: &random), .random(in: -100...300, using: &random))
            case 1: surface.texture = surface.isMapped ? nil : texture(&random)
            case 2: surface.texture = texture(&random)
            case 3: surface.bufferScale = .random(in: 1...3, using: &random)
            case 4:
                if let parent = surface.parent, let sibling = parent.stack.randomElement(using: &random) {
                    parent.restack(surface, relativeTo: sibling, above: .random(using: &random))
                }
            default:
                if let parent = surface.parent { parent.removeSubsurface(surface) }
            }
            check("after change \(round)")
        }
    }

    @Test func tenThousandSubsurfacesFindTheTopmost() {
        let scene = Scene(output: Rect(x: 0, y: 0, width: 1280, height: 800))
        let window = SceneSurface(id: SurfaceID(1), client: ClientID(1))
        window.role = .toplevel
        window.texture = SurfaceTexture(width: 1280, height: 800, format: .argb8888)
        scene.show(window)
        for index in 0..<10_000 {
            let child = SceneSurface(id: SurfaceID(UInt64(index) + 2), client: ClientID(1))
            child.texture = SurfaceTexture(width: 8, height: 8, format: .argb8888)
            window.addSubsurface(child)
            child.offset = (Int32(index % 100) * 12, Int32(index / 100) * 8)
        }
        // Column 5, row 7 of the 100 x 100 grid: the subsurface 7 * 100 + 5.
        #expect(scene.surface(at: Point(x: 5 * 12 + 1, y: 7 * 8 + 1))?.surface.id == SurfaceID(705 + 2))
        // Between the columns: the window itself.
        #expect(scene.surface(at: Point(x: 5 * 12 + 10, y: 7 * 8 + 1))?.surface.id == SurfaceID(1))
        #expect(scene.hitIndexFootprint > 0)
    }
}
