import Foundation
import InputEvents
import Logging
import PreviewEngine
import PreviewTrace
import SystemLayer
import WaylandServer

/// Look Up: a firm press where no client declared a preview area asks preview-lookup what is
/// under it. The phases are an engine's of their own (the app's input is never taken away,
/// so this engine's commit changes nothing the app receives): should-begin is "is there a
/// word or link here?" (answered by preview-lookup within the should-begin timeout, else
/// declined); preview highlights the word, growing with progress; commit shows the panel
/// beside it; completed keeps it until Escape, a click elsewhere or a new press; cancelled
/// removes everything.
final class LookupController {
    private unowned let compositor: Compositor
    private var engine: InteractionEngine
    private let process: LookupProcess
    private var timer: EventSource?
    var enabled: Bool
    /// Presses without measured force (a long press) look up only when the user says so.
    var longPress: Bool
    private struct Contact {
        var surface: SurfaceID
        var origin: (x: Double, y: Double)
    }
    private var contacts: [ContactKey: Contact] = [:]
    /// Lookups asked of preview-lookup and not answered yet, by their interaction.
    private var asked: [UInt32: (surface: SurfaceID, askedAt: Int64)] = [:]
    /// The answer of the interaction on screen (highlight, then panel).
    private var current: (interaction: InteractionID, answer: LookupChannel.Answer, root: SceneSurface)?
    private let highlight: LookupHighlight
    /// The panel shown (from the commit phase until dismissed), with when the commit began.
    private var panel: SceneSurface?
    private var commitBeganAt: Int64?
    /// Screenshots due, one per frame from the next (--screenshot-dir): the highlight at half
    /// the preview, the panel's first frame, at half the commit, completed.
    private var dueScreenshots: [String] = []
    private var previewHalfShot = false
    private var commitHalfShot = false

    init(compositor: Compositor, executable: String, enabled: Bool, longPress: Bool, deadlineMilliseconds: Int) {
        self.compositor = compositor
        self.enabled = enabled
        self.longPress = longPress
        var configuration = compositor.configuration.engine
        configuration.shouldBeginTimeout = .milliseconds(Int64(deadlineMilliseconds))
        configuration.completion = .onForce
        engine = InteractionEngine(configuration: configuration)
        process = LookupProcess(compositor: compositor, executable: executable, logger: compositor.logger)
        highlight = LookupHighlight(compositor: compositor)
        process.onMessage = { [unowned self] in received($0) }
        process.onExit = { [unowned self] in processGone() }
        timer = compositor.display.eventLoop.addTimer { [unowned self] in
            perform(engine.timerFired(at: now()))
        }
    }

    func start() { if enabled { process.start() } }

    func stop() {
        timer?.remove()
        timer = nil
        process.stop()
    }

    /// The user's settings changed (SIGHUP): new presses use them.
    func configure(engine configuration: EngineConfiguration, enabled: Bool, longPress: Bool) {
        var configuration = configuration
        configuration.shouldBeginTimeout = engine.configuration.shouldBeginTimeout
        configuration.completion = .onForce
        engine.configure(configuration)
        self.longPress = longPress
        if enabled != self.enabled {
            self.enabled = enabled
            if enabled { process.start() } else { dismiss() }
        }
    }

    /// The lookup process's Wayland client: its surfaces are the panel, never looked up.
    var processClient: Client? { process.client }
    var processID: Int32? { process.pid }

    private func now() -> Timestamp { Timestamp(microseconds: compositor.clock.microseconds()) }

    // MARK: input (a copy of what the app gets; nothing is withheld)

