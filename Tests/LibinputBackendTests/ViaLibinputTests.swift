import EvdevDecoder
import LibinputBackend
import LibinputRecording
import PreviewEngine
import ReplayTool
import Testing
import UmockdevHarness

/// The real libinput (on an umockdev testbed) against the recording decoder, per fixture.
@Suite(.enabled(if: Testbed.available, "needs umockdev-run and mount namespaces (unshare -m)"))
struct ViaLibinputTests {
    @Test(arguments: Fixtures.pens)
    func penRecordingMatchesTheDecoder(file: String) throws {
        let path = Fixtures.path(file)
        let (direct, directOutcomes) = try replay(try RecordingInput(path: path))
        let input = try LibinputTestbedInput(path: path)
        let (vialibinput, libinputOutcomes) = try replay(input)
        print("\(file): direct \(directOutcomes)\n\(file): libinput \(libinputOutcomes)")
        print("\(file): direct \(direct)\n\(file): libinput \(vialibinput)")
        #expect(vialibinput.interactions == direct.interactions, "\(input.log)")
        #expect(libinputOutcomes.map(\.end) == directOutcomes.map(\.end))
    }
}
