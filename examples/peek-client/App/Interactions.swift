import PeekUI
import PreviewInteraction
import Synchronization

// Preview interactions through the PreviewInteraction library: the delegate's calls drive the
// model (PeekUI); frames, acks and flow control are the library's. The --log lines of events are
// written by the library's wire observer as each event is dispatched; answers and results are
// written here (all on the app's thread).
extension PeekApp: PreviewInteractionDelegate {
    private func emit(_ id: UInt32, _ text: String) {
        guard log else { return }
        print("interaction=\(id) \(text)")
        fflushStdout()
    }

    /// The --log line of one protocol event (README.md, "The --log format").
    static func logLine(_ event: PreviewWireEvent) -> String {
        let text: String
        switch event {
        case .shouldBegin(_, let source, let force):
            text = "event=should_begin source=\(EventLog.sourceName(source)) force=\(EventLog.forceName(force))"
        case .location(_, let x, let y): text = "event=location x=\(EventLog.coordinate(x)) y=\(EventLog.coordinate(y))"
        case .preview(_, let progress): text = "event=preview progress=\(EventLog.progress(progress))"
        case .previewEnded: text = "event=preview_ended"
        case .commit(_, let progress): text = "event=commit progress=\(EventLog.progress(progress))"
        case .completed: text = "event=completed"
        case .cancelled(_, let reason): text = "event=cancelled reason=\(EventLog.reasonName(reason))"
        case .frame(_, let serial, let time): text = "event=frame serial=\(serial) time_us=\(time)"
        case .behaviour(_, let behaviour, let stages):
            text = "event=behaviour behaviour=\(EventLog.behaviourName(behaviour)) stages=\(stages)"
        case .stage(_, let stage): text = "event=stage stage=\(stage)"
        case .haptics(_, let state): text = "event=haptics state=\(state == 1 ? "available" : "unavailable")"
        }
        return "interaction=\(event.interaction) \(text)"
    }

    func attachInteraction() {
        guard let surface, let previewClient else { return }
        let interaction = PreviewInteraction(surface: surface, client: previewClient)
        interaction.delegate = self
        if log {
            interaction.wireObserver = { event in
                print(PeekApp.logLine(event))
                fflushStdout()
            }
        }
        self.interaction = interaction
    }

    /// The interaction's surface state follows the model (where the keyboard acts, what force
    /// means where); like the surface's own state, it applies with the commit that follows.
    func updateInteractionState() {
        guard let interaction else { return }
        let focus = model.focusPoint.map { PreviewPoint(x: $0.x, y: $0.y) }
        if interaction.focusPoint != focus { interaction.focusPoint = focus }
        let areas = model.behaviours.map { area in
            let rect = PreviewRect(x: area.rect.x, y: area.rect.y, width: area.rect.width, height: area.rect.height)
            switch area.kind {
            case .generic: return PreviewBehaviourArea(.generic, rects: [rect])
            case .accelerator(let stages):
                return PreviewBehaviourArea(.accelerator(stages: UInt32(stages)), rects: [rect])
            }
        }
        if interaction.behaviours != areas { interaction.behaviours = areas }
    }

    /// Where the press the current call is about is (the model hit-tests in surface coordinates).
    private var location: Point {
        let at = interaction?.location() ?? .zero
        return Point(x: at.x, y: at.y)
    }

    func previewInteractionShouldBegin(_ previewInteraction: PreviewInteraction) -> Bool {
        guard let id = previewInteraction.currentPress?.id else { return false }
        // One interaction at a time drives the model; a second finger's press is declined.
        var accelerator = false
        if case .accelerator = previewInteraction.currentPress?.behaviour { accelerator = true }
        let accept =
            active == nil && model.shouldBegin(at: location, now: monotonicSeconds(), accelerator: accelerator)
        emit(id, "request=\(accept ? "accept" : "decline")")
        if accept { active = id } else { ended(id) }
        return accept
    }

