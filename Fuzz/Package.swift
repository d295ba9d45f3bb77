// swift-tools-version: 6.1
// libFuzzer targets, in their own package so the main build stays lean (like Benchmarks/).
// They are built with -sanitize=fuzzer,address and -parse-as-library (libFuzzer supplies
// main); run them with scripts/fuzz from the root. Seed corpora live in Corpus/<target>/.
import PackageDescription

// FuzzEmbedded drives the library through its C header only, so it runs against either build:
// the full-Swift CompositorModule linked in (the default), or the Embedded shared library that
// ships, instrumented, in the folder PREVIEW_FUZZ_EMBEDDED_LIBRARY names (scripts/fuzz --embedded
// builds it there with scripts/build-embedded --sanitize, which writes the header's module map).
let embeddedLibrary = Context.environment["PREVIEW_FUZZ_EMBEDDED_LIBRARY"]
let libraryUnderFuzz: [Target.Dependency] =
    embeddedLibrary == nil ? [.product(name: "CompositorModule", package: "swift-preview-interaction")] : []
let libraryFlags: [SwiftSetting] =
    embeddedLibrary.map {
        [.unsafeFlags(["-Xcc", "-fmodule-map-file=\($0)/preview-interaction/maps/CCompositorModule.modulemap"])]
    } ?? []
let libraryLinking: [LinkerSetting] =
    embeddedLibrary.map {
        [.linkedLibrary("preview-interaction"), .unsafeFlags(["-L", $0, "-Xlinker", "-rpath", "-Xlinker", $0])]
    } ?? []

let package = Package(
    name: "swift-preview-interaction-fuzz",
    dependencies: [
        .package(name: "swift-preview-interaction", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // A recording's bytes through the reader, the evdev decoder and the engine.
        .executableTarget(
            name: "FuzzRecording",
            dependencies: [
                .product(name: "LibinputRecording", package: "swift-preview-interaction"),
                .product(name: "EvdevDecoder", package: "swift-preview-interaction"),
                .product(name: "InputEvents", package: "swift-preview-interaction"),
                .product(name: "PreviewEngine", package: "swift-preview-interaction"), "FuzzSupport",
            ],
            path: "FuzzRecording"),
        // Sequences of client requests (core, xdg-shell, our extension) and input against an
        // in-process compositor, over a real socket in the Wayland wire format.
        .executableTarget(
            name: "FuzzCompositor",
            dependencies: [
                .product(name: "PreviewCompositor", package: "swift-preview-interaction"),
                .product(name: "EvdevDecoder", package: "swift-preview-interaction"),
                .product(name: "InputEvents", package: "swift-preview-interaction"),
                .product(name: "PreviewEngine", package: "swift-preview-interaction"),
                .product(name: "Logging", package: "swift-log"), "FuzzSupport", "FuzzInput",
            ],
            path: "FuzzCompositor"),
        // The client core's bookkeeping: compositor events in any order and the app's answers,
        // cancels and takes, against UIKit's order of calls per press.
        .executableTarget(
            name: "FuzzClientCore",
            dependencies: [.product(name: "PreviewClientCore", package: "swift-preview-interaction"), "FuzzSupport"],
            path: "FuzzClientCore"),
        // libpreview-interaction as a C compositor drives it (its C entry points, every callback
        // set), with a scripted version 1 or 2 client of the same display sending every request;
        // either build of it (above).
        .executableTarget(
            name: "FuzzEmbedded",
            dependencies: libraryUnderFuzz + [
                .product(name: "_PreviewProtocolTestSupport", package: "swift-preview-interaction"), "FuzzSupport",
                "FuzzInput",
            ],
            path: "FuzzEmbedded", swiftSettings: libraryFlags, linkerSettings: libraryLinking),
        // preview-lookup's stand-in for FuzzEmbedded: hands its channel to the fuzzer, makes a panel.
        .executableTarget(
            name: "FuzzLookupStandIn", path: "FuzzLookupStandIn",
            linkerSettings: [.linkedLibrary("wayland-client")]),
        // Look Up's session (every host's) driven in any order, with preview-lookup's answers as
        // bytes on its channel through the library's frame reader and decoder.
        .executableTarget(
            name: "FuzzLookup",
            dependencies: [
                .product(name: "PreviewProtocolServer", package: "swift-preview-interaction"),
                .product(name: "PreviewEngine", package: "swift-preview-interaction"), "FuzzSupport", "FuzzInput",
            ],
            path: "FuzzLookup"),
        // A fuzz input read as a script of choices (every Swift target's reader).
        .target(name: "FuzzInput", path: "FuzzInput"),
        // libFuzzer's driver; sending fds over the client socket (SCM_RIGHTS), memfds for wl_shm pools.
        .target(name: "FuzzSupport", path: "FuzzSupport", linkerSettings: [.linkedLibrary("wayland-server")]),
    ]
)
