import PreviewEngine
import SystemLayer
import WaylandServer

/// Takes the phase screenshots at the moments `ScreenshotMoments` decides, with one timer for
/// the deadlines. Runs on the display's thread.
final class PhaseScreenshots {
    private unowned let compositor: Compositor
    private var moments = ScreenshotMoments()
    private var timer: EventSource?

    init(compositor: Compositor, loop: EventLoop) {
        self.compositor = compositor
        timer = loop.addTimer { [unowned self] in
            take(moments.expired(at: compositor.clock.microseconds()))
            rearm()
        }
    }

    var isIdle: Bool { moments.isEmpty }

    func occurred(_ moment: ScreenshotMoments.Moment, interaction: InteractionID, surface: SurfaceID) {
        moments.occurred(moment, interaction: interaction, surface: surface, at: compositor.clock.microseconds())
        rearm()
    }

    func frameSent(surface: SurfaceID, interaction: InteractionID, serial: UInt32) {
        guard !moments.isEmpty else { return }
        moments.frameSent(interaction: interaction, surface: surface, serial: serial)
    }

    func acknowledged(surface: SurfaceID, serial: UInt32) {
        guard !moments.isEmpty else { return }
        moments.acknowledged(surface: surface, serial: serial)
    }

    /// After the commit has been applied (texture uploaded, damage added).
    func committed(surface: SurfaceID, requestedFrame: Bool) {
        guard !moments.isEmpty else { return }
        let shots = moments.committed(
            surface: surface, requestedFrame: requestedFrame, at: compositor.clock.microseconds())
        guard !shots.isEmpty else { return }
        take(shots)
        rearm()
    }

    /// Shutting down: whatever is still pending is shot now, as it is.
    func flush() {
        take(moments.flush(at: compositor.clock.microseconds()))
        timer?.remove()
        timer = nil
    }

    private func rearm() {
        guard let deadline = moments.nextDeadline else { return }
        timer?.arm(
            milliseconds: TimerRounding.milliseconds(afterMicroseconds: deadline - compositor.clock.microseconds()))
    }

    private func take(_ shots: [ScreenshotMoments.Shot]) {
        guard !shots.isEmpty else { return }
        let started = compositor.clock.microseconds()
        // Several moments due at once are one picture.
        var picture: String?
        for shot in shots {
            let why: String
            switch shot.trigger {
            case .commit(let frame):
                why = "first commit after the client acknowledged frame \(frame)"
            case .fallback(let waiting):
                let what =
                    switch waiting {
                    case .frame: "the frame carrying the event was never sent"
                    case .ack(let serial): "frame \(serial) was not acknowledged"
                    case .commit: shot.moment == .settled ? "the client kept animating" : "the client did not commit"
                    }
                why = "fallback: \(what)"
            }
            let delay = Int(shot.delay / 1000)
            do {
                let result =
                    if let picture { try compositor.duplicateScreenshot(picture, label: shot.label) } else {
                        try compositor.screenshot(label: shot.label, log: false)
                    }
                guard let path = result else { continue }
                picture = picture ?? path
                let line = "screenshot \(path) (\(why), \(delay) ms after the event)"
                if shot.trigger.isCommit {
                    compositor.logger.info("\(line)")
                } else {
                    compositor.logger.warning("\(line)")
                }
            } catch {
                compositor.logger.error("\(error)")
            }
        }
        // Clients could not be heard while we encoded: that time does not count against them.
        moments.postpone(by: compositor.clock.microseconds() - started)
        if moments.isEmpty { compositor.clientsMayHaveCaughtUp() }
    }
}

extension ScreenshotMoments.Trigger {
    var isCommit: Bool {
        switch self {
        case .commit: true
        case .fallback: false
        }
    }
}