    func previewInteraction(
        _ previewInteraction: PreviewInteraction, didUpdatePreviewTransition transitionProgress: Double, ended: Bool
    ) {
        guard let id = previewInteraction.currentPress?.id, id == active else { return }
        handle(model.previewUpdated(progress: transitionProgress, ended: ended, at: location, now: monotonicSeconds()))
    }

    func previewInteraction(
        _ previewInteraction: PreviewInteraction, didUpdateCommitTransition transitionProgress: Double, ended: Bool
    ) {
        guard let press = previewInteraction.currentPress, press.id == active else { return }
        let id = press.id
        if case .accelerator = press.behaviour {
            // The zoom press lifted: it keeps the zoom it reached.
            handle(model.zoomEnded(completed: ended), interaction: id)
            if ended { self.ended(id) }
            return
        }
        // A call at the same progress means the pen slid over another quick action: hit-test again.
        handle(
            model.commitUpdated(progress: transitionProgress, ended: ended, at: location, now: monotonicSeconds()),
            interaction: id)
        if ended { self.ended(id) }
    }

    func previewInteraction(_ previewInteraction: PreviewInteraction, didChangeStage stage: UInt32) {
        guard let id = previewInteraction.currentPress?.id, id == active else { return }
        handle(model.stageChanged(to: Int(stage)), interaction: id)
    }

    func previewInteractionDidCancel(_ previewInteraction: PreviewInteraction) {
        guard let id = previewInteraction.currentPress?.id else { return }
        if id == active { handle(model.cancelled(now: monotonicSeconds()), interaction: id) }
        ended(id)
    }

    /// Asks the compositor for a haptic effect on the device driving the interaction; the
    /// compositor drops it where none can be felt.
    private func playHaptic(_ feedback: HapticFeedback, for id: UInt32) {
        guard let interaction, interaction.runningPresses.first(where: { $0.id == id })?.hapticsAvailable == true
        else { return }
        let effect: PreviewHapticEffect =
            switch feedback {
            case .tick: .tick
            case .snap: .snap
            }
        do {
            try interaction.playHaptic(effect, press: id)
            emit(id, "request=play_haptic effect=\(effect)")
        } catch {
            // The press ended meanwhile, or a version 1 compositor: nothing to feel.
            if log { printError("peek-client: no haptic effect: \(error)") }
        }
    }

    /// Every should-begin ends once: completed, cancelled, or declined by us.
    private func ended(_ id: UInt32) {
        if active == id { active = nil }
        interactionsEnded += 1
        // An ended interaction always changes the picture (or undoes it): draw it.
        scheduleRedraw()
        // With a window, the reaction is drawn first (and its animation finished), so the
        // compositor's last screenshots show it; without one there is nothing to wait for.
        if let limit = exitAfterInteractions, interactionsEnded >= limit {
            if headless { stop(status: 0) } else { exitWhenSettled = true }
        }
    }

    /// Performs what the model asks for after an input.
    func handle(_ effect: Effect, interaction id: UInt32? = nil) {
        let prefix = id.map { "interaction=\($0) " } ?? ""
        switch effect {
        case .none:
            break
        case .redraw:
            scheduleRedraw()
        case .feedback(let feedback):
            if let id { playHaptic(feedback, for: id) }
            scheduleRedraw()
        case .opened(let item):
            if log { print("\(prefix)result=opened item=\(item.id.rawValue) title=\(EventLog.quoted(item.title))") }
            scheduleRedraw()
        case .performed(let action, let item):
            if log {
                print(
                    "\(prefix)result=performed action=\(action.rawValue) item=\(item.id.rawValue) title=\(EventLog.quoted(item.title))"
                )
            }
            if action == .copy { copy(item.title) }
            scheduleRedraw()
        case .requestCancel:
            guard let active, let interaction else { return }
            emit(active, "request=cancel")
            interaction.cancel(active)  // previewInteractionDidCancel comes at once
        case .ignored(let reason):
            if log { printError("peek-client: ignored: \(reason)") }
        }
        if log { fflushStdout() }
    }
}
