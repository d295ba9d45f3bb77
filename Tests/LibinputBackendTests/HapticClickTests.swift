import EvdevDecoder
import Foundation
import InputEvents
import LibinputBackend
import LibinputRecording
import PreviewEngine
import ReplayTool
import Testing
import UmockdevHarness
import _FixtureTestSupport

/// Host mode makes us play every click the user feels: each click of the pressure pad through
/// the real libinput and our backend on the testbed, whatever button libinput names it (its
/// clickfinger method makes the recording's two-finger click BTN_RIGHT, the three-finger one
/// BTN_MIDDLE) and whatever the area under it does with force.
@Suite("Haptic clicks: every click felt", .serialized)
struct HapticClickTests {
    /// One physical click: libinput's first button down to its last button up (recording µs).
    struct Click: CustomStringConvertible {
        var codes: Set<UInt16>
        var down: Int64
        var up: Int64?
        var description: String { "\(codes.sorted())@\(down)-\(up.map(String.init) ?? "?")" }
    }

    static func run(behaviour: PressureBehaviour) throws -> LibinputTestbed.Run {
        let device = try TestbedDevice(recording: try Recording.open(Fixtures.path("apple-bcm5974-pressurepad.yml")))
        var options = LibinputTestbed.Options()
        options.haptics = .medium
        options.behaviour = behaviour
        return try LibinputTestbed.run(device, options: options, attempts: 3)
    }

    static func clicks(_ events: [BackendEvent]) -> [Click] {
        let pad: Set<UInt16> = [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle]
        var clicks: [Click] = []
        var down = Set<UInt16>()
        for case .input(.button(let key)) in events where pad.contains(key.code) {
            if key.pressed {
                if down.isEmpty { clicks.append(Click(codes: [], down: key.time.microseconds)) }
                down.insert(key.code)
                clicks[clicks.count - 1].codes.insert(key.code)
            } else if down.remove(key.code) != nil, down.isEmpty {
                clicks[clicks.count - 1].up = key.time.microseconds
            }
        }
        return clicks
    }

    /// Each click's press at its button down and release at its button up, the commits' deep
    /// clicks and nothing else; one effect per moment; every EV_FF write one of them.
    static func expectEveryClickFelt(_ run: LibinputTestbed.Run, commits expected: Int) {
        let clicks = Self.clicks(run.events)
        let played = HapticsTests.played(run.log)
        let effects = played.map { "\($0.0)@\($0.1)" }
        for click in clicks {
            #expect(effects.filter { $0 == "press@\(click.down)" }.count == 1, "\(click): \(effects)")
            #expect(click.up != nil, "\(click)")
            if let up = click.up {
                #expect(effects.filter { $0 == "release@\(up)" }.count == 1, "\(click): \(effects)")
            }
        }
        let commits = HapticsTests.phases(run.log).filter { $0.0 == "preview-ended" }.map(\.1)
        #expect(commits.count == expected, "\(commits)\n\(run.log)")
        let deepClicks = played.filter { $0.0 == "deep-click" }.map(\.1)
        #expect(deepClicks.allSatisfy(commits.contains), "deep clicks \(deepClicks), commits \(commits)")
        #expect(played.count == 2 * clicks.count + deepClicks.count, "clicks \(clicks): \(effects)")
        // A commit in the frame of a click plays the press only: never two effects for one moment.
        for commit in commits {
            #expect(played.filter { $0.1 == commit }.count == 1, "at the commit \(commit): \(effects)")
        }
        let times = played.map(\.1)
        #expect(Set(times).count == times.count, "\(effects)")
        let writes = run.forceFeedback.split(separator: "\n").filter { $0.contains(" EV_FF id ") }
        #expect(writes.count == played.count, "\(run.forceFeedback)")
        #expect(HapticsTests.stillUploaded(run.forceFeedback).isEmpty, "\(run.forceFeedback)")
    }

