import CLibinput
import EvdevDecoder
import InputEvents
import PreviewEngine

// Linux input codes the backend reads from the kernel state.
let absX: UInt32 = 0x00
let absY: UInt32 = 0x01
let absPressure: UInt32 = 0x18
let absMTSlot: UInt32 = 0x2f
let absMTPositionX: UInt32 = 0x35
let absMTPositionY: UInt32 = 0x36
let absMTTrackingID: UInt32 = 0x39
let absMTPressure: UInt32 = 0x3a
let evAbs: UInt32 = 0x03
let btnLeft = UInt32(EventCode.buttonLeft)
let btnTouch = UInt32(EventCode.buttonTouch)
let evKey: UInt32 = 0x01
/// Not in every kernel header yet (Linux 5.12): a touchpad whose click is pressure-sensed.
let inputPropPressurePad: UInt32 = 0x07
let inputPropSemiMT: UInt32 = 0x03

/// Where a touch device's force comes from: libinput has no touch pressure, so it is the
/// kernel's evdev state of the fd libinput reads, normalised by absinfo (and quirks).
final class TouchPressure {
    /// Slots read at most (the kernel's multitouch devices have 10 to 60).
    static let maximumSlots = 64
    enum Axis {
        /// ABS_MT_PRESSURE per slot (protocol B devices).
        case slots(count: Int)
        /// ABS_PRESSURE: single-touch devices, and MT devices whose slots carry no pressure.
        case single
    }

    let state: EvdevState
    let axis: Axis
    let normaliser: ForceNormaliser
    let origin: String
    /// ABS_MT_TRACKING_ID, _PRESSURE, _POSITION_X, _POSITION_Y per slot, EVIOCGMTSLOTS layout
    /// (index 0 is the code). Allocated once per device so polling never allocates.
    private let tracking: UnsafeMutableBufferPointer<Int32>
    private let pressure: UnsafeMutableBufferPointer<Int32>
    private let positionX: UnsafeMutableBufferPointer<Int32>
    private let positionY: UnsafeMutableBufferPointer<Int32>
    let rangeX: EvdevState.AbsInfo?
    let rangeY: EvdevState.AbsInfo?
    /// EVIOCGKEY's answer, for pressure pads with BTN_TOUCH (nil otherwise): whether a finger
    /// touches, which their pressure (above zero while a finger hovers) cannot say.
    private let keys: UnsafeMutableBufferPointer<UInt8>?

    /// Nil when the device has no usable pressure axis (long-press fallback).
    /// `pressurePad`: the axis is a force (`INPUT_PROP_PRESSUREPAD`), in grams where it has a
    /// resolution (`PressurePad.normaliser`); libinput's pressure quirks are about contact
    /// area and do not apply.
    init?(state: EvdevState, quirks: PressureQuirks, pressurePad: Bool = false) {
        guard pressurePad || !quirks.disablesPressure else { return nil }
        // Semi-mt pads report a bounding box, not touches, in their slots: their pressure is
        // the pad's ABS_PRESSURE (as the decoder reads them).
        let semiMT = state.hasProperty(inputPropSemiMT)
        let slotInfo = !semiMT && state.hasCode(type: evAbs, code: absMTSlot) ? state.absInfo(absMTSlot) : nil
        let mtPressure = slotInfo != nil && state.hasCode(type: evAbs, code: absMTPressure)
        let code = mtPressure ? absMTPressure : absPressure
        guard state.hasCode(type: evAbs, code: code), let info = state.absInfo(code) else { return nil }
        let minimum = max(info.minimum, min(quirks.floor ?? info.minimum, info.maximum - 1))
        let axisInfo = AbsInfo(minimum: info.minimum, maximum: info.maximum, resolution: info.resolution)
        guard
            let normaliser = pressurePad
                ? PressurePad.normaliser(axisInfo) : ForceNormaliser(minimum: minimum, maximum: info.maximum)
        else { return nil }
        self.state = state
        self.normaliser = normaliser
        // The device's slot count, as far as we read slots (a device may declare any maximum).
        let count = mtPressure ? min(Self.maximumSlots, max(0, Int(slotInfo?.maximum ?? 0) + 1)) : 0
        axis = mtPressure ? .slots(count: count) : .single
        let name = mtPressure ? "ABS_MT_PRESSURE" : "ABS_PRESSURE"
        origin =
            pressurePad
            ? "evdev \(name) force (pressure pad, \(PressurePad.unit(axisInfo)))"
            : "evdev \(name) \(minimum)...\(info.maximum)"
        let bufferCount = max(count, 1) + 1
        tracking = .allocate(capacity: bufferCount)
        pressure = .allocate(capacity: bufferCount)
        positionX = .allocate(capacity: bufferCount)
        positionY = .allocate(capacity: bufferCount)
        for buffer in [tracking, pressure, positionX, positionY] { buffer.initialize(repeating: 0) }
        keys = pressurePad && state.hasCode(type: evKey, code: btnTouch) ? .allocate(capacity: 96) : nil
        keys?.initialize(repeating: 0)
        rangeX = state.absInfo(mtPressure ? absMTPositionX : absX)
        rangeY = state.absInfo(mtPressure ? absMTPositionY : absY)
    }

