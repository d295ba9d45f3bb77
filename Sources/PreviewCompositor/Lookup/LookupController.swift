import Foundation
import InputEvents
import Logging
import PreviewEngine
import PreviewProtocolServer
import PreviewTrace
import SystemLayer
import WaylandServer

/// Look Up in preview-compositor: a shell over the host core's `LookupDriver` (which press
/// looks up, the phases, preview-lookup and its answers, dismissal). It gives the driver a
/// copy of the input (nothing is withheld from the app), draws the highlight and places the
/// panel, and writes the trace and the screenshots.
final class LookupController: LookupHost {
    private unowned let compositor: Compositor
    private(set) var driver: LookupDriver!
    /// Where each followed contact's window is on the output (positions go in local to it).
    private var origins: [ContactKey: (x: Double, y: Double)] = [:]
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

    init(compositor: Compositor, executable: String, enabled: Bool, longPress: Bool, deadlineMilliseconds: Int) {
        self.compositor = compositor
        highlight = LookupHighlight(compositor: compositor)
        driver = LookupDriver(
            display: compositor.display, executable: executable, configuration: compositor.configuration.engine,
            deadline: .milliseconds(Int64(deadlineMilliseconds)), longPress: longPress, enabled: enabled, host: self,
            logger: compositor.logger)
    }

    func start() { driver.start() }

    func stop() { driver.stop() }

    /// The user's settings changed (SIGHUP): new presses use them.
    func configure(engine configuration: EngineConfiguration, enabled: Bool, longPress: Bool) {
        driver.configure(configuration, longPress: longPress)
        driver.setEnabled(enabled)
    }

    var enabled: Bool { driver.enabled }
    /// The lookup process's Wayland client: its surfaces are the panel, never looked up.
    var processClient: Client? { driver.processClient }
    var processID: Int32? { driver.processID }

    // MARK: input (a copy of what the app gets; nothing is withheld)

    func handle(_ event: DeviceEvent) {
        switch event {
        case .contactBegan(let contact):
            let point = outputPoint(contact)
            let hit = compositor.scene.surface(at: point)
            let target: LookupPressTarget
            if let hit, hit.surface === panel {
                target = .panel
            } else if let hit, isLookUpTarget(hit.surface) {
                let origin = hit.surface.root.outputOrigin
                let local = Point(x: point.x - Double(origin.x), y: point.y - Double(origin.y))
                let declared = compositor.interaction.driver.declaresPreview(
                    on: hit.surface.id, at: hit.local, source: contact.source)
                target = .window(hit.surface.root.id, local, declaresPreview: declared)
                origins[contact.key] = (Double(origin.x), Double(origin.y))
            } else {
                target = .elsewhere
            }
            driver.contactBegan(contact.sample(at: Point(x: 0, y: 0)), hasForce: contact.hasForce, on: target)
            if !driver.follows(contact.key) { origins[contact.key] = nil }
        case .contactChanged(let contact):
            guard let origin = origins[contact.key] else { return }
            // A contact that can no longer look up: the rest of its stroke costs one miss.
            guard driver.follows(contact.key) else {
                origins[contact.key] = nil
                return
            }
            let point = outputPoint(contact)
            driver.contactMoved(contact.sample(at: Point(x: point.x - origin.x, y: point.y - origin.y)))
        case .contactEnded(let key, let time, let reason):
            guard origins.removeValue(forKey: key) != nil else { return }
            driver.contactEnded(key, at: time, reason: reason)
        case .key(let key) where key.code == 1 && key.pressed:
            driver.escapePressed(seat: 0, at: key.time)  // the app still gets it
        case .key(let key):
            previewKey(key)
        default:
            break
        }
    }

