// The protocol layer's cost per progress sample (PreviewInteractionServer.perform(.preview)),
// with a real libwayland client over a socketpair. 1000 samples per iteration
// (scalingFactor .kilo): times and malloc counts are per sample.
import Benchmark
import PreviewEngine
import PreviewProtocolServer
import _PreviewProtocolTestSupport

let benchmarks: @Sendable () -> Void = {
    let perSample = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 100_000)

    // The client owes an ack: every sample is coalesced in place (the stalled-client path
    // and the path between two acks). Our code only: no libwayland call.
    Benchmark("perform(.preview), coalesced while the client owes an ack", configuration: perSample) { benchmark in
        let fixture = try Fixture()
        fixture.interaction.autoAck(false)
        fixture.harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.1)))
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            fixture.harness.server.perform(.phase(.previewProgress, fixture.update(index)))
        }
        benchmark.stopMeasurement()
        fixture.check()
    }

    // Every sample sent: perform, flush, the client reads and acks, the server reads the ack.
    // Includes both ends of libwayland (which allocates a closure per message).
    Benchmark("perform(.preview), sent, read and acknowledged (both ends)", configuration: perSample) { benchmark in
        let fixture = try Fixture()
        let display = fixture.harness.display
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            fixture.harness.server.perform(.phase(.previewProgress, fixture.update(index)))
            display.flushClients()
            fixture.client.connection.pumpClientOnce()
            display.dispatch()
        }
        benchmark.stopMeasurement()
        fixture.check()
    }
}

/// One client with one accepted interaction in its preview phase.
final class Fixture {
    let harness: ProtocolHarness
    let client: PreviewClient
    let interaction: ClientInteraction

    init() throws {
        harness = try ProtocolHarness()
        client = try PreviewClient(harness)
        interaction = client.interaction(for: client.surface())
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        interaction.accept(1)
        client.roundtrip()
        interaction.clear()
    }

    func update(_ index: Int) -> PhaseUpdate {
        .test(1, progress: Double(index % 1000) / 1000, at: Point(x: Double(index % 300), y: 10))
    }

    func check() {
        interaction.autoAck(true)
        client.roundtrip()
        client.roundtrip()
        precondition(
            interaction.events.contains { if case .preview = $0 { true } else { false } }, "no progress arrived")
    }
}