    deinit {
        tracking.deallocate()
        pressure.deallocate()
        positionX.deallocate()
        positionY.deallocate()
        keys?.deallocate()
    }

    var slotCount: Int {
        switch axis {
        case .slots(let count): count
        case .single: 1
        }
    }

    /// Refreshes the per-slot state from the kernel. False when the fd no longer answers.
    func refresh() -> Bool {
        switch axis {
        case .slots:
            state.slots(absMTTrackingID, into: tracking) && state.slots(absMTPressure, into: pressure)
                && state.slots(absMTPositionX, into: positionX) && state.slots(absMTPositionY, into: positionY)
        case .single:
            refreshSingle()
        }
    }

    private func refreshSingle() -> Bool {
        guard let value = state.value(absPressure) else { return false }
        pressure[1] = value
        positionX[1] = state.value(absX) ?? 0
        positionY[1] = state.value(absY) ?? 0
        // Single-touch devices have no tracking id: a touch is a pressure above the floor.
        tracking[1] = value > normaliser.minimum ? 0 : -1
        return true
    }

    /// Force of a slot after `refresh()`; 0 for an empty slot.
    func force(slot: Int) -> Double {
        guard slot >= 0, slot < slotCount else { return 0 }
        return normaliser.normalise(pressure[slot + 1])
    }

    func isTouching(slot: Int) -> Bool {
        guard slot >= 0, slot < slotCount else { return false }
        return tracking[slot + 1] >= 0
    }

    /// The slot's finger position, 0...1 over the axis ranges.
    func position(slot: Int) -> NormalisedPoint {
        guard slot >= 0, slot < slotCount else { return .centre }
        return NormalisedPoint(x: scale(positionX[slot + 1], rangeX), y: scale(positionY[slot + 1], rangeY))
    }

    /// A touchpad click's force: the hardest-pressing finger (as the recording decoder does).
    func hardestForce() -> Double {
        var force = 0.0
        for slot in 0..<slotCount where isTouching(slot: slot) { force = max(force, self.force(slot: slot)) }
        return force
    }

    /// The force frame by frame from here on, from the kernel's state now (after `refresh()`).
    func history(at time: Int64) -> ForceHistory {
        let count = slotCount
        let axis: ForceHistory.Axis =
            switch self.axis {
            case .slots(let count): .slots(count: count)
            case .single: .single
            }
        return ForceHistory(
            axis: axis, normaliser: normaliser, tracking: (0..<count).map { tracking[$0 + 1] },
            pressure: (0..<count).map { pressure[$0 + 1] }, at: time)
    }

    /// Whether any finger is on the pad (after `refresh()`).
    var anyTouching: Bool {
        if let keys { return state.isDown(key: btnTouch, buffer: keys) ?? false }
        for slot in 0..<slotCount where isTouching(slot: slot) { return true }
        return false
    }

    /// Where the first finger is on the pad (informative for cursor-positioned contacts).
    func padPosition() -> NormalisedPoint {
        for slot in 0..<slotCount where isTouching(slot: slot) { return position(slot: slot) }
        return .centre
    }

    private func scale(_ value: Int32, _ range: EvdevState.AbsInfo?) -> Double {
        guard let range, range.maximum > range.minimum else { return 0.5 }
        return min(1, max(0, Double(value - range.minimum) / Double(range.maximum - range.minimum)))
    }
}
