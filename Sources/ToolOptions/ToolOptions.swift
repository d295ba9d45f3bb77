import ArgumentParser
import PreviewEngine

/// What every command-line tool of the project shares, so a setting has one name everywhere.
public enum ToolVersion {
    /// Printed by `--version` of every tool.
    public static let current = "0.1.0"
}

extension Sensitivity: ExpressibleByArgument {}
extension LongPressDuration: ExpressibleByArgument {}
/// `--completion on-force|on-release`.
extension Completion: ExpressibleByArgument {}

/// `--behaviour deep-click|generic|accelerator:N` (N from 2 to 5 stages).
extension PressureBehaviour: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "deep-click": self = .deepClick
        case "generic": self = .generic
        default:
            guard argument.hasPrefix("accelerator:"), let stages = UInt8(argument.dropFirst("accelerator:".count)),
                PressureBehaviour.stageRange.contains(stages)
            else { return nil }
            self = .accelerator(stages: stages)
        }
    }

    public var defaultValueDescription: String {
        switch self {
        case .deepClick: "deep-click"
        case .generic: "generic"
        case .accelerator(let stages): "accelerator:\(stages)"
        }
    }
}

/// The user's settings for the engine (`--sensitivity`, `--long-press`), the same options in
/// every tool that runs the engine. `--preset` is the old name of `--sensitivity` in
/// `preview-replay`, still accepted, not shown.
public struct EngineSettings: ParsableArguments {
    @Option(help: "How firmly a press must push to preview and to commit: light, medium or firm.")
    public var sensitivity: Sensitivity = .medium

    @Option(
        name: .customLong("long-press"),
        help:
            "How long a press without force (mouse, touchpads and screens without pressure) is held: fast, default or slow."
    )
    public var longPress: LongPressDuration = .default

    @Option(help: .hidden)
    public var preset: Sensitivity?

    public init() {}

    public var configuration: EngineConfiguration {
        EngineConfiguration(sensitivity: preset ?? sensitivity, longPress: longPress)
    }

    public func validate() throws {
        if let preset, preset != sensitivity, sensitivity != .medium {
            throw ValidationError("--preset is the old name of --sensitivity: give one of them")
        }
    }
}
