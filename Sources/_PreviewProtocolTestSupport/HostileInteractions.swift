import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// A compositor that sends wire-valid but hostile sequences, for apps written with other
/// tooling (the GTK adapter's tests): once a surface's interaction takes a pen press at
/// `point`, it plays its scenario and prints what the app answered (`accepted N`,
/// `declined N`) on stdout.
/// - `press`: one press, answered (a toolkit window under absurd numbers still answers);
/// - `flood`: 10,000 presses it never ends, in batches of 100 (the next once the app answered
///   or cancelled each), then a fresh one;
/// - `cancelled-commit`: one press into its commit phase; when the app cancels it, its commit
///   and completed come anyway, twice; then a fresh press.
public final class HostileInteractions {
    public enum Scenario: String, Sendable {
        case press
        case flood
        case cancelledCommit = "cancelled-commit"
    }

    private let harness: ProtocolHarness
    private let scenario: Scenario
    private let point: Point
    private var surface: SurfaceID?
    private var next: UInt32 = 1
    /// The presses of the batch the app has not answered or cancelled yet.
    private var waiting: Set<UInt32> = []
    private let output: (String) -> Void

    public static let floodCount: UInt32 = 10_000

    public init(harness: ProtocolHarness, scenario: Scenario, at point: Point, output: @escaping (String) -> Void) {
        self.harness = harness
        self.scenario = scenario
        self.point = point
        self.output = output
        harness.compositor.onCommit = { [unowned self] surface in
            harness.server.surfaceCommitted(surface)
            self.committed(surface)
        }
        harness.react = { [unowned self] input in self.react(to: input) }
    }

    private func now() -> Timestamp { Timestamp(microseconds: harness.display.clock.microseconds()) }

    private func update(_ id: UInt32, progress: Double = 0) -> PhaseUpdate {
        PhaseUpdate(
            interaction: InteractionID(id), surface: surface ?? SurfaceID(0),
            contact: ContactKey(device: DeviceID(id)), time: now(), progress: progress, location: point,
            source: .pen, simulated: false)
    }

    private func committed(_ surface: SurfaceID) {
        guard self.surface == nil, harness.server.allowsInteraction(on: surface, at: point, source: .pen) else {
            return
        }
        self.surface = surface
        output("ready")
        switch scenario {
        case .flood: batch()
        case .press, .cancelledCommit: ask()
        }
    }

    private func ask() {
        let id = next
        next += 1
        waiting.insert(id)
        harness.server.perform(.askShouldBegin(update(id)))
    }

    private func batch() {
        if next > Self.floodCount {
            output("flooded")
            ask()  // the fresh press
            return
        }
        for _ in 0..<100 { ask() }
    }

    private func react(to input: PreviewClientInput) -> [Action] {
        switch input {
        case .answered(let interaction, let accept, _):
            let id = interaction.rawValue
            if scenario != .flood || id > Self.floodCount || id % 100 == 0 {
                output("\(accept ? "accepted" : "declined") \(id)")
            }
            settled(id)
            if scenario == .cancelledCommit && accept && id == 1 {
                // Into the commit phase, where the app cancels.
                return [
                    .phase(.previewBegan, update(id, progress: 0.25)), .phase(.previewEnded, update(id, progress: 1)),
                    .phase(.commitProgress, update(id, progress: 0.1)),
                ]
            }
            return []
        case .cancelled(let interaction, _):
            let id = interaction.rawValue
            settled(id)
            guard scenario == .cancelledCommit, id == 1 else { return [] }
            output("cancelled \(id)")
            // The compositor goes on with the press as if the cancel never came, twice.
            var actions: [Action] = []
            for _ in 0..<2 {
                actions.append(.phase(.commitProgress, update(id, progress: 0.5)))
                actions.append(.phase(.completed, update(id, progress: 1)))
            }
            // Then a fresh press.
            next = 3
            return actions + [.askShouldBegin(update(2))]
        case .surfaceDestroyed:
            return []
        }
    }

    private func settled(_ id: UInt32) {
        guard waiting.remove(id) != nil, waiting.isEmpty else { return }
        if scenario == .flood && next <= Self.floodCount + 1 { batch() }
    }
}
