import SystemLayer
import WaylandServer

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

    func attach(to loop: EventLoop, frame: @escaping () -> Void) {
        timer = loop.addTimer { [unowned self] in
            scheduled = false
            frame()
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
