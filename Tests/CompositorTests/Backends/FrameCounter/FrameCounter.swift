import PreviewCompositor
import Synchronization
import WaylandServer

/// A backend from outside the compositor's library, in nothing but this folder: an output that
/// presents at once when asked and counts the frames it was given.
final class FrameCounter: OutputBackend {
    /// What the test reads: frames presented so far, from any thread.
    final class Tally: Sendable {
        let frames = Mutex(0)
    }

    static func descriptor(tally: Tally) -> OutputBackendDescriptor {
        OutputBackendDescriptor(name: "frame-counter", help: "Counts the frames it is given.") { _ in
            CompositorConfiguration.OutputSelection(name: "frame-counter") { _ in FrameCounter(tally: tally) }
        }
    }

    private let tally: Tally
    private weak var presentation: Presentation?
    private var timer: EventSource?

    init(tally: Tally) { self.tally = tally }

    func attach(to presentation: Presentation, loop: EventLoop) {
        self.presentation = presentation
        timer = loop.addTimer { [weak self] in self?.presentation?.frameDue() }
    }

    func scheduleFrame() { timer?.arm(milliseconds: 1) }

    func present(_ framebuffer: Framebuffer) { tally.frames.withLock { $0 += 1 } }

    func stop() { timer?.remove() }

    var mode: OutputMode? { OutputMode(width: 640, height: 480) }
}