    func handle(_ event: DeviceEvent) {
        switch event {
        case .contactBegan(let contact):
            let point = outputPoint(contact)
            let hit = compositor.scene.surface(at: point)
            // A press on the panel is the panel's (its buttons); anywhere else it ends it.
            if let hit, hit.surface === panel { return }
            dismiss()
            guard enabled, process.isRunning, contact.hasForce || longPress, let hit,
                isLookUpTarget(hit.surface),
                !compositor.interaction.driver.declaresPreview(
                    on: hit.surface.id, at: hit.local, source: contact.source)
            else { return }
            let root = hit.surface.root
            let origin = root.outputOrigin
            let local = Point(x: point.x - Double(origin.x), y: point.y - Double(origin.y))
            contacts[contact.key] = Contact(surface: root.id, origin: (Double(origin.x), Double(origin.y)))
            apply(event, at: local, on: root.id)
        case .contactChanged(let contact):
            guard let entry = contacts[contact.key] else { return }
            let point = outputPoint(contact)
            apply(event, at: Point(x: point.x - entry.origin.x, y: point.y - entry.origin.y), on: entry.surface)
        case .contactEnded(let key, _, _):
            guard let entry = contacts.removeValue(forKey: key) else { return }
            apply(event, at: Point(x: 0, y: 0), on: entry.surface)
        case .key(let key) where key.code == 1 && key.pressed:
            dismiss()  // Escape; the app still gets it
        default:
            break
        }
    }

    private func isLookUpTarget(_ surface: SceneSurface) -> Bool {
        guard let owner = compositor.surfaces[surface.root.id], surface.root.role == .toplevel else { return false }
        return owner.client != process.client
    }

    private func apply(_ event: DeviceEvent, at location: Point, on surface: SurfaceID) {
        var actions = Actions()
        if engine.apply(event, location: location, surface: surface, behaviour: .deepClick, into: &actions) {
            perform(actions)
        }
    }

    private func outputPoint(_ contact: DeviceContact) -> Point {
        switch contact.positioning {
        case .absolute:
            let output = compositor.scene.output
            return Point(x: contact.position.x * Double(output.width), y: contact.position.y * Double(output.height))
        case .cursor: return compositor.seat.cursor
        }
    }

    // MARK: the engine's actions

    private func perform(_ actions: Actions) {
        for action in actions {
            switch action {
            case .scheduleTimer(let due):
                let delay = due.map { max(0, ($0 - now()).microseconds) } ?? 0
                timer?.arm(milliseconds: TimerRounding.milliseconds(afterMicroseconds: delay))
            case .askShouldBegin(let update):
                ask(update)
            case .phase(let event, let update):
                phase(event, update)
            }
        }
    }

    private func ask(_ update: PhaseUpdate) {
        guard let surface = compositor.surfaces[update.surface], let xdg = surface.xdgSurface else {
            perform(engine.clientAnswered(update.interaction, accept: false, at: now()))
            return
        }
        let geometry = xdg.windowGeometry
        let request = LookupChannel.Request.lookUp(
            id: update.interaction.rawValue, pid: surface.client.pid, x: Int32(clamping: Int(update.location.x)),
            y: Int32(clamping: Int(update.location.y)), geometryX: geometry.x, geometryY: geometry.y)
        guard process.send(request) else {
            perform(engine.clientAnswered(update.interaction, accept: false, at: now()))
            return
        }
        asked[update.interaction.rawValue] = (update.surface, compositor.clock.microseconds())
    }

    private func received(_ message: LookupChannel.Message) {
        switch message {
        case .answer(let answer):
            guard let request = asked.removeValue(forKey: answer.id) else { return }
            let interaction = InteractionID(answer.id)
            // Too late: the engine has declined it already (its should-begin deadline).
            guard engine.phase(of: interaction) == .asking, let root = compositor.surfaces[request.surface]?.node
            else {
                trace(answer, outcome: "late", request: request)
                return
            }
            let found = answer.kind != .nothing
            trace(answer, outcome: found ? "found" : "nothing", request: request)
            if found { current = (interaction, answer, root) }
            perform(engine.clientAnswered(interaction, accept: found, at: now()))
        case .dismiss(let id):
            if current?.interaction.rawValue == id { dismiss() }
        }
    }

    private func phase(_ event: PhaseEvent, _ update: PhaseUpdate) {
        compositor.logger.debug("look up #\(update.interaction.rawValue): \(event) \(update.progress)")
        guard let current, current.interaction == update.interaction else { return }
        switch event {
        case .previewBegan, .previewProgress:
            if let extents = current.answer.extents {
                highlight.show(extents, in: current.root, progress: update.progress)
            }
            if update.progress >= 0.5 && !previewHalfShot {
                previewHalfShot = true
                dueScreenshots.append("lookup-preview-half")
            }
        case .previewEnded:
            // An answer that comes after the force passed the commit threshold starts here.
            if let extents = current.answer.extents { highlight.show(extents, in: current.root, progress: 1) }
            commitBeganAt = update.time.microseconds
            showPanel(beside: current)
            dueScreenshots.append("lookup-commit")
        case .commitProgress:
            grow(progress: update.progress)
            if update.progress >= 0.5 && !commitHalfShot {
                commitHalfShot = true
                dueScreenshots.append("lookup-commit-half")
            }
        case .completed:
            grow(progress: 1)
            dueScreenshots.append("lookup-completed")
        case .stage:
            break
        case .cancelled:
            dismiss()
        }
    }

