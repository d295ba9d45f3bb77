import PreviewEngine
import Testing

/// The engine's invariant checks (`EngineFault`) guard states no input sequence can reach: hosts
/// route inputs through `InteractionEngine`, which ignores unknown contacts and interactions and
/// drops a machine once its contact ended. Here every public input comes in any order, with
/// any values a device, a file or a client could produce (NaN and infinite forces, times at
/// both ends of the clock, duplicates, unknown ids, answers given in-line), and nothing traps
/// nor breaks an invariant.
@Suite("Engine: hostile input sequences")
struct EngineHostileInputTests {
    /// SplitMix64: a reproducible sequence per seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let forces: [Double] = [
        .nan, .infinity, -.infinity, -1, 0, 0.05, 0.12, 0.3, 0.55, 0.88, 1, 1.5, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude,
    ]

    @Test(
        "100,000 random inputs per seed, any order and any values: no trap, one terminal event each", arguments: 1...8)
    func randomSequences(seed: UInt64) {
        var random = Generator(state: seed)
        var engine = InteractionEngine()
        var asked: [InteractionID] = []
        var terminated: Set<InteractionID> = []
        var now: Int64 = 0
        var timer: Timestamp?

        func time() -> Timestamp {
            switch random.next() % 16 {
            case 0: return Timestamp(microseconds: .min)
            case 1: return Timestamp(microseconds: .max)
            case 2: return Timestamp(microseconds: Int64.random(in: .min ... .max, using: &random))
            case 3: return Timestamp(microseconds: now - Int64.random(in: 0...1_000_000, using: &random))
            default:
                now = now &+ Int64.random(in: 0...20_000, using: &random)
                return Timestamp(microseconds: now)
            }
        }
        func contact() -> ContactKey {
            ContactKey(
                seat: UInt32(random.next() % 2), device: DeviceID(UInt32(random.next() % 3)),
                contact: Int32(truncatingIfNeeded: random.next() % 4) - 1)
        }
        func interaction() -> InteractionID {
            if !asked.isEmpty, random.next() % 4 != 0 { return asked.randomElement(using: &random)! }
            return InteractionID(UInt32(truncatingIfNeeded: random.next()))
        }
        func sample() -> ForceSample {
            ForceSample(
                time: time(), force: Self.forces.randomElement(using: &random)!,
                location: Point(x: Self.forces.randomElement(using: &random)!, y: Double(random.next() % 500)),
                source: InputSource.allCases.randomElement(using: &random)!, simulated: random.next() % 2 == 0,
                contact: contact())
        }
        func perform(_ actions: Actions, depth: Int = 0) {
            #expect(engine.fault == nil, "\(String(describing: engine.fault))")
            #expect(actions.dropped == 0)
            for action in actions {
                switch action {
                case .scheduleTimer(let due): timer = due
                case .askShouldBegin(let update):
                    asked.append(update.interaction)
                    // Some hosts answer in-line, from inside the action loop.
                    if depth < 3, random.next() % 3 == 0 {
                        perform(
                            engine.clientAnswered(update.interaction, accept: random.next() % 2 == 0, at: update.time),
                            depth: depth + 1)
                    }
                case .phase(let event, let update) where event.isFinal:
                    #expect(!terminated.contains(update.interaction), "two terminal events for \(update.interaction)")
                    terminated.insert(update.interaction)
                case .phase(_, let update):
                    #expect(!terminated.contains(update.interaction), "an event after the end of \(update.interaction)")
                    #expect(update.progress >= 0 && update.progress <= 1, "progress \(update.progress)")
                }
            }
        }

        for _ in 0..<100_000 {
            switch random.next() % 12 {
            case 0, 1:
                let surface = random.next() % 5 == 0 ? nil : SurfaceID(random.next() % 3)
                perform(engine.contactBegan(sample(), surface: surface, hasForce: random.next() % 3 != 0))
            case 2, 3, 4: perform(engine.forceChanged(sample()))
            case 5:
                perform(
                    engine.contactEnded(
                        contact(), at: time(), reason: CancelReason.allCases.randomElement(using: &random)!))
            case 6: perform(engine.clientAnswered(interaction(), accept: random.next() % 2 == 0, at: time()))
            case 7: perform(engine.clientCancelled(interaction(), at: time()))
            case 8: perform(engine.surfaceDestroyed(SurfaceID(random.next() % 3), at: time()))
            case 9: perform(engine.deviceRemoved(DeviceID(UInt32(random.next() % 3)), at: time()))
            case 10:
                if random.next() % 50 == 0 {
                    perform(engine.endAllContacts(at: time(), reason: .system))
                } else if random.next() % 50 == 0 {
                    engine.configure(
                        EngineConfiguration(
                            sensitivity: Sensitivity.allCases.randomElement(using: &random)!,
                            longPress: LongPressDuration.allCases.randomElement(using: &random)!))
                }
            default:
                // Timers: on time, late, early, or absurd.
                let due = timer ?? time()
                timer = nil
                perform(engine.timerFired(at: random.next() % 4 == 0 ? time() : due))
            }
        }
        // Every asked interaction ends once all contacts end and the timers run out.
        perform(engine.endAllContacts(at: Timestamp(microseconds: .max), reason: .system))
        for _ in 0..<20 {
            guard let due = timer else { break }
            timer = nil
            perform(engine.timerFired(at: due))
        }
        #expect(Set(asked).isSubset(of: terminated), "interactions asked about and never ended")
        #expect(asked.count > 1_000, "the sequence reached should-begin only \(asked.count) times")
    }
}
