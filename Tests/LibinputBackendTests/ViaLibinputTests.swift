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

/// How close the real libinput must come to the recording decoder (docs/testing.md):
/// libinput normalises pen pressure with its own tip threshold and offset, so peak preview
/// progress may differ by this much per interaction.
let progressTolerance = 0.05

/// The real libinput (on an umockdev testbed) against the recording decoder, per fixture.
/// Serialized: each testbed runs in real time, and several at once on a 2-core machine starve
/// each other (see `LibinputTestbed.Run.trustworthy`).
@Suite(.enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"), .serialized)
struct ViaLibinputTests {
    /// Where the fixture's pen is when the kernel drops events: the SYN_REPORT the drop follows
    /// and the time of the frame it opens.
    enum DropPoint: String, CaseIterable, Sendable {
        /// Between the two strokes, the pen in proximity (BTN_TOOL_PEN down).
        case hovering
        /// During the first stroke (BTN_TOOL_PEN and BTN_TOUCH down).
        case pressed

        var after: String {
            switch self {
            case .hovering: "    - [  0, 110888,   0,   0,       0]"
            case .pressed: "    - [  0,  38968,   0,   0,       0]"
            }
        }

        var line: String {
            switch self {
            case .hovering: "    - [  0, 116888,   0,   3,       0] # EV_SYN / SYN_DROPPED"
            case .pressed: "    - [  0,  43890,   0,   3,       0] # EV_SYN / SYN_DROPPED"
            }
        }
    }

    /// After a SYN_DROPPED libevdev re-reads the kernel's state (EVIOCGKEY, EVIOCGABS,
    /// EVIOCGMTSLOTS) and libinput carries on from it. The key state says the pen is still in
    /// proximity (and on the surface when pressed), so the second stroke is an interaction on both
    /// paths. A testbed that answered EVIOCGKEY with "every key up" made libevdev synthesise
    /// BTN_TOOL_PEN 0 (and BTN_TOUCH 0): libinput took the pen out of proximity for good (a
    /// BTN_TOOL_PEN 0 of the device's own turns its forced-proximity quirk off) and ignored every
    /// later frame: 1 contact, 0 interactions.
    @Test(arguments: DropPoint.allCases)
    func aSynDroppedLosesNothing(_ point: DropPoint) throws {
        let original = try String(contentsOfFile: Fixtures.path("wacom-cintiq13hd-pen.yml"), encoding: .utf8)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix(point.after) })
        var edited = lines.map(String.init)
        edited.insert(point.line, at: index + 1)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "syn-dropped-\(point)-\(getpid()).yml"
        ).path
        try edited.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        // The decoder: the pressed contact ends desynchronised; the second stroke is the interaction.
        let (direct, _) = try replay(try RecordingInput(path: path))
        #expect(
            direct.contacts == 2 && direct.interactions == 1 && direct.cancelled[.desynchronised] == nil, "\(direct)")
        let input = try LibinputTestbedInput(path: path)
        let (real, outcomes) = try replay(input)
        withKnownIssue("testbed starved: \(input.framesAtRisk) frame(s) at risk", isIntermittent: true) {
            #expect(real.interactions == direct.interactions, "\(outcomes)\n\(input.log)")
            #expect(real.contacts == direct.contacts, "\(real) vs \(direct)")
        } when: {
            input.framesAtRisk > 0
        }
        #expect(input.log.contains("SYN_DROPPED"), "libinput saw no SYN_DROPPED:\n\(input.log)")
    }

    /// Unplugged with the pen on the surface: the contact ends with `.deviceRemoved`, the
    /// interaction is cancelled for that reason, and the device is reported gone.
    @Test func deviceRemovedMidPressCancels() throws {
        let path = Fixtures.path("wacom-cintiq13hd-pen.yml")
        var options = LibinputTestbed.Options()
        options.removeAt = 300_000  // the second stroke's tip is down from 216927 µs to ~470000 µs
        let input = try LibinputTestbedInput(path: path, testbed: options)
        let ended = input.backendEvents.compactMap { event -> CancelReason? in
            if case .input(.contactEnded(_, _, let reason)) = event { reason } else { nil }
        }
        #expect(ended.last == .deviceRemoved, "\(input.backendEvents.suffix(5))")
        #expect(input.backendEvents.last.map { if case .deviceRemoved = $0 { true } else { false } } == true)
        let (_, outcomes) = try replay(input)
        #expect(outcomes.last?.end == "cancel:device-removed", "\(outcomes)")
    }

    /// A device libinput may not open (no logind session, not in the input group): a clear log
    /// line, no device, no crash.
    @Test func aDeviceWithoutPermissionIsALogLineNotACrash() throws {
        let path = Fixtures.path("wacom-cintiq13hd-pen.yml")
        var options = LibinputTestbed.Options()
        options.denyOpen = true
        let device = try TestbedDevice(recording: try Recording.open(path))
        let run = try LibinputTestbed.run(device, options: options)
        #expect(run.events.isEmpty)
        #expect(run.log.contains("cannot open /dev/input/event0: Permission denied"), "\(run.log)")
        #expect(run.log.contains("no permission?"), "\(run.log)")
    }

    /// The compositor's configuration: libinput's udev backend finds the device on seat0 by
    /// enumeration, and the stroke comes through as with the path backend.
    @Test func theUdevBackendFindsTheDeviceOnTheSeat() throws {
        let path = Fixtures.path("wacom-cintiq13hd-pen.yml")
        var options = LibinputTestbed.Options()
        options.udev = true
        let device = try TestbedDevice(recording: try Recording.open(path))
        let run = try LibinputTestbed.run(device, options: options, attempts: 3)
        let kinds = run.events.compactMap { event -> DeviceKind? in
            if case .deviceAdded(let added) = event { added.kind } else { nil }
        }
        #expect(kinds == [.pen], "\(run.log)")
        let began = run.events.filter { if case .input(.contactBegan) = $0 { true } else { false } }
        #expect(began.count == 2, "\(run.log)")
    }
}

/// A compositor that runs libinput itself hands its `struct libinput_device *` to the C library
/// (`preview_interaction_device_add_libinput`), which reads touch pressure through
/// `HostedDevice`: from its own descriptor of the node, the same kernel state the backend reads.
@Suite(.serialized) struct HostedDeviceTests {
    @Test func aHandedOverTouchpadReadsTheSameForceAsTheBackend() throws {
        let path = Fixtures.path("apple-bcm5974-touchpad.yml")
        var options = LibinputTestbed.Options()
        options.hosted = true
        let device = try TestbedDevice(recording: try Recording.open(path))
        let run = try LibinputTestbed.run(device, options: options, attempts: 3)
        #expect(run.log.contains("hosted device: bcm5974 kind touchpad force evdev ABS_"), "\(run.log)")
        let pairs = run.log.split(separator: "\n").compactMap { line -> (hosted: Double, backend: Double)? in
            guard let range = line.range(of: "hosted force ") else { return nil }
            let fields = line[range.upperBound...].split(separator: " ")
            guard fields.count == 3, let hosted = Double(fields[0]), let backend = Double(fields[2]) else { return nil }
            return (hosted, backend)
        }
        #expect(!pairs.isEmpty, "\(run.log)")
        // Read right after the backend's dispatch: the same state, but a frame may land between.
        let agreeing = pairs.filter { abs($0.hosted - $0.backend) < 0.02 }
        #expect(Double(agreeing.count) >= Double(pairs.count) * 0.9, "\(pairs)")
        #expect((pairs.map(\.hosted).max() ?? 0) > 0.5, "the force click is read: \(pairs.map(\.hosted))")
    }
}
