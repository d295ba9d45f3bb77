import CWaylandClient
import PeekUI

/// The events of one interaction since its last frame: the protocol groups them, and the client
/// applies a group at its frame event (the analogue of one UIPreviewInteraction delegate call).
struct FrameGroup {
    var shouldBegin = false
    var location: Point?
    var preview: Double?
    var previewEnded = false
    var commit: Double?
    var completed = false
    var cancelled = false
}

/// What the client knows about a running interaction.
struct InteractionTrack {
    var location = Point(x: 0, y: 0)
    var commitProgress = 0.0
}

// spi_preview_interaction_v1: every event is logged on receipt (--log), collected into the
// interaction's group, acknowledged at its frame, then applied to the model.
extension PeekApp {
    private func emit(_ id: UInt32, _ text: String) {
        guard log else { return }
        print("interaction=\(id) \(text)")
        fflushStdout()
    }

    func shouldBegin(_ id: UInt32, source: UInt32, force: UInt32) {
        emit(id, "event=should_begin source=\(EventLog.sourceName(source)) force=\(EventLog.forceName(force))")
        pending[id, default: FrameGroup()].shouldBegin = true
    }

    func location(_ id: UInt32, x: Double, y: Double) {
        emit(id, "event=location x=\(EventLog.coordinate(x)) y=\(EventLog.coordinate(y))")
        pending[id, default: FrameGroup()].location = Point(x: x, y: y)
    }

    func preview(_ id: UInt32, progress: Double) {
        emit(id, "event=preview progress=\(EventLog.progress(progress))")
        pending[id, default: FrameGroup()].preview = progress
    }

    func previewEnded(_ id: UInt32) {
        emit(id, "event=preview_ended")
        pending[id, default: FrameGroup()].previewEnded = true
    }

    func commit(_ id: UInt32, progress: Double) {
        emit(id, "event=commit progress=\(EventLog.progress(progress))")
        pending[id, default: FrameGroup()].commit = progress
    }

    func completed(_ id: UInt32) {
        emit(id, "event=completed")
        pending[id, default: FrameGroup()].completed = true
    }

    func cancelled(_ id: UInt32, reason: UInt32) {
        emit(id, "event=cancelled reason=\(EventLog.reasonName(reason))")
        pending[id, default: FrameGroup()].cancelled = true
    }

    func frame(_ id: UInt32, serial: UInt32, microseconds: UInt64) {
        emit(id, "event=frame serial=\(serial) time_us=\(microseconds)")
        // Acknowledge first: the compositor may then send the next progress while we draw.
        if let interaction { spi_preview_interaction_v1_ack_frame(interaction, serial) }
        let group = pending.removeValue(forKey: id) ?? FrameGroup()
        apply(group, to: id)
        // The ack and any accept/decline/cancel leave now: the compositor's should-begin wait
        // runs while we are still reading the rest of this batch.
        wl_display_flush(display)
    }

    private func apply(_ group: FrameGroup, to id: UInt32) {
        let now = monotonicSeconds()
        var track = tracks[id] ?? InteractionTrack()
        if let location = group.location { track.location = location }
        tracks[id] = track
        let at = track.location

        if group.shouldBegin {
            // One interaction at a time drives the model; a second finger's press is declined.
            let accept = active == nil && model.shouldBegin(at: at, now: now)
            if let interaction {
                if accept {
                    spi_preview_interaction_v1_accept(interaction, id)
                } else {
                    spi_preview_interaction_v1_decline(interaction, id)
                }
            }
            emit(id, "request=\(accept ? "accept" : "decline")")
            if accept { active = id }
        }
        if id == active {
            if let progress = group.preview {
                handle(model.previewUpdated(progress: progress, ended: false, at: at, now: now), interaction: id)
            }
            if group.previewEnded {
                handle(model.previewUpdated(progress: 1, ended: true, at: at, now: now), interaction: id)
            }
            if let progress = group.commit {
                track.commitProgress = progress
                tracks[id] = track
                handle(model.commitUpdated(progress: progress, ended: false, at: at, now: now), interaction: id)
            } else if group.location != nil, case .commit(_, let progress, _) = model.state {
                // The pen slid over another quick action: hit-test again at the same progress.
                handle(model.commitUpdated(progress: progress, ended: false, at: at, now: now), interaction: id)
            }
            if group.completed {
                handle(model.commitUpdated(progress: 1, ended: true, at: at, now: now), interaction: id)
            }
            if group.cancelled { handle(model.cancelled(now: now), interaction: id) }
        }
        if group.completed || group.cancelled { ended(id) }
    }

    /// Every should_begin ends with exactly one completed or cancelled.
    private func ended(_ id: UInt32) {
        tracks[id] = nil
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
        case .opened(let item):
            if log { print("\(prefix)result=opened item=\(item.id.rawValue) title=\(EventLog.quoted(item.title))") }
            scheduleRedraw()
        case .performed(let action, let item):
            if log {
                print(
                    "\(prefix)result=performed action=\(action.rawValue) item=\(item.id.rawValue) title=\(EventLog.quoted(item.title))"
                )
            }
            scheduleRedraw()
        case .requestCancel:
            guard let active, let interaction else { return }
            spi_preview_interaction_v1_cancel(interaction, active)
            emit(active, "request=cancel")
        case .ignored(let reason):
            if log { printError("peek-client: ignored: \(reason)") }
        }
        if log { fflushStdout() }
    }
}
