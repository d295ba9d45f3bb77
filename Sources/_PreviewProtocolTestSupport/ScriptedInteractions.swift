import PreviewEngine
import PreviewProtocolServer
import WaylandServer

/// Drives interactions without input devices, for clients written with other tooling
/// (the pywayland test): every wl_surface.commit of a surface with an interaction object
/// begins an interaction, or completes the one in its commit phase. The client's answers
/// play out as an engine would: accept → preview 0.25, 0.5, ended → commit 0.5;
/// decline → cancelled(declined); cancel → cancelled(client_cancelled).
public final class ScriptedInteractions {
    private let harness: ProtocolHarness
    private var nextInteraction: UInt32 = 1
    private var running: [SurfaceID: (update: PhaseUpdate, inCommit: Bool)] = [:]

    public init(harness: ProtocolHarness) {
        self.harness = harness
        harness.compositor.onCommit = { [unowned self] surface in
            harness.server.surfaceCommitted(surface)
            self.committed(surface)
        }
        harness.react = { [unowned self] input in self.react(to: input) }
    }

    private func now() -> Timestamp { Timestamp(microseconds: harness.display.clock.microseconds()) }

    private func committed(_ surface: SurfaceID) {
        let location = Point(x: 10.5, y: 20.25)
        if let current = running[surface] {
            guard current.inCommit else { return }
            running[surface] = nil
            var done = current.update
            done.progress = 1
            done.time = now()
            harness.server.perform(.phase(.completed, done))
            return
        }
        guard harness.server.allowsInteraction(on: surface, at: location, source: .touchscreen) else { return }
        let update = PhaseUpdate(
            interaction: InteractionID(nextInteraction), surface: surface, contact: ContactKey(device: DeviceID(1)),
            time: now(), progress: 0, location: location, source: .touchscreen, simulated: false)
        nextInteraction += 1
        running[surface] = (update, false)
        harness.server.perform(.askShouldBegin(update))
    }

    private func react(to input: PreviewClientInput) -> [Action] {
        switch input {
        case .answered(let id, let accept, _):
            guard let (surface, entry) = running.first(where: { $0.value.update.interaction == id }) else { return [] }
            var update = entry.update
            update.time = now()
            guard accept else {
                running[surface] = nil
                return [.phase(.cancelled(.declined), update)]
            }
            running[surface] = (update, true)
            var actions: [Action] = []
            for (event, progress) in [(PhaseEvent.previewBegan, 0.25), (.previewProgress, 0.5)] {
                update.progress = progress
                actions.append(.phase(event, update))
            }
            update.progress = 1
            actions.append(.phase(.previewEnded, update))
            update.progress = 0.5
            actions.append(.phase(.commitProgress, update))
            return actions
        case .cancelled(let id, _):
            guard let (surface, entry) = running.first(where: { $0.value.update.interaction == id }) else { return [] }
            running[surface] = nil
            var update = entry.update
            update.time = now()
            return [.phase(.cancelled(.clientCancelled), update)]
        case .surfaceDestroyed(let surface, _):
            guard let entry = running.removeValue(forKey: surface) else { return [] }
            return [.phase(.cancelled(.surfaceGone), entry.update)]
        }
    }
}