    /// The user's preview key held on a window whose client declared no keyboard preview
    /// looks up at the text caret (the window's middle when the text has none). The app
    /// still gets the key.
    private func previewKey(_ key: KeyState) {
        let input = PreviewKeys.Key(
            key, symbols: compositor.keymap.symbols(evdevKey: UInt32(key.code)), held: compositor.keymap.heldModifiers)
        let contact = ContactKey(seat: 0, device: key.device, contact: Int32(bitPattern: input.identity))
        guard key.pressed else {
            driver.keyReleased(contact, at: key.time)
            return
        }
        let rules = PreviewKeys(bindings: compositor.interaction.driver.previewKeyBindings)
        guard rules.isPreviewKey(input) else { return }
        var target = LookupPressTarget.elsewhere
        if let focus = compositor.seat.keyboardFocus, focus.isAlive, isLookUpTarget(focus.node) {
            let root = focus.node.root
            let size = Point(x: Double(root.size.width), y: Double(root.size.height))
            let declared = compositor.interaction.driver.declaresKeyboardPreview(on: root.id, surfaceSize: size)
            target = .window(root.id, Point(x: size.x / 2, y: size.y / 2), declaresPreview: declared)
        }
        driver.keyPressed(contact, on: target, at: key.time)
    }

    private func isLookUpTarget(_ surface: SceneSurface) -> Bool {
        guard let owner = compositor.surfaces[surface.root.id], surface.root.role == .toplevel else { return false }
        return owner.client != driver.processClient
    }

    private func outputPoint(_ contact: DeviceContact) -> Point {
        switch contact.positioning {
        case .absolute:
            let output = compositor.scene.output
            return Point(x: contact.position.x * Double(output.width), y: contact.position.y * Double(output.height))
        case .cursor: return compositor.seat.cursor
        }
    }

    /// The window went away.
    func surfaceDestroyed(_ surface: SurfaceID) {
        driver.surfaceDestroyed(surface, at: driver.now())
    }

    // MARK: LookupHost

    func lookupTarget(_ surface: SurfaceID) -> LookupTargetInfo? {
        guard let surface = compositor.surfaces[surface], let xdg = surface.xdgSurface else { return nil }
        let geometry = xdg.windowGeometry
        return LookupTargetInfo(pid: surface.client.pid, geometryX: geometry.x, geometryY: geometry.y)
    }

    func showHighlight(_ extents: LookupRect, on surface: SurfaceID, progress: Double) {
        guard let root = compositor.surfaces[surface]?.node else { return }
        if !highlightShown {
            highlightShown = true
            previewBeganAt = compositor.clock.microseconds()
        }
        highlight.show(Rect(extents), in: root, progress: progress)
        if progress >= 0.5 && !previewHalfShot && panel == nil {
            previewHalfShot = true
            dueScreenshots.append("lookup-preview-half")
        }
    }

    func showPanel(beside extents: LookupRect?, on surface: SurfaceID) {
        guard let root = compositor.surfaces[surface]?.node else { return }
        commitBeganAt = compositor.clock.microseconds()
        dueScreenshots.append("lookup-commit")
        guard let node = panelSurface else { return }
        let output = compositor.scene.output
        let origin = root.outputOrigin
        let word = extents.map(Rect.init) ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let size = node.size
        // Below the word, left-aligned with it; above it when there is no room below; inside the output.
        var x = origin.x &+ word.x
        var y = origin.y &+ word.y &+ word.height &+ 6
        if y + size.height > output.y + output.height { y = origin.y &+ word.y &- size.height &- 6 }
        x = max(output.x, min(x, output.x + output.width - size.width))
        y = max(output.y, min(y, output.y + output.height - size.height))
        node.position = (x, y)
        node.shownHeight = size.height / 3
        compositor.scene.showOverlay(node)
        // wl_surface.enter: preview-lookup learns its panel is on screen (a file goes to the
        // desktop's previewer then), as any client learns it of its windows.
        if let surface = compositor.surfaces[node.id] { compositor.setOnOutput(surface, true) }
        panel = node
        compositor.damage(compositor.scene.extents(of: node))
        compositor.scheduleFrame()
        compositor.seat.repick()
    }

