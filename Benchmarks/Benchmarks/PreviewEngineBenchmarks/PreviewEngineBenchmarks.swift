// The engine's per-sample cost in steady state. Each benchmark sets up an engine outside the
// measured region, then feeds it 1000 samples per iteration (scalingFactor .kilo), so the
// reported time and malloc counts are per sample. scripts/bench fails when any engine
// benchmark here reports a malloc (p100 > 0), or when the control reports none.
import Benchmark
import PreviewEngine

let benchmarks: @Sendable () -> Void = {
    let perSample = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 100_000,
        thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])])

    // Proves the malloc counter is live: exactly one allocation per sample must show up here.
    // scripts/bench fails if it reads 0 (then the zeros below would prove nothing).
    Benchmark(
        "Control: one Array per sample",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(1))
    ) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(Array(repeating: index, count: 4))
        }
    }

    Benchmark("forceChanged, one contact, preview phase", configuration: perSample) { benchmark in
        var fixture = Fixture(contacts: 1)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(fixture.sample(index, contact: 0, around: 0.3))
        }
        benchmark.stopMeasurement()
        fixture.expectRunning()
    }

    Benchmark("forceChanged, one contact, commit phase", configuration: perSample) { benchmark in
        var fixture = Fixture(contacts: 1, pressTo: 0.7)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(fixture.sample(index, contact: 0, around: 0.7))
        }
        benchmark.stopMeasurement()
        fixture.expectRunning()
    }

    Benchmark("forceChanged, ten contacts interleaved, preview phase", configuration: perSample) { benchmark in
        var fixture = Fixture(contacts: 10)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(fixture.sample(index, contact: index % 10, around: 0.3))
        }
        benchmark.stopMeasurement()
        fixture.expectRunning()
    }

    Benchmark("timerFired (smoothing settles), one contact", configuration: perSample) { benchmark in
        var fixture = Fixture(contacts: 1)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            // A sample then the settle deadline it asks for: the held-force path.
            blackHole(fixture.sample(index, contact: 0, around: 0.3))
            blackHole(fixture.fireTimer())
        }
        benchmark.stopMeasurement()
        fixture.expectRunning()
    }

    Benchmark(
        "whole interaction: press, preview, commit, complete, lift (per interaction)",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .throughput], maxDuration: .seconds(3),
            thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])])
    ) { benchmark in
        var fixture = Fixture(contacts: 0)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            fixture.wholeInteraction()
        }
    }
}

/// An engine with `contacts` fingers already pressing, accepted, in the phase `pressTo` puts them.
struct Fixture {
    var engine = InteractionEngine()
    var now = Timestamp(milliseconds: 1_000)
    var timer: Timestamp?

    init(contacts: Int, pressTo force: Double = 0.3) {
        for contact in 0..<contacts {
            perform(engine.contactBegan(sample(force, contact: contact), surface: SurfaceID(1), hasForce: true))
        }
        now = now + .milliseconds(100)
        if let timer { perform(engine.timerFired(at: timer)) }
    }

    func sample(_ force: Double, contact: Int) -> ForceSample {
        ForceSample(
            time: now, force: force, location: Point(x: 10, y: 20), source: .pen,
            contact: ContactKey(device: DeviceID(1), contact: Int32(contact)))
    }

    /// One sample 5 ms after the last, wobbling ±0.05 around `force` (never crossing a phase).
    mutating func sample(_ index: Int, contact: Int, around force: Double) -> Int {
        now = now + .milliseconds(5)
        let wobble = Double(index % 11 - 5) / 100
        return perform(engine.forceChanged(sample(force + wobble, contact: contact)))
    }

    mutating func fireTimer() -> Int {
        guard let timer else { return 0 }
        now = max(now, timer)
        self.timer = nil
        return perform(engine.timerFired(at: now))
    }

    mutating func wholeInteraction() {
        let contact = ContactKey(device: DeviceID(1), contact: 0)
        perform(engine.contactBegan(sample(0.2, contact: 0), surface: SurfaceID(1), hasForce: true))
        for force in [0.4, 0.7, 0.95] {
            now = now + .milliseconds(5)
            perform(engine.forceChanged(sample(force, contact: 0)))
        }
        for _ in 0..<4 { _ = fireTimer() }
        now = now + .milliseconds(5)
        perform(engine.contactEnded(contact, at: now, reason: .lifted))
        now = now + .milliseconds(5)
    }

    /// What a host does: remembers the timer, answers should-begin at once.
    @discardableResult
    mutating func perform(_ actions: Actions) -> Int {
        for action in actions {
            switch action {
            case .scheduleTimer(let time): timer = time
            case .askShouldBegin(let update): perform(engine.clientAnswered(update.interaction, accept: true, at: now))
            case .phase: break
            }
        }
        return actions.count
    }

    /// A benchmark that quietly measured something else (all contacts gone) would be worthless.
    func expectRunning() {
        for contact in 0..<engine.contactCount {
            let key = ContactKey(device: DeviceID(1), contact: Int32(contact))
            switch engine.interaction(for: key)?.state {
            case .preview, .commit: break
            case let other: fatalError("benchmark contact \(contact) left its phase: \(String(describing: other))")
            }
        }
    }
}
