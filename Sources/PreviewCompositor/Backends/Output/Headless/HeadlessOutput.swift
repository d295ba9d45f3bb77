import SystemLayer
import WaylandServer

extension CompositorConfiguration.OutputSelection {
    public static let headless = Self(name: "headless") { context in
        HeadlessOutput(refreshMilliHertz: context.configuration.refreshMilliHertz, clock: context.clock)
    }
}

extension HeadlessOutput {
    static let descriptor = OutputBackendDescriptor(
        name: "headless", help: "Off-screen: the framebuffer, read by screenshots. The default otherwise."
    ) { _ in .headless }
}

/// The off-screen output: frames stay in the framebuffer (screenshots read them), paced by a
/// virtual vblank at the configured refresh rate.
final class HeadlessOutput: OutputBackend {
    private var frames: FrameClock
    private let clock: MonotonicClock
    private var timer: EventSource?
    private var scheduled = false

    init(refreshMilliHertz: Int32, clock: MonotonicClock) {
        self.clock = clock
        frames = FrameClock(refreshMilliHertz: refreshMilliHertz, start: clock.microseconds() * 1000)
    }

    func attach(to presentation: Presentation, loop: EventLoop) {
        timer = loop.addTimer { [unowned self, unowned presentation] in
            scheduled = false
            presentation.frameDue()
        }
    }

    func scheduleFrame() {
        guard !scheduled else { return }
        scheduled = true
        let now = clock.microseconds() * 1000
        let next = frames.nextTick(after: now)
        timer?.arm(milliseconds: TimerRounding.milliseconds(afterNanoseconds: next - now))
    }

    func present(_ framebuffer: Framebuffer) {}

    func stop() { timer?.remove() }
}
