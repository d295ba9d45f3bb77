// peek-client's renderer (PeekUI): one whole frame per iteration at 1280x800, scale 1, for
// each phase the user sees. Within a phase the progress (or animation time) moves on every
// iteration, as it does on screen, so per-interaction caches count as they would in use;
// the cold rows pay them on every frame. Budget: 16 ms (60 Hz).
import Benchmark
import PeekUI

let benchmarks: @Sendable () -> Void = {
    let frames = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 400)
    let size = Size(width: 1280, height: 800)

    func bench(
        _ name: String, cold: Bool = false, prepared: Bool = false,
        _ model: @escaping @Sendable (Double) -> (PeekModel, Double)
    ) {
        // The benchmark closure runs once per sample: the renderer and the step live across samples.
        let runner = Runner(size: size, model: model)
        Benchmark(name, configuration: frames) { benchmark in
            for _ in benchmark.scaledIterations {
                runner.step += 1
                let (state, now) = model(Double(runner.step % 31) / 30)
                if cold {
                    // A fresh renderer that has drawn the idle grid (as the app has, before the
                    // press): the measured frame pays what an interaction's first frame pays.
                    runner.renderer = PeekRenderer(theme: .light)
                    runner.renderer.render(Scenes.grid(size), at: 0, into: runner.surface, scale: 1)
                    if prepared { runner.renderer.prepareBlur(for: Scenes.grid(size), scale: 1) }
                }
                benchmark.startMeasurement()
                runner.renderer.render(state, at: now, into: runner.surface, scale: 1)
                benchmark.stopMeasurement()
            }
        }
    }

    bench("grid (idle)") { _ in (Scenes.grid(size), 0) }
    bench("preview, progress 0→1") { t in (Scenes.preview(size, progress: t), 0) }
    bench("commit, progress 0→1") { t in (Scenes.commit(size, progress: t), 0) }
    bench("pop into the detail view (animation)") { t in Scenes.popping(size, at: t * PeekModel.popDuration) }
    bench("cancel back to the grid (animation)") { t in Scenes.cancelling(size, at: t * PeekModel.cancelDuration) }
    bench("detail view") { _ in (Scenes.detail(size), 0) }
    bench("preview, first blurred frame of an interaction (grid drawn, no blur cached)", cold: true) { t in
        (Scenes.preview(size, progress: 0.1 + 0.8 * t), 0)
    }
    bench("preview, first frame after the idle app prepared the blur", cold: true, prepared: true) { t in
        (Scenes.preview(size, progress: 0.1 + 0.8 * t), 0)
    }
}

/// One renderer and target per benchmark, warmed with one frame (the app has drawn the grid
/// before anyone presses).
final class Runner: @unchecked Sendable {
    let surface: OpaquePointer
    var renderer = PeekRenderer(theme: .light)
    var step = 0

    init(size: Size, model: (Double) -> (PeekModel, Double)) {
        surface = PeekRenderer.makeSurface(size: size, scale: 1)
        let (first, now) = model(0)
        renderer.render(first, at: now, into: surface, scale: 1)
    }

    deinit { PeekRenderer.destroySurface(surface) }
}

/// Models in each phase, driven through PeekModel's public inputs like the app does.
enum Scenes {
    static let item = Point(x: 420, y: 200)

    static func grid(_ size: Size) -> PeekModel { PeekModel(items: Item.samples(count: 24), size: size) }

    static func preview(_ size: Size, progress: Double) -> PeekModel {
        var model = grid(size)
        _ = model.shouldBegin(at: item, now: 0)
        _ = model.previewUpdated(progress: progress, ended: false, at: item, now: 0)
        return model
    }

    static func commit(_ size: Size, progress: Double) -> PeekModel {
        var model = preview(size, progress: 1)
        _ = model.previewUpdated(progress: 1, ended: true, at: item, now: 0)
        _ = model.commitUpdated(progress: progress, ended: false, at: item, now: 0)
        return model
    }

    static func popping(_ size: Size, at time: Double) -> (PeekModel, Double) {
        var model = commit(size, progress: 0.9)
        _ = model.commitUpdated(progress: 1, ended: true, at: Point(x: 640, y: 200), now: 0)
        return (model, time)
    }

    static func cancelling(_ size: Size, at time: Double) -> (PeekModel, Double) {
        var model = commit(size, progress: 0.5)
        _ = model.cancelled(now: 0)
        return (model, time)
    }

    static func detail(_ size: Size) -> PeekModel {
        var (model, _) = popping(size, at: 0)
        _ = model.advance(to: 10)
        return model
    }
}
