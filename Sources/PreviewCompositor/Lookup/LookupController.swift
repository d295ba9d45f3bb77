import Foundation
import InputEvents
import Logging
import PreviewEngine
import PreviewProtocolServer
import PreviewTrace
import SystemLayer
import WaylandServer

/// Look Up in preview-compositor: a shell that draws for the host core's Look Up (which press
/// looks up, the phases, preview-lookup and its answers, dismissal are `InteractionDriver`'s,
/// fed the same input as the preview). It says which window a surface belongs to, draws the
/// highlight, places the panel, and writes the trace and the screenshots.
final class LookupController: LookupHost {
    private let scene: Scene
    private let surfaces: SurfaceRegistry
    private let output: CompositorOutput
    /// What is under the cursor changes when the panel comes and goes.
    private let seat: Seat
    /// The trace's owner. Unowned: its driver holds this controller while Look Up runs.
    private unowned let interaction: InteractionHost
    private let screenshots: ScreenshotWriter?
    private let clock: MonotonicClock
    private let logger: Logger
    private let highlight: LookupHighlight
    /// The panel shown (from the commit phase until dismissed), with when the commit began.
    private var panel: SceneSurface?
    private var commitBeganAt: Int64?
    /// When the preview began (the highlight's first request), until its first frame.
    private var previewBeganAt: Int64?
    private var highlightShown = false
    /// Screenshots due, one per frame from the next (--screenshot-dir): the highlight at half
    /// the preview, the panel's first frame, at half the commit, completed.
    private var dueScreenshots: [String] = []
    private var previewHalfShot = false
    private var commitHalfShot = false

    init(
        scene: Scene, surfaces: SurfaceRegistry, output: CompositorOutput, seat: Seat, interaction: InteractionHost,
        screenshots: ScreenshotWriter?, clock: MonotonicClock, logger: Logger
    ) {
        (self.scene, self.surfaces, self.output, self.seat) = (scene, surfaces, output, seat)
        (self.interaction, self.screenshots, self.clock, self.logger) = (interaction, screenshots, clock, logger)
        highlight = LookupHighlight(scene: scene, surfaces: surfaces, output: output)
    }

    // MARK: LookupHost

    /// A toplevel's surfaces belong to it; popups and surfaces of no window are not looked up.
    func lookupWindow(of surface: SurfaceID) -> LookupWindow? {
        guard let owner = surfaces[surface], owner.node.root.role == .toplevel,
            let window = surfaces[owner.node.root.id]
        else { return nil }
        let origin = owner.node.outputOrigin
        let windowOrigin = window.node.outputOrigin
        let geometry = window.xdgSurface?.windowGeometry
        return LookupWindow(
            window: window.node.id,
            origin: Point(x: Double(origin.x - windowOrigin.x), y: Double(origin.y - windowOrigin.y)),
            client: owner.client, geometryX: geometry?.x ?? 0, geometryY: geometry?.y ?? 0)
    }

    func showHighlight(_ extents: LookupRect, on surface: SurfaceID, progress: Double) {
        guard let root = surfaces[surface]?.node else { return }
        if !highlightShown {
            highlightShown = true
            previewBeganAt = clock.microseconds()
        }
        highlight.show(Rect(extents), in: root, progress: progress)
        if progress >= 0.5 && !previewHalfShot && panel == nil {
            previewHalfShot = true
            dueScreenshots.append("lookup-preview-half")
        }
    }

    func showPanel(_ resource: OpaquePointer?, beside extents: LookupRect?, on surface: SurfaceID) {
        guard let root = surfaces[surface]?.node else { return }
        commitBeganAt = clock.microseconds()
        dueScreenshots.append("lookup-commit")
        guard let node = panelSurface(resource) else { return }
        let bounds = scene.output
        let origin = root.outputOrigin
        let word = extents.map(Rect.init) ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let size = node.size
        // Below the word, left-aligned with it; above it when there is no room below; inside the output.
        var x = origin.x &+ word.x
        var y = origin.y &+ word.y &+ word.height &+ 6
        if y + size.height > bounds.y + bounds.height { y = origin.y &+ word.y &- size.height &- 6 }
        x = max(bounds.x, min(x, bounds.x + bounds.width - size.width))
        y = max(bounds.y, min(y, bounds.y + bounds.height - size.height))
        node.position = (x, y)
        node.shownHeight = size.height / 3
        scene.showOverlay(node)
        // wl_surface.enter: preview-lookup learns its panel is on screen (a file goes to the
        // desktop's previewer then), as any client learns it of its windows.
        if let surface = surfaces[node.id] { output.setShown(surface, true) }
        panel = node
        output.damage(scene.extents(of: node))
        output.scheduleFrame()
        seat.repick()
    }

