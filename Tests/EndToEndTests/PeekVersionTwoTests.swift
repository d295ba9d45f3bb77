import DemoReport
import Foundation
import PeekUI
import PreviewTrace
import Testing
import _FixtureTestSupport

/// peek-client's parts of protocol version 2 through preview-compositor with real recordings:
/// the photo page's zoom (an accelerator), its markup pad (generic) and the keyboard's press at
/// the focused photo.
@Suite struct PeekVersionTwoTests {
    /// One run: the recordings one after another, peek-client with `client` options (until it has
    /// seen `exitAfter` interactions end, else until the replay is over); the photographed
    /// moments of interaction `interactions`.
    struct Run {
        var status: Int32?
        var log: String
        var trace: [TraceRecord]
        var shots: [String: String]

        init(
            _ recordings: [String], client: [String], interactions: Int = 1, exitAfter: Int? = 1,
            output: String = "1280x800", name: String = #function
        ) throws {
            let directory = scratchDirectory(name)
            let trace = directory + "/trace.jsonl"
            let exit = exitAfter.map { ["--exit-after-interactions", String($0)] } ?? []
            let command = ([tools.client, "--log"] + exit + client).map(shellQuote).joined(separator: " ")
            let run = try runIsolated(
                [
                    tools.compositor, "--backend", "headless", "--output", output, "--replay",
                ] + recordings.map(Fixtures.path) + [
                    "--fast", "--exit-when-done", "--screenshot-dir", directory + "/shots",
                    "--should-begin-timeout", String(slowClientShouldBeginTimeout), "--trace", trace, "--run", command,
                ])
            status = run.status
            log = run.output
            self.trace = (try? TraceReader.read(path: trace)) ?? []
            var shots: [String: String] = [:]
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/shots")) ?? []
            where file.hasSuffix(".png") {
                guard let range = file.range(of: "-interaction\(interactions)-") else { continue }
                shots[String(file[range.upperBound...].dropLast(4))] = directory + "/shots/" + file
            }
            self.shots = shots
        }

        /// The client's `--log` lines of one interaction with this `event=`.
        func events(_ interaction: Int, _ event: String) -> [String] {
            log.split(separator: "\n").map(String.init).filter {
                $0.hasPrefix("interaction=\(interaction) event=\(event)")
            }
        }
    }

    @Test("A real pen on the photo: the zoom follows its accelerator stages, and the page keeps the zoom it reached")
    func thePenZoomsThePhoto() throws {
        let run = try Run(["wacom-cintiq13hd-pen.yml"], client: ["--open", "0"])
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        #expect(
            run.events(1, "behaviour") == ["interaction=1 event=behaviour behaviour=accelerator stages=4"], "\(run.log)"
        )
        let stages = run.events(1, "stage").compactMap { Int($0.split(separator: "=").last ?? "") }
        // The pen presses firmly, then eases off before it lifts: levels rise, then fall.
        let top = try #require(stages.max(), "no stage: \(run.log)")
        #expect(stages.first == 1 && top >= 2, "\(stages)")
        #expect(stages.last! < top, "\(stages)")
        #expect(run.events(1, "preview").isEmpty && run.events(1, "preview_ended").isEmpty, "no phases")
        #expect(run.events(1, "completed").count == 1, "the lift completes it")
        #expect(run.trace.contains { $0.stage == UInt8(top) }, "the trace has the same top level")