    /// The panel grows into view from the word, a third at once and the rest with the commit.
    func growPanel(progress: Double) {
        if progress >= 0.5 && progress < 1 && !commitHalfShot {
            commitHalfShot = true
            dueScreenshots.append("lookup-commit-half")
        }
        guard let node = panel else { return }
        let height = node.size.height
        let shown = Int32((Double(height) * (1 + 2 * max(0, min(1, progress))) / 3).rounded())
        guard shown != node.shownHeight else { return }
        node.shownHeight = shown >= height ? nil : shown
        compositor.damage(compositor.scene.extents(of: node))
        compositor.scheduleFrame()
    }

    func lookupCompleted(_ id: UInt32) { dueScreenshots.append("lookup-completed") }

    /// Everything Look Up shows goes.
    func hideLookup() {
        highlight.hide()
        if let node = panel {
            node.shownHeight = nil
            compositor.damage(compositor.scene.extents(of: node))
            compositor.scene.hideOverlay(node)
            if let surface = compositor.surfaces[node.id] { compositor.setOnOutput(surface, false) }
            compositor.seat.surfaceUnmapped(node)
            compositor.scheduleFrame()
            panel = nil
        }
        commitBeganAt = nil
        previewBeganAt = nil
        highlightShown = false
        previewHalfShot = false
        commitHalfShot = false
    }

    /// preview-lookup's one role-less surface with a buffer: the panel it drew with the answer.
    private var panelSurface: SceneSurface? {
        guard let client = driver.processClient else { return nil }
        return compositor.surfaces.values.first { $0.client == client && $0.roleKind == nil && $0.node.isMapped }?
            .node
    }

    /// A frame reached the output: the highlight's first frame (the time from the preview's
    /// beginning) and the panel's (from the commit crossing) go in the log and the trace.
    func framePresented() {
        if !dueScreenshots.isEmpty {
            let label = dueScreenshots.removeFirst()
            if compositor.screenshots != nil { _ = try? compositor.screenshot(label: label) }
        }
        if let began = previewBeganAt {
            previewBeganAt = nil
            let microseconds = compositor.clock.microseconds() - began
            compositor.logger.info("look up: highlight's first frame \(microseconds) µs after the preview began")
            if compositor.interaction.isTracing {
                writeTrace(["event": "lookup-highlight", "first_frame_us": microseconds])
            }
        }
        guard let began = commitBeganAt, panel != nil else { return }
        commitBeganAt = nil
        let microseconds = compositor.clock.microseconds() - began
        compositor.logger.info("look up: panel's first frame \(microseconds) µs after the commit")
        if compositor.interaction.isTracing {
            writeTrace(["event": "lookup-panel", "first_frame_us": microseconds])
        }
    }

    // MARK: trace

    func lookupAnswered(
        _ answer: LookupChannel.Answer, outcome: LookupSession.Outcome, surface: SurfaceID,
        waited: Timestamp.Duration
    ) {
        guard compositor.interaction.isTracing else { return }
        var record: [String: Any] = [
            "event": "lookup", "interaction": Int(answer.id), "outcome": outcome.rawValue, "toolkit": answer.toolkit,
            "word": answer.word, "link": answer.link, "definition": answer.definition,
            "lookup_us": Int(answer.microseconds), "answer_us": waited.microseconds,
        ]
        if let app = compositor.surfaces[surface].map({ "\($0.node.client)" }) { record["app"] = app }
        if let extents = answer.extents {
            record["extents"] = [extents.x, extents.y, extents.width, extents.height].map(Int.init)
        }
        writeTrace(record)
    }

    private func writeTrace(_ record: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        compositor.interaction.writeTraceLine(data)
    }
}

extension Rect {
    init(_ extents: LookupRect) {
        self.init(x: extents.x, y: extents.y, width: extents.width, height: extents.height)
    }
}