    /// The panel grows into view from the word, a third at once and the rest with the commit.
    func growPanel(_ resource: OpaquePointer?, progress: Double) {
        if progress >= 0.5 && progress < 1 && !commitHalfShot {
            commitHalfShot = true
            dueScreenshots.append("lookup-commit-half")
        }
        guard let node = panel else { return }
        let height = node.size.height
        let shown = Int32((Double(height) * (1 + 2 * max(0, min(1, progress))) / 3).rounded())
        guard shown != node.shownHeight else { return }
        node.shownHeight = shown >= height ? nil : shown
        output.damage(scene.extents(of: node))
        output.scheduleFrame()
    }

    /// Everything Look Up shows goes.
    func hideLookup() {
        highlight.hide()
        if let node = panel {
            node.shownHeight = nil
            output.damage(scene.extents(of: node))
            scene.hideOverlay(node)
            if let surface = surfaces[node.id] { output.setShown(surface, false) }
            seat.surfaceUnmapped(node)
            output.scheduleFrame()
            panel = nil
        }
        commitBeganAt = nil
        previewBeganAt = nil
        highlightShown = false
        previewHalfShot = false
        commitHalfShot = false
    }

    /// preview-lookup's panel once it has a buffer: the surface it drew with the answer.
    private func panelSurface(_ resource: OpaquePointer?) -> SceneSurface? {
        guard let resource, let surface = ResourceObject.owner(of: resource, as: Surface.self),
            surface.roleKind == nil, surface.node.isMapped
        else { return nil }
        return surface.node
    }

    /// A frame reached the output: the highlight's first frame (the time from the preview's
    /// beginning) and the panel's (from the commit crossing) go in the log and the trace.
    func framePresented() {
        if !dueScreenshots.isEmpty {
            let label = dueScreenshots.removeFirst()
            if let path = try? screenshots?.shoot(label: label) { logger.info("screenshot \(path)") }
        }
        if let began = previewBeganAt {
            previewBeganAt = nil
            let microseconds = clock.microseconds() - began
            logger.info("look up: highlight's first frame \(microseconds) µs after the preview began")
            if interaction.isTracing {
                writeTrace(["event": "lookup-highlight", "first_frame_us": microseconds])
            }
        }
        guard let began = commitBeganAt, panel != nil else { return }
        commitBeganAt = nil
        let microseconds = clock.microseconds() - began
        logger.info("look up: panel's first frame \(microseconds) µs after the commit")
        if interaction.isTracing {
            writeTrace(["event": "lookup-panel", "first_frame_us": microseconds])
        }
    }

    // MARK: trace

    /// The trace's lookup records (every host of the core writes the same: `lookup`, then
    /// `lookup-completed`, `lookup-cancelled` or `lookup-dismissed` with the lookup's number).
    func lookupEvent(_ event: LookupEvent) {
        switch event {
        case .answered(let answer, let outcome, let window, let waited):
            traceAnswer(answer, outcome: outcome, surface: window, waited: waited)
        case .completed(let id):
            dueScreenshots.append("lookup-completed")
            trace(["event": "lookup-completed", "interaction": Int(id)])
        case .cancelled(let id, let reason):
            trace(["event": "lookup-cancelled", "interaction": Int(id), "reason": reason.description])
        case .dismissed(let id):
            trace(["event": "lookup-dismissed", "interaction": Int(id)])
        }
    }

    private func trace(_ record: [String: Any]) {
        if interaction.isTracing { writeTrace(record) }
    }

    private func traceAnswer(
        _ answer: LookupChannel.Answer, outcome: LookupSession.Outcome, surface: SurfaceID,
        waited: Timestamp.Duration
    ) {
        guard interaction.isTracing else { return }
        var record: [String: Any] = [
            "event": "lookup", "interaction": Int(answer.id), "outcome": outcome.rawValue, "toolkit": answer.toolkit,
            "word": answer.word, "link": answer.link, "definition": answer.definition,
            "lookup_us": Int(answer.microseconds), "answer_us": waited.microseconds,
        ]
        if let app = surfaces[surface].map({ "\($0.node.client)" }) { record["app"] = app }
        if let extents = answer.extents {
            record["extents"] = [extents.x, extents.y, extents.width, extents.height].map(Int.init)
        }
        writeTrace(record)
    }

    private func writeTrace(_ record: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        interaction.writeTraceLine(data)
    }
}

extension Rect {
    init(_ extents: LookupRect) {
        self.init(x: extents.x, y: extents.y, width: extents.width, height: extents.height)
    }
}
