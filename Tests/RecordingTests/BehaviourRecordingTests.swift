import EvdevDecoder
import InputEvents
import PreviewEngine
import ReplayTool
import Testing
import _FixtureTestSupport

/// Complete on release and the pressure behaviours on real pen recordings, through the
/// EvdevDecoder: what a user of those pens would get with these settings.
@Suite("Behaviours on real recordings")
struct BehaviourRecordingTests {
    /// What the engine said about one recording, a client accepting every should-begin at once.
    struct Run {
        var actions: [Action] = []
        /// When each contact ended, and its force just before.
        var ends: [Timestamp] = []

        var phases: [PhaseEvent] { actions.compactMap { if case .phase(let event, _) = $0 { event } else { nil } } }
        var stages: [UInt8] { phases.compactMap { if case .stage(let level) = $0 { level } else { nil } } }
        var asked: Int { actions.filter { if case .askShouldBegin = $0 { true } else { false } }.count }
    }

    static func run(
        _ file: String, configuration: EngineConfiguration = EngineConfiguration(),
        behaviour: PressureBehaviour = .deepClick
    ) throws -> Run {
        let events = try decodeAll(Fixtures.path(file)).events
        var engine = InteractionEngine(configuration: configuration)
        var run = Run()
        var timer: Timestamp?
        func perform(_ actions: Actions) {
            for action in actions {
                switch action {
                case .scheduleTimer(let time): timer = time
                case .askShouldBegin(let update):
                    run.actions.append(action)
                    perform(engine.clientAnswered(update.interaction, accept: true, at: update.time))
                case .phase: run.actions.append(action)
                }
            }
        }
        for event in events {
            while let due = timer, due <= event.time {
                timer = nil
                perform(engine.timerFired(at: due))
            }
            if case .contactEnded = event { run.ends.append(event.time) }
            if let actions = engine.apply(event, location: .zero, surface: SurfaceID(1), behaviour: behaviour) {
                perform(actions)
            }
        }
        var rounds = 0
        while let due = timer, rounds < 1_000 {
            rounds += 1
            timer = nil
            perform(engine.timerFired(at: due))
        }
        return run
    }

    static func time(of action: Action) -> Timestamp {
        switch action {
        case .askShouldBegin(let update), .phase(_, let update): update.time
        case .scheduleTimer: preconditionFailure("not recorded")
        }
    }

    /// Each interaction's stage levels, and how it ended.
    static func stagesByInteraction(_ run: Run) -> [String] {
        var lines: [InteractionID: String] = [:]
        var order: [InteractionID] = []
        for action in run.actions {
            guard case .phase(let event, let update) = action else { continue }
            if lines[update.interaction] == nil { order.append(update.interaction) }
            switch event {
            case .stage(let level): lines[update.interaction, default: ""] += "\(level) "
            case .completed: lines[update.interaction, default: ""] += "completed"
            case .cancelled(let reason): lines[update.interaction, default: ""] += "cancelled(\(reason))"
            case .previewBegan, .previewProgress, .previewEnded, .commitProgress:
                lines[update.interaction, default: ""] += "! \(event) "
            }
        }
        return order.map { lines[$0]! }
    }

