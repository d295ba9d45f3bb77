import CLibinput

/// The kernel's current state of one evdev fd, read with ioctls (EVIOCGABS, EVIOCGMTSLOTS):
/// this never reads events, so libinput, which reads the same fd, loses nothing.
struct EvdevState {
    let fd: Int32

    struct AbsInfo: Hashable {
        var value: Int32
        var minimum: Int32
        var maximum: Int32
        var resolution: Int32
    }

    func absInfo(_ code: UInt32) -> AbsInfo? {
        var info = input_absinfo()
        guard clibinput_evdev_abs(fd, code, &info) == 0 else { return nil }
        return AbsInfo(value: info.value, minimum: info.minimum, maximum: info.maximum, resolution: info.resolution)
    }

    func hasCode(type: UInt32, code: UInt32) -> Bool {
        // The sizes libevdev asks with (KEY_MAX and ABS_MAX bits rounded up to longs): a kernel
        // takes any size, but recorded ioctl tables (umockdev) only answer these.
        var bits = [UInt8](repeating: 0, count: type == 0x01 ? 96 : 8)
        let rc = bits.withUnsafeMutableBufferPointer { clibinput_evdev_bits(fd, type, $0.baseAddress, $0.count) }
        guard rc == 0, Int(code / 8) < bits.count else { return false }
        return bits[Int(code / 8)] & (1 << (code % 8)) != 0
    }

    func hasProperty(_ property: UInt32) -> Bool {
        var bits = [UInt8](repeating: 0, count: 8)
        let rc = bits.withUnsafeMutableBufferPointer { clibinput_evdev_properties(fd, $0.baseAddress, $0.count) }
        guard rc == 0, Int(property / 8) < bits.count else { return false }
        return bits[Int(property / 8)] & (1 << (property % 8)) != 0
    }

    /// Per-slot values of one ABS_MT_* code into `buffer` (slot i at index i + 1; index 0
    /// holds the code). The buffer is the caller's, sized once per device: no allocation here.
    func slots(_ code: UInt32, into buffer: UnsafeMutableBufferPointer<Int32>) -> Bool {
        clibinput_evdev_mt_slots(fd, code, buffer.baseAddress, buffer.count) == 0
    }

    /// Whether a key or button is down now; `buffer` is the caller's (96 bytes, KEY_MAX bits,
    /// the size recorded tables answer), so this never allocates.
    func isDown(key code: UInt32, buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool? {
        guard clibinput_evdev_keys(fd, buffer.baseAddress, buffer.count) == 0, Int(code / 8) < buffer.count
        else { return nil }
        return buffer[Int(code / 8)] & (1 << (code % 8)) != 0
    }

    /// The current value of a single-touch axis.
    func value(_ code: UInt32) -> Int32? { absInfo(code)?.value }
}