    // MARK: the panel

    /// preview-lookup's one role-less surface with a buffer: the panel it drew with the answer.
    private var panelSurface: SceneSurface? {
        guard let client = process.client else { return nil }
        return compositor.surfaces.values.first { $0.client == client && $0.roleKind == nil && $0.node.isMapped }?
            .node
    }

    private func showPanel(
        beside current: (interaction: InteractionID, answer: LookupChannel.Answer, root: SceneSurface)
    ) {
        guard let node = panelSurface else { return }
        let output = compositor.scene.output
        let origin = current.root.outputOrigin
        let word = current.answer.extents ?? Rect(x: 0, y: 0, width: 0, height: 0)
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
        panel = node
        compositor.damage(compositor.scene.extents(of: node))
        compositor.scheduleFrame()
        compositor.seat.repick()
    }

    /// The panel grows into view from the word, a third at once and the rest with the commit.
    private func grow(progress: Double) {
        guard let node = panel else { return }
        let height = node.size.height
        let shown = Int32((Double(height) * (1 + 2 * max(0, min(1, progress))) / 3).rounded())
        guard shown != node.shownHeight else { return }
        node.shownHeight = shown >= height ? nil : shown
        compositor.damage(compositor.scene.extents(of: node))
        compositor.scheduleFrame()
    }

    /// The panel's first frame reached the output: the time from the commit crossing.
    func framePresented() {
        if !dueScreenshots.isEmpty {
            let label = dueScreenshots.removeFirst()
            if compositor.screenshots != nil { _ = try? compositor.screenshot(label: label) }
        }
        guard let began = commitBeganAt, panel != nil else { return }
        commitBeganAt = nil
        let microseconds = compositor.clock.microseconds() - began
        compositor.logger.info("look up: panel's first frame \(microseconds) µs after the commit")
        writeTrace(["event": "lookup-panel", "first_frame_us": microseconds])
    }

    /// Everything Look Up shows goes; the process forgets the panel.
    func dismiss() {
        highlight.hide()
        if let node = panel {
            node.shownHeight = nil
            compositor.damage(compositor.scene.extents(of: node))
            compositor.scene.hideOverlay(node)
            compositor.seat.surfaceUnmapped(node)
            compositor.scheduleFrame()
            panel = nil
        }
        if let current {
            process.send(.hide(id: current.interaction.rawValue))
            self.current = nil
        }
        commitBeganAt = nil
        previewHalfShot = false
        commitHalfShot = false
    }

    private func processGone() {
        // Answers in flight are lost: the engine declines them at the deadline; what is shown goes.
        asked.removeAll()
        dismiss()
    }

    // MARK: trace

    private func trace(
        _ answer: LookupChannel.Answer, outcome: String, request: (surface: SurfaceID, askedAt: Int64)
    ) {
        let waited = compositor.clock.microseconds() - request.askedAt
        let app = compositor.surfaces[request.surface].map { "\($0.node.client)" }
        var record: [String: Any] = [
            "event": "lookup", "interaction": Int(answer.id), "outcome": outcome, "toolkit": answer.toolkit,
            "word": answer.word, "link": answer.link, "definition": answer.definition,
            "lookup_us": Int(answer.microseconds), "answer_us": waited,
        ]
        if let app { record["app"] = app }
        if let extents = answer.extents {
            record["extents"] = [extents.x, extents.y, extents.width, extents.height].map(Int.init)
        }
        compositor.logger.info(
            "look up #\(answer.id): \(outcome) \(answer.word.isEmpty ? "-" : answer.word) \(answer.link) [\(answer.toolkit)] \(answer.definition)"
        )
        writeTrace(record)
    }

    private func writeTrace(_ record: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        compositor.interaction.writeTraceLine(data)
    }
}