    @Test("Complete on release: the Dell Canvas pen pops when it lifts, not when it reaches full force")
    func completeOnRelease() throws {
        let file = "dell-canvas-isdv4-pen.yml"
        let onForce = try Self.run(file)
        let onRelease = try Self.run(file, configuration: EngineConfiguration(completion: .onRelease))
        let popOnForce = try #require(
            onForce.actions.last { if case .phase(.completed, _) = $0 { true } else { false } })
        let popOnRelease = try #require(
            onRelease.actions.last { if case .phase(.completed, _) = $0 { true } else { false } })
        // The second stroke reaches full force at 6.82 s and lifts at 7.787 s.
        #expect(Self.time(of: popOnForce) < Timestamp(milliseconds: 6_900))
        #expect(Self.time(of: popOnRelease) == onRelease.ends.last, "the pop is the lift")
        #expect(onRelease.phases.filter { $0 == .completed }.count == 1)
        // Same preview and commit up to the pop: only when it completes differs.
        #expect(onRelease.phases.filter { $0 == .previewEnded }.count == 1)
        #expect(
            onForce.phases.first { $0.isFinal } == onRelease.phases.first { $0.isFinal },
            "the light first stroke cancels in both")
    }

    @Test("A quick lift falls from the release line to the lift well within the window on every pen")
    func quickLiftsFitTheWindow() throws {
        let line = Tuning(EngineConfiguration()).releaseLine
        let window = Tuning(EngineConfiguration()).releaseWindow
        var measured: [Int64] = []
        for file in [
            "wacom-dth2242-pen.yml", "dell-canvas-isdv4-pen.yml", "wacom-cintiq12wx-pen.yml",
            "wacom-cintiq13hd-pen.yml",
        ] {
            var lastAbove: Timestamp?
            var peak = 0.0
            for event in try decodeAll(Fixtures.path(file)).events {
                switch event {
                case .contactBegan(let contact), .contactChanged(let contact):
                    peak = max(peak, contact.force)
                    if contact.force >= line { lastAbove = contact.time }
                case .contactEnded(_, let time, _):
                    if peak >= Sensitivity.medium.thresholds.commit, let lastAbove {
                        measured.append((time - lastAbove).microseconds / 1_000)
                    }
                    (lastAbove, peak) = (nil, 0)
                default: break
                }
            }
        }
        // docs/state-machine.md quotes these: 10 to 35 ms, against a window of 100 ms.
        #expect(measured.sorted() == [10, 16, 20, 23, 34], "\(measured)")
        #expect(measured.allSatisfy { $0 * 1_000 < window.microseconds / 2 })
        // And every one of those strokes completes on release.
        for file in [
            "wacom-dth2242-pen.yml", "dell-canvas-isdv4-pen.yml", "wacom-cintiq12wx-pen.yml",
            "wacom-cintiq13hd-pen.yml",
        ] {
            let run = try Self.run(file, configuration: EngineConfiguration(completion: .onRelease))
            #expect(
                run.phases.filter { $0 == .previewEnded }.count == run.phases.filter { $0 == .completed }.count,
                "\(file)")
        }
    }

    @Test(
        "Accelerator: levels rise and fall with each pen stroke, one change per crossing",
        arguments: [
            (
                "wacom-dth2242-pen.yml",
                [
                    "1 2 1 completed", "1 completed", "1 completed", "1 2 3 2 1 completed", "1 completed",
                    "1 2 1 completed", "2 1 completed",
                ]
            ),
            ("dell-canvas-isdv4-pen.yml", ["1 completed", "1 2 3 2 1 completed"]),
            ("wacom-cintiq12wx-pen.yml", ["1 2 1 completed", "2 3 2 1 completed"]),
            ("uclogic-wp5540u-pen.yml", ["1 2 1 completed"]),
        ])
    func accelerator(file: String, expected: [String]) throws {
        let run = try Self.run(file, behaviour: .accelerator(stages: 3))
        #expect(Self.stagesByInteraction(run) == expected)
    }

    @Test("Accelerator: without hysteresis the UC-Logic pen would flip at stage 2's edge; with it, it does not")
    func noChatterOnARealPen() throws {
        var forces: [Double] = []
        for event in try decodeAll(Fixtures.path("uclogic-wp5540u-pen.yml")).events {
            if case .contactBegan(let contact) = event { forces.append(contact.force) }
            if case .contactChanged(let contact) = event { forces.append(contact.force) }
        }
        func changes(hysteresis: Double) -> Int {
            let levels = AcceleratorLevels(stages: 3, thresholds: Sensitivity.medium.thresholds, hysteresis: hysteresis)
            var level: UInt8 = 1
            var count = 0
            for force in forces {
                let next = levels.level(after: level, force: force)
                if next != level { (level, count) = (next, count + 1) }
            }
            return count
        }
        #expect(changes(hysteresis: 0) == 4, "the control: the raw force crosses the edge four times")
        #expect(changes(hysteresis: Sensitivity.hysteresis) == 2, "up once, down once")
    }

    @Test("Generic: the Dell Canvas pen's firm strokes ask nothing")
    func generic() throws {
        let file = "dell-canvas-isdv4-pen.yml"
        #expect(try Self.run(file).phases.contains(.completed), "the control: a deep click completes")
        let run = try Self.run(file, behaviour: .generic)
        #expect(run.asked == 0 && run.actions.isEmpty)
    }
}

/// The same through preview-replay's options, as a user would try them on their own recording.
@Suite("preview-replay --completion and --behaviour")
struct BehaviourReplayOptionTests {
    static func lines(_ arguments: [String]) throws -> [String] {
        let command = try PreviewReplayCommand.parse(arguments)
        var options = ReplayOptions()
        options.configuration = command.engine.configuration
        options.configuration.completion = command.completion
        options.behaviour = command.behaviour
        var out: [String] = []
        #expect(Replay.run(files: command.files, options: options, output: { out.append($0) }, error: { _ in }) == 0)
        return out
    }

    @Test("--completion on-release: the Dell Canvas pen's pop is at the lift")
    func completion() throws {
        let file = Fixtures.path("dell-canvas-isdv4-pen.yml")
        let completed = try Self.lines(["--completion", "on-release", file]).filter { $0.hasSuffix("completed") }
        #expect(completed.count == 1 && completed[0].contains("+7.787s"), "\(completed)")
    }

    @Test("--behaviour accelerator:3 prints the stages; generic prints no interaction")
    func behaviour() throws {
        let file = Fixtures.path("wacom-cintiq12wx-pen.yml")
        let stages = try Self.lines(["--behaviour", "accelerator:3", file]).compactMap { line in
            line.range(of: "stage ").map { line[$0.upperBound...] }
        }
        #expect(stages == ["1", "2", "1", "2", "3", "2", "1"])
        let generic = try Self.lines(["--behaviour", "generic", Fixtures.path("dell-canvas-isdv4-pen.yml")])
        #expect(generic == ["# 2 contact(s), 0 interaction(s), 0 completed, peak force 0.993, 7.936s"])
        #expect(throws: (any Error).self) { try PreviewReplayCommand.parse(["--behaviour", "accelerator:6", file]) }
    }
}
