// swift-tools-version: 6.1
// The folder tree is the architecture; docs/ARCHITECTURE.md draws the data flow.
import PackageDescription

let package = Package(
    name: "swift-preview-interaction",
    products: [
        .executable(name: "preview-replay", targets: ["preview-replay"]),
        .executable(name: "preview-compositor", targets: ["preview-compositor"]),
        .executable(name: "peek-client", targets: ["peek-client"]),
        .executable(name: "preview-demo", targets: ["preview-demo"]),
        .executable(name: "minimal-preview-app", targets: ["minimal-preview-app"]),
        .executable(name: "preview-lookup", targets: ["preview-lookup"]),
        .library(name: "PreviewEngine", targets: ["PreviewEngine"]),
        // For apps: UIPreviewInteraction's API over the protocol (client side).
        .library(name: "PreviewInteraction", targets: ["PreviewInteraction"]),
        // The client core alone (for the fuzz targets).
        .library(name: "PreviewClientCore", targets: ["PreviewClientCore"]),
        // libpreview-interaction's implementation as a static library (for the fuzz targets).
        .library(name: "CompositorModule", targets: ["CompositorModule"]),
        // The input vocabulary, the recording reader and evdev decoder, for the benchmarks package (Benchmarks/).
        .library(name: "InputEvents", targets: ["InputEvents"]),
        .library(name: "EvdevDecoder", targets: ["EvdevDecoder"]),
        .library(name: "LibinputRecording", targets: ["LibinputRecording"]),
        .library(name: "PreviewCompositor", targets: ["PreviewCompositor"]),
        // For the benchmarks (and other layers' tests): the protocol server and its test support
        // (a leading underscore, as swift-syntax's _SwiftSyntaxTestSupport: not API).
        .library(name: "PreviewProtocolServer", targets: ["PreviewProtocolServer"]),
        .library(name: "_PreviewProtocolTestSupport", targets: ["_PreviewProtocolTestSupport"]),
        // peek-client's renderer, for the benchmarks package.
        .library(name: "PeekUI", targets: ["PeekUI"]),
        // libpreview-interaction.so: the module other compositors load (C API, docs/embedding.md).
        .library(name: "preview-interaction", type: .dynamic, targets: ["CompositorModule"]),
        // libpreview-interaction-client.so: the client library for C apps and toolkit adapters.
        .library(name: "preview-interaction-client", type: .dynamic, targets: ["ClientLibrary"]),
        // LD_PRELOAD'ed after umockdev's preload to close its fstat gap (docs/testing.md).
        .library(name: "umockdev-fstat-shim", type: .dynamic, targets: ["UmockdevFstatShim"]),
        // The compositor as a WLCS integration module (scripts/conformance, docs/conformance.md).
        .library(name: "preview-compositor-wlcs", type: .dynamic, targets: ["PreviewCompositorWLCS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // The general YAML reader behind the streaming one, for recordings in another layout.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // MARK: Core: pure Swift, no C, no Foundation.
        .target(name: "PreviewEngine"),
        // The libraries' log: levels and a sink the embedding program connects (no logging package,
        // so the C libraries log the same way); PreviewLogging connects it to swift-log for the tools.
        .target(name: "PreviewLog"),
        .target(
            name: "PreviewLogging", dependencies: ["PreviewLog", .product(name: "Logging", package: "swift-log")]),
        // The system layer: the one monotonic clock, timer rounding, errno text, shared memory,
        // child processes (libc only; CSystemLayer reaches the Linux calls Swift's Glibc lacks).
        .target(name: "CSystemLayer"),
        .target(name: "SystemLayer", dependencies: ["CSystemLayer"]),

        // MARK: Input: the vocabulary every layer shares (DeviceEvent, contacts, keys, haptic moments).
        // The kernel's event codes (linux/input-event-codes.h), header only.
        .systemLibrary(name: "CInputEventCodes"),
        .target(name: "InputEvents", dependencies: ["PreviewEngine", "CInputEventCodes"]),
        // MARK: Input: evdev frames and recordings.
        .target(name: "EvdevDecoder", dependencies: ["PreviewEngine", "InputEvents", "CInputEventCodes"]),
        .target(
            name: "LibinputRecording",
            dependencies: [
                "EvdevDecoder", "InputEvents", "PreviewEngine", "SystemLayer", .product(name: "Yams", package: "Yams"),
            ]),
        .target(name: "PreviewTrace", dependencies: ["PreviewEngine"]),
        // What every command-line tool shares: --version, --sensitivity, --long-press.
        .target(
            name: "ToolOptions",
            dependencies: ["PreviewEngine", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The replay library: recordings through decoder and engine into a trace (the demo's too).
        .target(
            name: "RecordingReplay",
            dependencies: [
                "PreviewEngine", "InputEvents", "LibinputRecording", "PreviewTrace", "SystemLayer",
                // preview-replay runs on the host core, as every host does.
                "PreviewProtocolServer", "WaylandServer", "PreviewLog",
            ]),
        // preview-replay's command: files, live libinput, the real libinput on a umockdev testbed.
        .target(
            name: "ReplayTool",
            dependencies: [
                "RecordingReplay", "PreviewEngine", "EvdevDecoder", "InputEvents", "LibinputRecording", "PreviewTrace",
                "UmockdevHarness", "ToolOptions", "LibinputBackend", "SystemLayer", "PreviewLog", "PreviewLogging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(name: "preview-replay", dependencies: ["ReplayTool"]),

        // MARK: Input: the real libinput.
        .target(name: "CLibinput", linkerSettings: [.linkedLibrary("input"), .linkedLibrary("udev")]),
        .target(
            name: "LibinputBackend",
            dependencies: [
                "CLibinput", "PreviewEngine", "EvdevDecoder", "InputEvents", "SystemLayer", "PreviewLog",
            ]),
        .target(name: "UmockdevFstatShim", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "UmockdevHarness",
            dependencies: [
                "LibinputRecording", "EvdevDecoder", "InputEvents", "LibinputBackend", "PreviewEngine", "SystemLayer",
            ]),
        // Runs LibinputBackend inside the umockdev testbed (re-executed by UmockdevHarness).
        .executableTarget(
            name: "libinput-testbed-runner",
            dependencies: [
                "UmockdevHarness", "LibinputBackend", "InputEvents", "SystemLayer", "LibinputRecording", "EvdevDecoder",
                "PreviewEngine",
                // --haptics: the host core, as preview-compositor runs it.
                "PreviewProtocolServer",
                // --embedded: the C library as a host drives it, with a client of the mini compositor.
                "CompositorModule", "CCompositorModule", "_PreviewProtocolTestSupport", "WaylandServer",
                "CWaylandClient", "CWaylandServer", "PreviewLog", "PreviewLogging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Wayland: the C bridge, our protocol's server side, the compositor.
        .target(name: "CWaylandProtocols"),
        .target(
            name: "CWaylandServer", dependencies: ["CWaylandProtocols"],
            linkerSettings: [.linkedLibrary("wayland-server")]),
        .target(
            name: "CWaylandClient", dependencies: ["CWaylandProtocols"],
            linkerSettings: [.linkedLibrary("wayland-client")]),
        .target(name: "WaylandServer", dependencies: ["CWaylandServer", "SystemLayer"]),
        // The client's bookkeeping, shared by the Swift and C libraries: pure, no C.
        .target(name: "PreviewClientCore"),
        // The client library apps use (UIPreviewInteraction's API); its own reading thread.
        // The client side's Wayland objects, shared by the Swift and the C client libraries.
        .target(name: "PreviewClientWire", dependencies: ["PreviewClientCore", "CWaylandClient", "SystemLayer"]),
        .target(
            name: "PreviewInteraction",
            dependencies: ["PreviewClientCore", "PreviewClientWire", "CWaylandClient", "SystemLayer"]),
        .target(
            name: "PreviewProtocolServer",
            dependencies: [
                "WaylandServer", "CWaylandServer", "PreviewEngine", "InputEvents", "SystemLayer", "PreviewLog",
            ]),
        // Test support: a minimal wl_compositor + the global, and a scripted server for pywayland.
        .target(
            name: "_PreviewProtocolTestSupport",
            dependencies: [
                "PreviewProtocolServer", "WaylandServer", "CWaylandServer", "CWaylandClient", "PreviewEngine",
                "SystemLayer",
            ]),
        .executableTarget(
            name: "preview-protocol-test-server",
            dependencies: ["_PreviewProtocolTestSupport", "WaylandServer", "PreviewEngine", "SystemLayer"]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CWaylandCursor", pkgConfig: "wayland-cursor", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CXkbcommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        // The window on a parent compositor, client side: connection, toplevel, shm buffers,
        // the parent's seat as DeviceEvents (Backends/Wayland plugs it into the compositor).
        .systemLibrary(name: "CWaylandLibdecor", pkgConfig: "libdecor-0", providers: [.apt(["libdecor-0-dev"])]),
        .target(
            name: "WaylandWindow",
            dependencies: [
                "CWaylandClient", "CWaylandLibdecor", "CWaylandProtocols", "CPixman", "PreviewEngine", "InputEvents",
                "SystemLayer",
            ]),
        .target(
            name: "PreviewCompositor",
            dependencies: [
                "WaylandServer", "CWaylandServer", "PreviewProtocolServer", "PreviewEngine", "InputEvents",
                "LibinputRecording", "LibinputBackend", "PreviewTrace", "CPixman", "CPNG", "CXkbcommon", "SystemLayer",
                // The window backend's client side (its parent compositor's connection).
                "WaylandWindow", "PreviewLog", "PreviewLogging",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // WLCS loads the compositor in-process: the C structs it calls through, and their Swift side.
        .target(name: "CWaylandWLCS", linkerSettings: [.linkedLibrary("wayland-client")]),
        .target(
            name: "PreviewCompositorWLCS",
            dependencies: [
                "CWaylandWLCS", "PreviewCompositor", "WaylandServer", "PreviewEngine", "SystemLayer",
                .product(name: "Logging", package: "swift-log"),
            ],
            // WLCS unloads the module at exit while the last compositor thread may still be
            // unwinding (Foundation's Thread cannot be joined): keep the code mapped.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete"])]),
        // MARK: The C library for other compositors: the header (C target) and its Swift implementation.
        .target(name: "CCompositorModule"),
        // The Swift runtime inside a C library leaves its host's crash handling alone.
        .target(name: "CLibraryRuntime"),
        .target(
            name: "CompositorModule",
            dependencies: [
                "CCompositorModule", "CLibraryRuntime", "WaylandServer", "CWaylandServer", "PreviewProtocolServer",
                "PreviewEngine", "LibinputBackend", "EvdevDecoder", "InputEvents", "SystemLayer", "PreviewLog",
            ]),
        // MARK: The C library for apps and toolkits: the header (C target) and its Swift implementation.
        .target(name: "CClientLibrary"),
        .target(
            name: "ClientLibrary",
            dependencies: [
                "CClientLibrary", "CLibraryRuntime", "PreviewClientCore", "PreviewClientWire", "CWaylandClient",
                "SystemLayer",
            ]),
        .executableTarget(
            name: "preview-compositor",
            dependencies: [
                "PreviewCompositor", "PreviewProtocolServer", "ToolOptions", "LibinputBackend", "SystemLayer",
                "PreviewEngine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Look Up: the process the compositor asks what is under a firm press (AT-SPI, WordNet).
        .systemLibrary(name: "CAtspi", pkgConfig: "atspi-2", providers: [.apt(["libatspi2.0-dev"])]),
        .systemLibrary(
            name: "CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(name: "CGioUnix", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .executableTarget(
            name: "preview-lookup", dependencies: ["CAtspi", "CPangoCairo", "CCairo", "CGdkPixbuf", "CGioUnix"],
            linkerSettings: [
                .linkedLibrary("wayland-client"), .linkedLibrary("wordnet"), .linkedLibrary("phonenumber"),
                .linkedLibrary("protobuf"),
            ]),

        // MARK: The sample client (examples/).
        // Optimised in debug builds too: the end-to-end tests photograph peek-client drawing in
        // real time (a pen press lasts ~100 ms), and an unoptimised renderer falls frames behind.
        .target(
            name: "PeekUI", dependencies: ["CCairo", "CPangoCairo", "CPixman"], path: "examples/peek-client/PeekUI",
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .executableTarget(
            name: "peek-client",
            dependencies: [
                "PeekUI", "PreviewInteraction", "CWaylandClient", "CWaylandCursor", "CCairo", "CInputEventCodes",
                "ToolOptions", "SystemLayer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "examples/peek-client/App"),

        // The smallest app on the library: one pressable item in a wl_shm window.
        .executableTarget(
            name: "minimal-preview-app",
            dependencies: [
                "PreviewInteraction", "CWaylandClient", "ToolOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "examples/minimal-preview-app"),

        // MARK: The demo: live view, plot and report over a compositor run (scripts/demo).
        // The real recordings (the tests' fixtures too) as resources, so the demo runs from anywhere.
        .target(name: "BundledRecordings", resources: [.copy("recordings")]),
        .target(
            name: "DemoReport",
            dependencies: [
                "PreviewTrace", "PreviewEngine", "EvdevDecoder", "LibinputRecording", "RecordingReplay", "CCairo",
                "SystemLayer",
            ]),
        .executableTarget(
            name: "preview-demo",
            dependencies: [
                "DemoReport", "PreviewTrace", "PreviewEngine", "ToolOptions", "BundledRecordings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: Tests, one target per layer, plus end to end.
        .target(
            name: "_FixtureTestSupport", dependencies: ["SystemLayer", "CCairo"], path: "Tests/_FixtureTestSupport"),
        .testTarget(
            name: "PreviewEngineTests",
            dependencies: ["PreviewEngine", .product(name: "PropertyBased", package: "swift-property-based")]),
        // The system layer alone, and the rules that keep system calls in it and the layering
        // as the table says (rules/: the allow-list and the layer table, read from the tree).
        .testTarget(name: "SystemLayerTests", dependencies: ["SystemLayer"]),
        // The window on a parent compositor (client side), against our compositor as the parent.
        .testTarget(
            name: "WaylandWindowTests",
            dependencies: [
                "_FixtureTestSupport", "WaylandWindow", "PreviewCompositor", "PreviewEngine", "EvdevDecoder", "CPixman",
                "SystemLayer",
            ]),
        .testTarget(
            name: "RecordingTests",
            dependencies: [
                "_FixtureTestSupport", "LibinputRecording", "EvdevDecoder", "InputEvents", "ReplayTool", "PreviewTrace",
                "SystemLayer",
            ]),
        .testTarget(
            name: "LibinputBackendTests",
            dependencies: [
                "_FixtureTestSupport",
                "LibinputBackend", "UmockdevHarness", "ReplayTool", "LibinputRecording", "EvdevDecoder", "InputEvents",
                "PreviewTrace", "PreviewLog", "PreviewLogging",
                "SystemLayer", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ProtocolTests",
            dependencies: [
                "PreviewProtocolServer", "WaylandServer", "CWaylandClient", "_PreviewProtocolTestSupport",
                "preview-protocol-test-server", "SystemLayer", "InputEvents",
            ]),
        .testTarget(
            name: "CompositorTests",
            dependencies: [
                "_FixtureTestSupport", "PreviewCompositor", "WaylandWindow", "CWaylandClient", "CPNG", "CPixman",
                "PreviewEngine", "InputEvents",
                "preview-compositor", "peek-client", "_PreviewProtocolTestSupport", "WaylandServer", "SystemLayer",
            ]),
        .testTarget(
            name: "PeekUITests",
            dependencies: [
                "PeekUI", "CCairo", "_PreviewProtocolTestSupport", "PreviewProtocolServer", "PreviewEngine",
                "WaylandServer",
                "peek-client", "SystemLayer",
            ]),
        // WLCS against the compositor (scripts/conformance).
        .testTarget(name: "ConformanceTests", dependencies: ["SystemLayer"]),
        .testTarget(
            name: "PreviewInteractionTests",
            dependencies: [
                "_FixtureTestSupport", "PreviewInteraction", "PreviewClientCore", "PreviewClientWire", "ClientLibrary",
                "CClientLibrary",
                "_PreviewProtocolTestSupport", "PreviewProtocolServer", "PreviewEngine", "WaylandServer",
                "CWaylandClient", "SystemLayer", .product(name: "Logging", package: "swift-log"),
                // Run as processes by RealCompositorTests.
                "preview-compositor", "minimal-preview-app",
            ]),
        .testTarget(
            name: "DemoReportTests",
            dependencies: ["_FixtureTestSupport", "DemoReport", "PreviewTrace", "ReplayTool", "CCairo"]),
        // The C libraries: their error paths under ASan (Tests/capi, Tests/capi-client), and the wlroots compositor
        // (examples/wlroots-compositor) that uses it, both built with make against this build.
        .testTarget(
            name: "EmbeddingTests",
            dependencies: [
                "_FixtureTestSupport", "DemoReport", "PreviewTrace", "PreviewEngine", "CompositorModule",
                "preview-compositor", "preview-replay", "peek-client",
                // The client library's C tests (Tests/capi-client) run against the scripted server.
                "ClientLibrary", "preview-protocol-test-server", "SystemLayer",
                // The library in process, with real clients of the mini compositor.
                "_PreviewProtocolTestSupport", "PreviewProtocolServer", "WaylandServer", "CWaylandClient",
                "CWaylandServer", "CCompositorModule",
            ]),
        // Whole runs: preview-compositor + peek-client + recordings, the demo, the real libinput.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "_FixtureTestSupport",
                "DemoReport", "PreviewTrace", "PreviewEngine", "ReplayTool", "UmockdevHarness", "CCairo",
                "InputEvents",
                "PreviewProtocolServer", "_PreviewProtocolTestSupport", "WaylandServer", "CWaylandClient",
                "preview-demo", "preview-compositor", "peek-client", "preview-replay", "minimal-preview-app", "PeekUI",
                "preview-lookup",
                "ToolOptions", "SystemLayer",
                // In-process runs (two windows, the real libinput's events) use the library itself.
                "PreviewCompositor",
            ]),
    ]
)
