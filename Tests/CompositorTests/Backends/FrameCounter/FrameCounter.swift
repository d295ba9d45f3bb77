import PreviewCompositor
import Synchronization
import WaylandServer

/// A backend from outside the compositor's library, in nothing but this folder: an output that
/// presents soon after it is asked, counts the frames it was given and looks at their pixels.
final class FrameCounter: OutputBackend {
    /// What the test reads, from any thread: frames presented so far, and how many pixels of the
    /// last one had `colour`.
    final class Tally: Sendable {
        let colour: UInt32
        let frames = Mutex(0)
        let pixelsOfColour = Mutex(0)

        init(colour: UInt32) { self.colour = colour }
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

    func present(_ framebuffer: Framebuffer) {
        let colour = tally.colour & 0x00ff_ffff
        let count = framebuffer.withRows { pixels, stride in
            var count = 0
            for row in 0..<Int(framebuffer.height) {
                for x in 0..<Int(framebuffer.width) where pixels[row * stride + x] & 0x00ff_ffff == colour {
                    count += 1
                }
            }
            return count
        }
        tally.pixelsOfColour.withLock { $0 = count }
        tally.frames.withLock { $0 += 1 }
    }

    func stop() { timer?.remove() }

    var mode: OutputMode? { OutputMode(width: 640, height: 480) }
}
