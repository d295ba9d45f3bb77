/// The umockdev script that feeds the events, paced by the runner.
///
/// Not `-e` (evemu): umockdev starts an evemu stream the moment it loads it, before the runner
/// has opened the device, so libinput reads a burst of stale events and its timers fire at once
/// ("forcing proximity after timeout"). And umockdev's own pacing (`r <delay ms>` lines) drifts:
/// every sleep overshoots a little, and after a few hundred frames delivery lags the timestamps
/// by hundreds of milliseconds (libinput: "event processing lagging behind", early proximity-out).
///
/// So the runner is the clock: before each evdev frame the script waits (`w`) for a one-byte
/// tick that the runner writes to the device node when that frame is due (`frameTimes`); umockdev
/// then writes the whole frame at once (`r 0`), like the kernel does at SYN_REPORT.
public enum TestbedScript {
    /// What the runner writes to the device node to release the next frame.
    public static let tick: [UInt8] = Array("t".utf8)

    /// Each frame's due time: `base + (SYN_REPORT time - first event time)`, CLOCK_MONOTONIC µs.
    public static func frameTimes(_ device: TestbedDevice, base: Int64) -> [Int64] {
        let first = device.events.first?.time ?? 0
        var times: [Int64] = []
        var open = false
        for event in device.events {
            open = true
            if event.type == 0 && event.code == 0 {
                times.append(base + event.time - first)
                open = false
            }
        }
        if open, let last = device.events.last { times.append(base + last.time - first) }
        return times
    }

    /// Events stamped with their due time, one `w`/`r` pair per frame (see `frameTimes`).
    public static func script(_ device: TestbedDevice, base: Int64) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(device.events.count * 40)
        let first = device.events.first?.time ?? 0
        var frame = [UInt8]()
        func flush() {
            guard !frame.isEmpty else { return }
            // umockdev drops the leading spaces of an `r` line's data, and a frame starts with
            // the low byte of its first event's seconds: in one second of every 256 (0x20) the
            // frame would lose a byte and every event after it would be misaligned. The same
            // instant as (seconds - 1, microseconds + 1,000,000) starts otherwise; the shim
            // normalises every time it hands out.
            if frame[0] == 0x20 {
                var seconds = Int64(0)
                var microseconds = Int64(0)
                withUnsafeMutableBytes(of: &seconds) { $0.copyBytes(from: frame[0..<8]) }
                withUnsafeMutableBytes(of: &microseconds) { $0.copyBytes(from: frame[8..<16]) }
                var moved = [UInt8]()
                appendLittleEndian(Int64(littleEndian: seconds) - 1, to: &moved)
                appendLittleEndian(Int64(littleEndian: microseconds) + 1_000_000, to: &moved)
                frame.replaceSubrange(0..<16, with: moved)
            }
            out += Array("w 0 ".utf8) + encode(tick) + [0x0a]
            out += Array("r 0 ".utf8) + encode(frame) + [0x0a]
            frame.removeAll(keepingCapacity: true)
        }
        for event in device.events {
            let stamp = base + event.time - first
            appendLittleEndian(Int64(stamp / 1_000_000), to: &frame)
            appendLittleEndian(Int64(stamp % 1_000_000), to: &frame)
            appendLittleEndian(event.type, to: &frame)
            appendLittleEndian(event.code, to: &frame)
            appendLittleEndian(event.value, to: &frame)
            if event.type == 0 && event.code == 0 { flush() }
        }
        flush()
        return out
    }

    /// umockdev's escaping: bytes below 32 become '^' + (b + 64), '^' itself "^`".
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            if byte < 32 {
                out.append(0x5e)
                out.append(byte + 64)
            } else if byte == 0x5e {
                out.append(0x5e)
                out.append(0x60)
            } else {
                out.append(byte)
            }
        }
        return out
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}