    @Test(
        "The two-finger click (BTN_RIGHT) and the three-finger one (BTN_MIDDLE) play their press and release",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func multiFingerClicks() throws {
        let run = try Self.run(behaviour: .deepClick)
        let clicks = Self.clicks(run.events)
        // The recording's clicks: one finger, one finger (a short one libinput may debounce),
        // two fingers, three fingers.
        #expect(clicks.contains { $0.codes == [KeyCode.btnRight] }, "a two-finger click: \(clicks)")
        #expect(clicks.contains { $0.codes == [KeyCode.btnMiddle] }, "a three-finger click: \(clicks)")
        Self.expectEveryClickFelt(run, commits: 3)
    }

    @Test(
        "On a generic area (no interaction) every click still plays its press and release, and no deep click",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func genericArea() throws {
        let run = try Self.run(behaviour: .generic)
        #expect(Self.clicks(run.events).contains { $0.codes == [KeyCode.btnRight] })
        #expect(!HapticsTests.played(run.log).contains { $0.0 == "deep-click" }, "\(run.log)")
        Self.expectEveryClickFelt(run, commits: 0)
    }

    @Test(
        "On an accelerator area (stages, no commit) every click plays its press and release, and no deep click",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func acceleratorArea() throws {
        let run = try Self.run(behaviour: .accelerator(stages: 3))
        #expect(Self.clicks(run.events).contains { $0.codes == [KeyCode.btnRight] })
        #expect(HapticsTests.phases(run.log).contains { $0.0.hasPrefix("stage") }, "\(run.log)")
        #expect(!HapticsTests.played(run.log).contains { $0.0 == "deep-click" }, "\(run.log)")
        Self.expectEveryClickFelt(run, commits: 0)
    }

    @Test("HapticClicks: left, right and middle are the pad's one click; a press and a release each, once")
    func buttonsAreOneClick() {
        func at(_ microseconds: Int64) -> Timestamp { Timestamp(microseconds: microseconds) }
        var clicks = HapticClicks()
        // A two-finger click as libinput reports it: BTN_RIGHT alone.
        #expect(clicks.button(KeyCode.btnRight, pressed: true, at: at(10)) == .press)
        #expect(clicks.button(KeyCode.btnRight, pressed: false, at: at(20)) == .release)
        // Two of its buttons down at once (software buttons): one press, one release at the last up.
        #expect(clicks.button(KeyCode.btnLeft, pressed: true, at: at(30)) == .press)
        #expect(clicks.button(KeyCode.btnMiddle, pressed: true, at: at(31)) == nil)
        #expect(clicks.button(KeyCode.btnLeft, pressed: false, at: at(32)) == nil)
        #expect(clicks.button(KeyCode.btnMiddle, pressed: false, at: at(33)) == .release)
        // Other buttons (BTN_SIDE, BTN_TOUCH) are not the pad's click.
        #expect(clicks.button(0x113, pressed: true, at: at(40)) == nil)
        #expect(clicks.button(KeyCode.btnTouch, pressed: false, at: at(41)) == nil)
        // The commit in the click's moment: the press only; the lift releases once.
        #expect(clicks.button(KeyCode.btnRight, pressed: true, at: at(50)) == .press)
        #expect(clicks.committed(at: at(50)) == nil)
        #expect(clicks.contactEnded(at: at(60)) == .release)
        #expect(clicks.button(KeyCode.btnRight, pressed: false, at: at(60)) == nil)
        // The next click after that lift is felt again.
        #expect(clicks.button(KeyCode.btnLeft, pressed: true, at: at(70)) == .press)
        #expect(clicks.button(KeyCode.btnLeft, pressed: false, at: at(80)) == .release)
        // An embedding host's contact down is the click: a press, then none while it is owed.
        #expect(clicks.clicked(at: at(90)) == .press)
        #expect(clicks.clicked(at: at(91)) == nil)
        #expect(clicks.contactEnded(at: at(92)) == .release)
        #expect(clicks.clicked(at: at(93)) == .press)
    }

    @Test(
        "Through the embedded library, a host reporting the touchpad's click as its contact: every click felt",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
    func embeddedClicks() throws {
        let run = try EmbeddedHapticsTests.run(haptics: .medium)
        let clicks = Self.clicks(run.events)
        #expect(clicks.contains { $0.codes == [KeyCode.btnRight] }, "a two-finger click: \(clicks)")
        let played = EmbeddedHapticsTests.playedWaveforms(run.forceFeedback)
        let commits = run.log.split(separator: "\n").filter { $0.contains("embedded phase 3 ") }.count
        #expect(commits >= 1, "\(run.log)")
        // One release per click, a deep click per commit, and a press per click beside the
        // app's ticks at the peeks (played as presses, at most one per commit).
        #expect(played.filter { $0 == "0x1007" }.count == clicks.count, "\(played)\n\(run.log)")
        #expect(played.filter { $0 == "0x1003" }.count == commits, "\(played)")
        let presses = played.filter { $0 == "0x1006" }.count
        #expect((clicks.count...clicks.count + commits).contains(presses), "\(played)")
        #expect(HapticsTests.stillUploaded(run.forceFeedback).isEmpty, "\(run.forceFeedback)")
    }

    @Test(
        "preview-replay shows the same clicks through the real libinput as through the decoder, on every area",
        .enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"),
        arguments: [PressureBehaviour.deepClick, .accelerator(stages: 3)])
    func replayPathsAgree(_ behaviour: PressureBehaviour) throws {
        func effects(viaLibinput: Bool) throws -> [String] {
            var options = ReplayOptions()
            options.format = .json
            options.behaviour = behaviour
            options.viaLibinput = viaLibinput
            var lines: [String] = []
            let status = Replay.run(
                files: [Fixtures.path("apple-bcm5974-pressurepad.yml")], options: options,
                output: { lines.append($0) }, error: { _ in })
            #expect(status == 0)
            return try lines.compactMap { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["event"] as? String == "haptic" ? object?["effect"] as? String : nil
            }
        }
        let direct = try effects(viaLibinput: false)
        // The recording's four clicks, each felt; the commits' deep clicks on a deep-click area.
        #expect(direct.filter { $0 == "press" }.count == 4, "\(direct)")
        #expect(direct.filter { $0 == "release" }.count == 4, "\(direct)")
        #expect(try effects(viaLibinput: true) == direct)
    }
}
