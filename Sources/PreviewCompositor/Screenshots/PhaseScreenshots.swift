import Logging
import PreviewEngine
import SystemLayer
import WaylandServer

/// Told when clients may have caught up (an acknowledgement arrived, the last pending shot was
/// taken): a replay waiting for them may go on.
protocol CatchUpObserver: AnyObject {
    func clientsMayHaveCaughtUp()
}

/// Takes the phase screenshots at the moments `ScreenshotMoments` decides, with one timer for
/// the deadlines. Runs on the display's thread.
final class PhaseScreenshots {
    private let writer: ScreenshotWriter
    private let clock: MonotonicClock
    private let logger: Logger
    private var moments = ScreenshotMoments()
    private var timer: EventSource?
    /// The interaction host, which is made after this.
    weak var observer: CatchUpObserver?

    init(writer: ScreenshotWriter, clock: MonotonicClock, logger: Logger, loop: EventLoop) {
        (self.writer, self.clock, self.logger) = (writer, clock, logger)
        timer = loop.addTimer { [unowned self] in
            take(moments.expired(at: clock.microseconds()))
            rearm()
        }
    }

    var isIdle: Bool { moments.isEmpty }

    func occurred(_ moment: ScreenshotMoments.Moment, interaction: InteractionID, surface: SurfaceID) {
        moments.occurred(moment, interaction: interaction, surface: surface, at: clock.microseconds())
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
            surface: surface, requestedFrame: requestedFrame, at: clock.microseconds())
        guard !shots.isEmpty else { return }
        take(shots)
        rearm()
    }

    /// Shutting down: whatever is still pending is shot now, as it is.
    func flush() {
        take(moments.flush(at: clock.microseconds()))
        timer?.remove()
        timer = nil
    }

    private func rearm() {
        guard let deadline = moments.nextDeadline else { return }
        timer?.arm(
            milliseconds: TimerRounding.milliseconds(afterMicroseconds: deadline - clock.microseconds()))
    }

    private func take(_ shots: [ScreenshotMoments.Shot]) {
        guard !shots.isEmpty else { return }
        let started = clock.microseconds()
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
                let path =
                    if let picture { try writer.duplicate(picture, label: shot.label) } else {
                        try writer.shoot(label: shot.label)
                    }
                picture = picture ?? path
                let line = "screenshot \(path) (\(why), \(delay) ms after the event)"
                if shot.trigger.isCommit {
                    logger.info("\(line)")
                } else {
                    logger.warning("\(line)")
                }
            } catch {
                logger.error("\(error)")
            }
        }
        // Clients could not be heard while we encoded: that time does not count against them.
        moments.postpone(by: clock.microseconds() - started)
        if moments.isEmpty { observer?.clientsMayHaveCaughtUp() }
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
