/// The umockdev script that feeds the events. Not `-e` (evemu): umockdev starts an evemu
/// stream the moment it loads it, before our runner has opened the device, and libinput then
/// reads a burst of stale events (its timers fire at once: "forcing proximity after timeout").
/// A script can wait for the client first: it starts with a `w` line that umockdev matches
/// against what the runner writes to the device once libinput is ready.
public enum TestbedScript {
    /// What the runner writes to the device node to start the stream.
    public static let handshake: [UInt8] = Array("libinput-testbed-go".utf8)

    /// Events stamped `base + (time - first event time)` (CLOCK_MONOTONIC, µs): the runner writes the handshake at
    /// `base`, so each event's timestamp is the moment umockdev delivers it. umockdev's delays
    /// are whole milliseconds, so each delay is taken between rounded absolute targets: the
    /// rounding never accumulates.
    public static func script(_ device: TestbedDevice, base: Int64) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(device.events.count * 40)
        out += Array("w 0 ".utf8) + encode(handshake) + [0x0a]
        let first = device.events.first?.time ?? 0
        var previousMillis: Int64 = 0
        var frame = [UInt8]()
        var frameTime: Int64 = first
        func flush() {
            guard !frame.isEmpty else { return }
            let millis = (frameTime - first) / 1000
            let delay = max(0, millis - previousMillis)
            previousMillis = max(previousMillis, millis)
            out += Array("r \(delay) ".utf8) + encode(frame) + [0x0a]
            frame.removeAll(keepingCapacity: true)
        }
        for event in device.events {
            if frame.isEmpty { frameTime = event.time }
            let stamp = base + event.time - first
            appendLittleEndian(Int64(stamp / 1_000_000), to: &frame)
            appendLittleEndian(Int64(stamp % 1_000_000), to: &frame)
            appendLittleEndian(event.type, to: &frame)
            appendLittleEndian(event.code, to: &frame)
            appendLittleEndian(event.value, to: &frame)
            // One write per evdev frame, like the kernel: every write to the pty costs a
            // wakeup, and per-event writes made delivery drift behind the timestamps.
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
