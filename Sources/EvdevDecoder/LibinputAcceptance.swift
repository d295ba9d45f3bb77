extension DeviceDescription {
    /// Why libinput would refuse to use this device, in libinput's words; nil when it would take
    /// it. The decoder replays such a device anyway (its events are well defined), but a
    /// compositor on libinput would never see it. The rules of libinput 1.22's
    /// `evdev_reject_device` (src/evdev.c) and, for tablets, `tablet_reject_device`
    /// (src/evdev-tablet.c).
    public var libinputRejection: String? {
        let abs = EventType.abs
        func has(_ type: UInt16, _ code: UInt16) -> Bool { self.has(type: type, code: code) }
        if has(abs, AbsCode.x) != has(abs, AbsCode.y) { return "device has only one of ABS_X and ABS_Y" }
        if has(EventType.rel, RelCode.x) != has(EventType.rel, RelCode.y) {
            return "device has only one of REL_X and REL_Y"
        }
        // A "fake" MT device (ABS_MT_SLOT next to ABS_MT_SLOT - 1, libevdev's num_slots -1) is
        // exempt from the MT rules: its MT codes are not MT axes.
        let fakeMT = has(abs, AbsCode.mtSlot) && has(abs, AbsCode.mtSlot - 1)
        if !fakeMT && has(abs, AbsCode.mtPositionX) != has(abs, AbsCode.mtPositionY) {
            return "device has only one of ABS_MT_POSITION_X and ABS_MT_POSITION_Y"
        }
        func oneResolution(_ x: UInt16, _ y: UInt16) -> Bool {
            let rx = absinfo[x]?.resolution ?? 0
            let ry = absinfo[y]?.resolution ?? 0
            return (rx == 0) != (ry == 0)
        }
        if has(abs, AbsCode.x) && oneResolution(AbsCode.x, AbsCode.y) {
            return "kernel has only x or y resolution, not both"
        }
        if !fakeMT && has(abs, AbsCode.mtPositionX) && oneResolution(AbsCode.mtPositionX, AbsCode.mtPositionY) {
            return "kernel has only x or y MT resolution, not both"
        }
        for code in (codes[abs] ?? []).sorted() {
            switch code {
            case AbsCode.misc, AbsCode.mtSlot, AbsCode.mtToolType: continue
            default: break
            }
            guard let info = absinfo[code], info.minimum == info.maximum else { continue }
            // libinput disables these instead (some mice legitimately report 0...0 there).
            if info.minimum == 0 && code >= AbsCode.misc && code < AbsCode.mtSlot { continue }
            return "device has min == max on \(EvdevNames.codeName(type: abs, code: code))"
        }
        if kind == .pen {
            let hasXY = has(abs, AbsCode.x) && has(abs, AbsCode.y)
            let hasPen = has(EventType.key, KeyCode.btnToolPen) || has(EventType.key, KeyCode.btnStylus)
            let hasSize = (absinfo[AbsCode.x]?.resolution ?? 0) > 0 && (absinfo[AbsCode.y]?.resolution ?? 0) > 0
            if !(hasXY && hasPen && hasSize) {
                return "missing tablet capabilities:" + (hasXY ? "" : " xy") + (hasPen ? "" : " pen")
                    + (hasSize ? "" : " resolution")
            }
        }
        return nil
    }
}
