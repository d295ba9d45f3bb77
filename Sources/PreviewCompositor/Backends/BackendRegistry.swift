/// One command-line option of a backend (`--name`, `--name <value>` or `--name <value> ...`).
public struct BackendOption: Sendable {
    public enum Value: Sendable {
        /// A flag.
        case none
        /// One value, named in the help.
        case one(String)
        /// Values up to the next option.
        case many(String)
    }

    /// Without the leading `--`.
    public let name: String
    public let value: Value
    public let help: String

    public init(_ name: String, value: Value = .none, help: String) {
        self.name = name
        self.value = value
        self.help = help
    }

    var usage: String {
        switch value {
        case .none: "--\(name)"
        case .one(let valueName): "--\(name) <\(valueName)>"
        case .many(let valueName): "--\(name) <\(valueName)> ..."
        }
    }
}

/// What the command line gave one backend: its options by name.
public struct BackendArguments: Sendable {
    var given: [String: [String]] = [:]

    public init(_ given: [String: [String]] = [:]) { self.given = given }

    public func flag(_ name: String) -> Bool { given[name] != nil }
    public func value(_ name: String) -> String? { given[name]?.last }
    public func values(_ name: String) -> [String] { given[name] ?? [] }

    /// `--name`'s whole number within `range` (`fallback` when not given), or a usage error that
    /// says the range.
    public func integer(_ name: String, in range: ClosedRange<Int>, fallback: Int) throws(BackendUsageError) -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw BackendUsageError(
                "--\(name) must be within \(range.lowerBound)...\(range.upperBound), got \(text)")
        }
        return number
    }
}

/// A command line the registry cannot make backends of: one line for the user.
public struct BackendUsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A backend as the command line knows it: its name, what it is, its options, and how those
/// options make the configuration's selection (which makes the backend when the compositor
/// starts). Lives in the backend's folder, next to the backend.
public struct BackendDescriptor<Selection: Sendable>: Sendable {
    public let name: String
    public let help: String
    public let options: [BackendOption]
    /// Outputs: whether this one is the default in an environment (the first output is the
    /// default when none says so). Inputs are never chosen by default.
    public let isDefault: @Sendable ([String: String]) -> Bool
    public let select: @Sendable (BackendArguments) throws(BackendUsageError) -> Selection

    public init(
        name: String, help: String, options: [BackendOption] = [],
        isDefault: @escaping @Sendable ([String: String]) -> Bool = { _ in false },
        select: @escaping @Sendable (BackendArguments) throws(BackendUsageError) -> Selection
    ) {
        self.name = name
        self.help = help
        self.options = options
        self.isDefault = isDefault
        self.select = select
    }

    /// The option named after the backend (`--replay`, `--libinput`) also selects it.
    var selectingOption: BackendOption? { options.first { $0.name == name } }
}

public typealias InputBackendDescriptor = BackendDescriptor<CompositorConfiguration.InputSelection>
public typealias OutputBackendDescriptor = BackendDescriptor<CompositorConfiguration.OutputSelection>

/// The backends the command line offers, and their options: `preview-compositor` parses its
/// backend options here and shows `helpText` in --help and the man page. `standard` lists the
/// project's backends; a host (or a test) adds its own with `add`.
public struct BackendRegistry: Sendable {
    public typealias Selections = (
        input: CompositorConfiguration.InputSelection, output: CompositorConfiguration.OutputSelection
    )

    public private(set) var inputs: [InputBackendDescriptor]
    public private(set) var outputs: [OutputBackendDescriptor]

    public init(inputs: [InputBackendDescriptor], outputs: [OutputBackendDescriptor]) {
        self.inputs = []
        self.outputs = []
        for input in inputs { add(input) }
        for output in outputs { add(output) }
    }

    public mutating func add(_ input: InputBackendDescriptor) {
        precondition(isNew(input.name, input.options), "input backend \(input.name) clashes with a registered name")
        inputs.append(input)
    }

    public mutating func add(_ output: OutputBackendDescriptor) {
        precondition(isNew(output.name, output.options), "output backend \(output.name) clashes with a registered name")
        outputs.append(output)
    }

    private func isNew(_ name: String, _ options: [BackendOption]) -> Bool {
        let names = Set((inputs.map(\.name) + outputs.map(\.name)))
        let taken = Set((inputs.flatMap(\.options) + outputs.flatMap(\.options)).map(\.name))
        return !names.contains(name) && taken.isDisjoint(with: options.map(\.name))
    }

