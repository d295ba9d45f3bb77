import CLibinput
import InputEvents
import PreviewEngine
import PreviewLog
import SystemLayer

/// One haptic pressure pad in host mode (Linux 6.18, `FF_HAPTIC`): the press, release and
/// deep-click waveforms uploaded on a descriptor of the device, played by writing `EV_FF`.
/// Uploading press and release takes the clicks over from the pad's firmware; erasing them
/// (`close()`, or the kernel when the descriptor's file is closed, e.g. by a crash) hands the
/// clicks back. The pad opens its own descriptor of the node through the system layer,
/// close-on-exec from its open (no child started at any moment keeps the pad in host mode
/// after we are gone), and closes it with itself. Shared by every host (compositor backend,
/// embedded library); what it plays and when is the host core's (`InteractionDriver`).
public final class HapticPad {
    private var descriptor: Descriptor?
    private var ids: [HapticMoment: Int32] = [:]
    private var lastAppEffect: Timestamp?
    /// The fewest microseconds between two effects an app asked for (`playRequested`).
    public static let appEffectInterval: Int64 = 50_000
    public let name: String

    /// `node` opened read-write for the pad. Nil (with a log line saying why, at debug level
    /// when the device has no haptics) when `node` is nil, the setting is off, the node cannot
    /// be opened, the device has no `FF_HAPTIC`, or the upload fails.
    public init?(node: String?, name: String, intensity: HapticIntensity, logger: Log) {
        self.name = name
        guard let node, let percent = intensity.percent else { return nil }
        let file: Descriptor
        do {
            file = try Descriptor(openingDevice: node)
        } catch {
            logger.warning("\(name): cannot open \(node) for haptics: \(error)")
            return nil
        }
        let fd = file.rawValue
        let has = clibinput_ff_has_haptic(fd)
        guard has == 1 else {
            logger.debug("\(name): no FF_HAPTIC (\(has < 0 ? errnoText(-has) : "not reported")): no haptics")
            return nil
        }
        let capacity = clibinput_ff_capacity(fd)
        for moment in HapticMoment.allCases {
            let id = clibinput_ff_upload_haptic(fd, moment.waveform, percent)
            guard id >= 0 else {
                logger.warning("\(name): cannot upload haptic \(moment.rawValue): \(errnoText(-id))")
                continue
            }
            ids[moment] = id
        }
        guard ids[.press] != nil, ids[.release] != nil else {
            logger.warning("\(name): press and release not both uploaded (device holds \(capacity)): no haptics")
            for id in ids.values { _ = clibinput_ff_erase(fd, id) }
            return nil
        }
        descriptor = consume file
        logger.info(
            "\(name): haptics in host mode at \(percent) % (effects \(ids.count) of \(capacity); deep click \(ids[.deepClick] != nil ? "CLICK" : "PRESS"))"
        )
    }

    deinit { close() }

    /// Plays one effect now. False when the pad is closed or the write failed. A deep click
    /// the pad could not store plays as a press.
    @discardableResult
    public func play(_ moment: HapticMoment) -> Bool {
        guard let fd = descriptor?.rawValue, let id = ids[moment] ?? (moment == .deepClick ? ids[.press] : nil)
        else { return false }
        return clibinput_ff_play(fd, id, 1) == 0
    }

    /// An effect an app asked for (the protocol's request): played only while the pad is open,
    /// at most one per `appEffectInterval`; the user's setting already decided whether this pad
    /// exists. False when dropped.
    @discardableResult
    public func playRequested(_ moment: HapticMoment, at time: Timestamp) -> Bool {
        if let last = lastAppEffect, (time - last).microseconds < Self.appEffectInterval { return false }
        guard play(moment) else { return false }
        lastAppEffect = time
        return true
    }

    /// Hands the clicks back to the pad: erases every effect, closes its descriptor.
    public func close() {
        guard let fd = descriptor?.rawValue else { return }
        for id in ids.values { _ = clibinput_ff_erase(fd, id) }
        ids.removeAll()
        descriptor = nil
    }
}

/// The force-feedback ABI this build speaks (C's view of the Linux uapi), for the test that
/// checks it against the 6.18 headers' numbers.
public enum ForceFeedbackABI {
    public static var effectSize: Int { clibinput_ff_effect_size() }
    public static var unionOffset: Int { clibinput_ff_union_offset() }
    public static var hapticEffectSize: Int { clibinput_ff_haptic_size() }
    public static var eviocsff: UInt { clibinput_ioctl_eviocsff() }
    public static var eviocrmff: UInt { clibinput_ioctl_eviocrmff() }
    public static var eviocgeffects: UInt { clibinput_ioctl_eviocgeffects() }
    public static var ffHaptic: UInt16 { UInt16(CLIBINPUT_FF_HAPTIC) }
}
