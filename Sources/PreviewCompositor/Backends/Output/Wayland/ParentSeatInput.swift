import Logging
import WaylandServer
import WaylandWindow

/// The input half of the window backend: the parent's seat, as `DeviceEvent`s, into the
/// compositor's input path. Used when no recording or libinput seat is selected.
final class ParentSeatInput: InputBackend, KeymapSource {
    private let seat: ParentSeat?
    private let logger: Logger

    init(seat: ParentSeat?, logger: Logger) {
        self.seat = seat
        self.logger = logger
    }

    /// The parent's keymap: our clients type with the user's own layout.
    var keymapText: String? { seat?.keymapText }

    func attach(to sink: InputSink, loop: EventLoop) {
        guard let seat else {
            logger.warning("the parent compositor has no seat: no input")
            return
        }
        for (device, name) in seat.deviceNames { sink.deviceAdded(device, name: name) }
        seat.onDeviceNamed = { [unowned sink] device, name in sink.deviceAdded(device, name: name) }
        seat.onEvent = { [unowned sink] event in sink.handle(event) }
        seat.onKeymap = { [logger] _ in
            logger.notice("the parent compositor changed its keymap: clients keep the one they were given")
        }
    }

    /// Input stops first in the teardown: nothing more reaches the compositor.
    func stop() {
        seat?.onEvent = nil
        seat?.onDeviceNamed = nil
        seat?.onKeymap = nil
    }
}
