// swift-tools-version: 6.1
// Benchmarks live in their own package so the main build stays lean. One executable target
// per benchmark suite under Benchmarks/<Suite>/ (the layout ordo-one/benchmark's plugin expects);
// add a suite by adding a target like the one below. Run: scripts/bench (from the root).
import PackageDescription

/// A benchmark suite target with the boilerplate ordo-one/benchmark needs.
func suite(_ name: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: dependencies + [.product(name: "Benchmark", package: "benchmark")],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

let package = Package(
    name: "swift-preview-interaction-benchmarks",
    dependencies: [
        .package(name: "swift-preview-interaction", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The engine's per-sample cost in steady state (docs: BENCHMARKS.md).
        suite(
            "PreviewEngineBenchmarks",
            dependencies: [.product(name: "PreviewEngine", package: "swift-preview-interaction")]),
        // Recording reader + evdev decoder throughput (event lines per second), and the replay's
        // per-frame path (read, decoder lookup, decode, engine).
        suite(
            "RecordingBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "LibinputRecording", package: "swift-preview-interaction"),
                .product(name: "EvdevDecoder", package: "swift-preview-interaction"),
                .product(name: "InputEvents", package: "swift-preview-interaction"),
                .product(name: "PreviewEngine", package: "swift-preview-interaction"),
            ]),
        // The protocol layer's per-sample cost, with a real libwayland client (docs/protocol.md).
        suite(
            "ProtocolBenchmarks",
            dependencies: [
                .product(name: "PreviewEngine", package: "swift-preview-interaction"),
                .product(name: "PreviewProtocolServer", package: "swift-preview-interaction"),
                .product(name: "_PreviewProtocolTestSupport", package: "swift-preview-interaction"),
            ]),
        // peek-client's renderer: one frame per phase at 1280x800 (BENCHMARKS.md).
        suite(
            "PeekRenderBenchmarks",
            dependencies: [.product(name: "PeekUI", package: "swift-preview-interaction")]),
        // The compositor: composition, one pen event through InteractionHost, PNG (BENCHMARKS.md).
        suite(
            "CompositorBenchmarks",
            dependencies: [
                .product(name: "PreviewCompositor", package: "swift-preview-interaction"),
                .product(name: "EvdevDecoder", package: "swift-preview-interaction"),
                .product(name: "InputEvents", package: "swift-preview-interaction"),
                .product(name: "LibinputRecording", package: "swift-preview-interaction"),
                .product(name: "PreviewEngine", package: "swift-preview-interaction"),
            ]),
        // Shared by the suites and perf-probe: the replay's per-frame step.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "EvdevDecoder", package: "swift-preview-interaction"),
                .product(name: "InputEvents", package: "swift-preview-interaction"),
                .product(name: "LibinputRecording", package: "swift-preview-interaction"),
                .product(name: "PreviewEngine", package: "swift-preview-interaction"),
            ],
            path: "BenchmarkSupport"),
        // scripts/perf-compare's measured regions (callgrind collects one function each).
        .executableTarget(
            name: "perf-probe",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "EvdevDecoder", package: "swift-preview-interaction"),
                .product(name: "InputEvents", package: "swift-preview-interaction"),
                .product(name: "LibinputRecording", package: "swift-preview-interaction"),
                .product(name: "PreviewEngine", package: "swift-preview-interaction"),
            ],
            path: "PerfProbe"),
    ]
)