        // What peek-client draws: the page as its model says with the top level reached.
        let size = PeekRun.outputSize
        var expected = PeekModel(items: Item.samples(count: 12), size: size)
        expected.openDetail(at: 0)
        let unzoomed = Shot(rendering: expected)
        let photo = expected.detailLayout.photo
        _ = expected.shouldBegin(at: Point(x: photo.midX, y: photo.midY), now: 0, accelerator: true)
        _ = expected.stageChanged(to: top)
        let settled = try #require(run.shots["settled"].flatMap { Shot(path: $0) }, "\(run.shots)")
        let same = try #require(settled.difference(from: Shot(rendering: expected)))
        #expect(same.mean < 2, "settled is not the \(expected.zoomFactor)× page: \(same), \(settled.path)")
        let before = try #require(settled.difference(from: unzoomed))
        #expect(before.mean > 10, "the photo did not zoom: \(before), \(settled.path)")
    }

    @Test("A firm pen press on the markup pad starts no interaction; the pen draws there, as wide as it presses")
    func theMarkupPadNeverPeeks() throws {
        // At 800×1200 the page's markup pad lies under the Dell pen (two strokes, the second
        // firm enough to pop a photo in the grid). The Cintiq pen after it lands on the title, a
        // deep click there, declined: its settled picture shows the strokes.
        let run = try Run(
            ["dell-canvas-isdv4-pen.yml", "wacom-cintiq13hd-pen.yml"], client: ["--open", "0"], exitAfter: nil,
            output: "800x1200")
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        // One interaction in all: the Cintiq's, declined; none from the Dell pen.
        let devices = Set(run.trace.map(\.device))
        #expect(devices == ["Wacom Cintiq 13HD touch Pen"], "\(devices)")
        #expect(run.events(1, "cancelled") == ["interaction=1 event=cancelled reason=declined"], "\(run.log)")
        #expect(!run.log.contains("interaction=2 "), "\(run.log)")

        var page = PeekModel(items: Item.samples(count: 12), size: Size(width: 800, height: 1200))
        page.openDetail(at: 0)
        let pad = try #require(page.detailLayout.markup)
        let settled = try #require(run.shots["settled"].flatMap { Shot(path: $0) }, "\(run.shots)")
        let ink = settled.count(near: (0, 122, 255), tolerance: 40, in: pad.insetBy(2, 2))
        #expect(ink > 100, "no strokes on the markup pad (\(ink) tinted pixels): \(settled.path)")
        // The pen came as a tablet tool with its pressure: where it pressed hard the line is
        // wider than a mouse's 4 points (the strokes run down the pad: a row's ink is its width).
        var widest = 0
        for y in Int(pad.y)..<Int(pad.maxY) {
            var run = 0
            for x in Int(pad.x)..<Int(pad.maxX) {
                let p = settled.pixel(x, y)
                run = abs(p.r - 0) <= 40 && abs(p.g - 122) <= 40 && abs(p.b - 255) <= 40 ? run + 1 : 0
                widest = max(widest, run)
            }
        }
        #expect(widest >= 7, "the widest line is \(widest) pixels: \(settled.path)")
        // Nothing else changed: the rest of the page is the untouched page.
        let blank = Shot(rendering: page)
        #expect(blank.count(near: (0, 122, 255), tolerance: 40, in: pad.insetBy(2, 2)) == 0)
        let list = page.detailLayout.list
        let rest = try #require(settled.difference(from: blank, excluding: [pad]))
        #expect(rest.mean < 1, "\(rest): \(settled.path) (list at \(list))")
    }

    @Test("Holding Menu peeks the keyboard-focused photo: arrows move the focus, the press begins at its centre")
    func theMenuKeyPeeksTheFocusedPhoto() throws {
        // Right, Right, Down, Menu (tap: the quick actions), Enter (❤️ Love); then Menu held.
        let run = try Run(
            ["handwritten-usb-keyboard-quick-actions.yml", "handwritten-usb-keyboard-menu-hold.yml"], client: [])
        #expect(run.status == 0, "\(run.log.suffix(3000))")
        let size = PeekRun.outputSize
        var model = PeekModel(items: Item.samples(count: 12), size: size)
        for key in [Key.right, .right, .down] { _ = model.key(key, now: 0) }
        let focus = try #require(model.focusPoint)
        let item = try #require(model.focused)
        #expect(run.events(1, "should_begin") == ["interaction=1 event=should_begin source=keyboard force=simulated"])
        let location = "interaction=1 event=location x=\(fixed(focus.x)) y=\(fixed(focus.y))"
        #expect(run.events(1, "location").first == location, "\(run.log)")
        #expect(run.log.contains("interaction=1 request=accept"), "\(run.log)")
        #expect(run.log.contains("interaction=1 result=opened item=\(item.rawValue) "), "\(run.log)")
        #expect(run.shots["completed"] != nil, "\(run.shots)")
    }

    private func fixed(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(String(format: "%02d", hundredths % 100))"
    }
}