    /// The backends a command line selects. The output: `output` (--backend NAME), else the first
    /// one that is the default in `environment`, else the first. The input: `input` (--input
    /// NAME) or the option named after it (--replay FILE..., --libinput), else none. `arguments`
    /// are the backends' options; each must belong to a selected backend.
    public func select(
        output: String?, input: String?, arguments: [String], environment: [String: String]
    ) throws(BackendUsageError) -> Selections {
        let given = try parse(arguments)
        let outputIndex: Int
        if let output {
            guard let index = outputs.firstIndex(where: { $0.name == output }) else {
                throw BackendUsageError("--backend must be \(Self.list(outputs.map(\.name))), got \(output)")
            }
            outputIndex = index
        } else {
            outputIndex = outputs.firstIndex { $0.isDefault(environment) } ?? 0
        }
        var chosen = inputs.indices.filter { index in
            inputs[index].selectingOption.map { given[$0.name] != nil } ?? false
        }.map { (index: $0, by: "--\(inputs[$0].name)") }
        if let input {
            guard let index = inputs.firstIndex(where: { $0.name == input }) else {
                throw BackendUsageError("--input must be \(Self.list(inputs.map(\.name))), got \(input)")
            }
            if !chosen.contains(where: { $0.index == index }) { chosen.insert((index, "--input \(input)"), at: 0) }
        }
        if chosen.count > 1 { throw BackendUsageError("\(chosen[0].by) and \(chosen[1].by) are exclusive") }
        let inputIndex = chosen.first?.index
        for (name, _) in given.sorted(by: { $0.key < $1.key }) {
            if outputs[outputIndex].options.contains(where: { $0.name == name }) { continue }
            if let inputIndex, inputs[inputIndex].options.contains(where: { $0.name == name }) { continue }
            if let owner = inputs.first(where: { $0.options.contains { $0.name == name } }) {
                throw BackendUsageError("--\(name) only applies to the \(owner.name) input (\(Self.selection(owner)))")
            }
            let owner = outputs.first { $0.options.contains { $0.name == name } }
            throw BackendUsageError("--\(name) only applies to --backend \(owner?.name ?? "?")")
        }
        func options<S>(of descriptor: BackendDescriptor<S>) -> BackendArguments {
            BackendArguments(given.filter { name, _ in descriptor.options.contains { $0.name == name } })
        }
        let outputSelection = try outputs[outputIndex].select(options(of: outputs[outputIndex]))
        guard let inputIndex else { return (.none, outputSelection) }
        return (try inputs[inputIndex].select(options(of: inputs[inputIndex])), outputSelection)
    }

    /// Splits the backends' options by name (`--name value`, `--name=value`, `--name v1 v2`).
    private func parse(_ arguments: [String]) throws(BackendUsageError) -> [String: [String]] {
        let options = inputs.flatMap(\.options) + outputs.flatMap(\.options)
        var given: [String: [String]] = [:]
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            guard token.hasPrefix("--") else { throw BackendUsageError("Unexpected argument '\(token)'") }
            var name = String(token.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw BackendUsageError("Unknown option '--\(name)'")
            }
            var values = given[name] ?? []
            switch option.value {
            case .none:
                if inline != nil { throw BackendUsageError("--\(name) takes no value") }
            case .one(let valueName):
                if let inline {
                    values.append(inline)
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw BackendUsageError("Missing value for '--\(name) <\(valueName)>'")
                    }
                    values.append(arguments[index])
                    index += 1
                }
            case .many(let valueName):
                if let inline { values.append(inline) }
                while index < arguments.count, !arguments[index].hasPrefix("--") {
                    values.append(arguments[index])
                    index += 1
                }
                if values.isEmpty { throw BackendUsageError("Missing value for '--\(name) <\(valueName)> ...'") }
            }
            given[name] = values
        }
        return given
    }

    /// What --help and the man page say of the backends: every name, what it is, its options
    /// (a paragraph per backend; its options indented, a line each in the man page too).
    public var helpText: String {
        func paragraph<S>(_ backend: BackendDescriptor<S>) -> String {
            (["\(backend.name): \(backend.help)"] + backend.options.map { "  \($0.usage): \($0.help)" })
                .joined(separator: "\n")
        }
        let sections = [
            ["Outputs (--backend NAME):"] + outputs.map { paragraph($0) },
            ["Inputs (--input NAME, or the option named after the input):"] + inputs.map { paragraph($0) },
        ]
        return sections.map { $0.joined(separator: "\n\n") }.joined(separator: "\n\n")
    }

    private static func selection(_ input: InputBackendDescriptor) -> String {
        input.selectingOption.map { "--\($0.name)" } ?? "--input \(input.name)"
    }

    private static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
