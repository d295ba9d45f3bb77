import EvdevDecoder
import InputEvents
import PreviewEngine
import Testing
import _FixtureTestSupport

/// What every host relies on, checked over random but plausible event streams (with drops):
/// a contact begins once, changes and ends only while begun, ends exactly once; forces and
/// positions stay in 0...1; every non-empty frame output ends with `.frame`.
@Suite("Decoder invariants")
struct DecoderInvariantTests {
    static let devices: [(String, DeviceDescription)] = [
        (
            "pen",
            DeviceDescription(
                name: "pen", codes: [1: [0x140, 0x141, 0x14a, 0x14b], 3: [0, 1, 24, 25, 26, 27]],
                absinfo: [
                    0: AbsInfo(minimum: 0, maximum: 100), 1: AbsInfo(minimum: 0, maximum: 100),
                    24: AbsInfo(minimum: 0, maximum: 50), 25: AbsInfo(minimum: 0, maximum: 10),
                    26: AbsInfo(minimum: -64, maximum: 63), 27: AbsInfo(minimum: -64, maximum: 63),
                ])
        ),
        (
            "touchscreen B",
            DeviceDescription(
                name: "ts", codes: [1: [0x14a], 3: [0, 1, 0x2f, 0x35, 0x36, 0x39, 0x3a]],
                absinfo: [
                    0: AbsInfo(minimum: 0, maximum: 100), 1: AbsInfo(minimum: 0, maximum: 100),
                    0x2f: AbsInfo(minimum: 0, maximum: 3), 0x35: AbsInfo(minimum: 0, maximum: 100),
                    0x36: AbsInfo(minimum: 0, maximum: 100), 0x39: AbsInfo(minimum: 0, maximum: 65535),
                    0x3a: AbsInfo(minimum: 0, maximum: 20),
                ], properties: [1])
        ),
        (
            "touchscreen A",
            DeviceDescription(
                name: "tsa", codes: [1: [0x14a], 3: [0, 1, 0x35, 0x36, 0x3a]],
                absinfo: [
                    0: AbsInfo(minimum: 0, maximum: 100), 1: AbsInfo(minimum: 0, maximum: 100),
                    0x35: AbsInfo(minimum: 0, maximum: 100), 0x36: AbsInfo(minimum: 0, maximum: 100),
                    0x3a: AbsInfo(minimum: 0, maximum: 20),
                ], properties: [1])
        ),
        (
            "touchpad B",
            DeviceDescription(
                name: "tp", codes: [1: [0x110, 0x145, 0x14a, 0x14d], 3: [0, 1, 24, 0x2f, 0x35, 0x36, 0x39, 0x3a]],
                absinfo: [
                    0: AbsInfo(minimum: 0, maximum: 100), 1: AbsInfo(minimum: 0, maximum: 100),
                    24: AbsInfo(minimum: 0, maximum: 20), 0x2f: AbsInfo(minimum: 0, maximum: 3),
                    0x35: AbsInfo(minimum: 0, maximum: 100), 0x36: AbsInfo(minimum: 0, maximum: 100),
                    0x39: AbsInfo(minimum: 0, maximum: 65535), 0x3a: AbsInfo(minimum: 0, maximum: 20),
                ],
                properties: [0, 2])
        ),
        ("mouse", DeviceDescription(name: "mouse", codes: [1: [0x110, 0x111], 2: [0, 1, 8]])),
    ]

    @Test("Contact lifecycles hold over random streams", arguments: 0..<devices.count)
    func lifecycle(index: Int) {
        let (name, description) = Self.devices[index]
        let codes = description.codes.flatMap { type, codes in codes.map { (type, $0) } }.sorted { $0 < $1 }
        var began = 0
        for seed in 0..<20 {
            var generator = SplitMix64(seed: UInt64(seed * 31 + index))
            var decoder = EvdevDecoder(description: description, device: DeviceID(3))
            var active = Set<ContactKey>()
            var output: [DeviceEvent] = []
            var time: Int64 = 0
            for _ in 0..<400 {
                time += Int64(generator.next() % 20_000)
                let count = Int(generator.next() % 6)
                var events: [InputEvent] = []
                for _ in 0..<count {
                    let (type, code) = codes[Int(generator.next() % UInt64(codes.count))]
                    let value: Int32
                    switch (type, code) {
                    case (3, 0x39): value = generator.next() % 3 == 0 ? -1 : Int32(generator.next() % 5)
                    case (3, 0x2f): value = Int32(generator.next() % 5) - 1  // sometimes out of range
                    case (1, _): value = Int32(generator.next() % 2)
                    default: value = Int32(generator.next() % 130) - 10
                    }
                    events.append(InputEvent(type: type, code: code, value: value))
                }
                if description.kind == .touchscreen && name.hasSuffix("A") && generator.next() % 2 == 0 {
                    events.append(InputEvent(type: 0, code: SynCode.mtReport, value: 0))
                }
                if generator.next() % 50 == 0 {
                    events.insert(InputEvent(type: 0, code: SynCode.dropped, value: 0), at: 0)
                }
                events.append(InputEvent(type: 0, code: SynCode.report, value: 0))
                output.removeAll()
                for event in events { decoder.process(event, at: Timestamp(microseconds: time), into: &output) }
                check(output, active: &active, name: name, seed: seed)
                began += output.filter { if case .contactBegan = $0 { true } else { false } }.count
            }
            output.removeAll()
            decoder.endAllContacts(at: Timestamp(microseconds: time + 1), reason: .system, into: &output)
            check(output, active: &active, name: name, seed: seed)
            #expect(active.isEmpty, "\(name) seed \(seed): contacts left after endAllContacts")
        }
        #expect(began > 20, "\(name): the streams exercise contacts (\(began) began)")
    }

    private func check(_ output: [DeviceEvent], active: inout Set<ContactKey>, name: String, seed: Int) {
        if !output.isEmpty {
            guard case .frame = output.last! else {
                Issue.record("\(name) seed \(seed): frame output does not end with .frame: \(output)")
                return
            }
        }
        for event in output {
            switch event {
            case .contactBegan(let contact):
                #expect(active.insert(contact.key).inserted, "\(name) seed \(seed): began twice \(contact.key)")
                checkRanges(contact, name: name, seed: seed)
            case .contactChanged(let contact):
                #expect(active.contains(contact.key), "\(name) seed \(seed): change of a contact not begun")
                checkRanges(contact, name: name, seed: seed)
            case .contactEnded(let key, _, _):
                #expect(active.remove(key) != nil, "\(name) seed \(seed): end of a contact not begun")
            case .toolProximity(let state, _), .toolMotion(let state):
                #expect((0...1).contains(state.position.x) && (0...1).contains(state.position.y))
            case .pointerMotion(let motion):
                #expect(motion.dx.isFinite && motion.dy.isFinite)
            case .scroll, .button, .key, .frame:
                break
            }
        }
    }

    private func checkRanges(_ contact: DeviceContact, name: String, seed: Int) {
        #expect((0...1).contains(contact.force), "\(name) seed \(seed): force \(contact.force)")
        #expect((0...1).contains(contact.position.x) && (0...1).contains(contact.position.y))
        #expect(contact.hasForce || contact.force == 0)
    }
}
