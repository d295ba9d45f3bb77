/// One touch point as the device reports it: an MT slot, a protocol-A contact or the single
/// touch of a device without MT.
public struct TouchPoint: Hashable, Sendable {
    /// Kernel tracking id (protocol B), -1 when the touch has none.
    public var trackingID: Int32 = -1
    public var x: Int32 = 0
    public var y: Int32 = 0
    public var pressure: Int32 = 0
    /// The device says a touch is down in this slot.
    public var down = false

    public init() {}
}

/// The touch state of one device, independent of what the touches mean (contacts on a
/// touchscreen, pressure of a touchpad click). Handles MT protocol B (slots), protocol A
/// (SYN_MT_REPORT, re-matched by distance) and single touch (BTN_TOUCH; also semi-mt, whose
/// slots are a bounding box, not fingers).
struct TouchSlots: Sendable {
    enum MTProtocol: Sendable { case slots, anonymous, single }

    let proto: MTProtocol
    private(set) var points: [TouchPoint]
    /// What the host was told: a contact began for this slot and has not ended.
    var reported: [Bool]
    /// Ended by a SYN_DROPPED while still down: silent until the device lifts it.
    var tainted: [Bool]
    private var changed: [Bool]
    private var currentSlot = 0

    // Protocol A: the contacts of the frame being read.
    private var frameReports: [TouchPoint] = []
    private var building = TouchPoint()
    private var buildingHasData = false

    init(proto: MTProtocol, slotCount: Int) {
        self.proto = proto
        let count = proto == .single ? 1 : max(1, min(slotCount, 64))
        points = Array(repeating: TouchPoint(), count: count)
        reported = Array(repeating: false, count: count)
        tainted = Array(repeating: false, count: count)
        changed = Array(repeating: false, count: count)
        frameReports.reserveCapacity(count)
    }

    var count: Int { points.count }
    var anyDown: Bool { points.contains { $0.down } }
    func isChanged(_ slot: Int) -> Bool { changed[slot] }

    // MARK: Events (applied as they come; the frame is committed by `commit`).

    mutating func abs(code: UInt16, value: Int32) {
        switch proto {
        case .slots: slotsAbs(code: code, value: value)
        case .anonymous: anonymousAbs(code: code, value: value)
        case .single: break
        }
    }

    /// ABS_X / ABS_Y / ABS_PRESSURE for single-touch devices.
    mutating func singleAbs(code: UInt16, value: Int32) {
        guard proto == .single else { return }
        switch code {
        case AbsCode.x: setX(0, value)
        case AbsCode.y: setY(0, value)
        case AbsCode.pressure: setPressure(0, value)
        default: break
        }
    }

    mutating func singleTouch(down: Bool) {
        guard proto == .single, points[0].down != down else { return }
        points[0].down = down
        changed[0] = true
    }

    mutating func mtReport() {
        guard proto == .anonymous else { return }
        if buildingHasData && frameReports.count < points.count {
            building.down = true
            frameReports.append(building)
        }
        building = TouchPoint()
        buildingHasData = false
    }

    // One setter per field, not one taking a key path: a key-path write costs a runtime call
    // (`swift_getAtKeyPath`) per event, about half of the decoder's work.
    private mutating func setX(_ slot: Int, _ value: Int32) {
        guard points[slot].x != value else { return }
        points[slot].x = value
        changed[slot] = true
    }

    private mutating func setY(_ slot: Int, _ value: Int32) {
        guard points[slot].y != value else { return }
        points[slot].y = value
        changed[slot] = true
    }

    private mutating func setPressure(_ slot: Int, _ value: Int32) {
        guard points[slot].pressure != value else { return }
        points[slot].pressure = value
        changed[slot] = true
    }

    private mutating func slotsAbs(code: UInt16, value: Int32) {
        if code == AbsCode.mtSlot {
            // Out-of-range slots are the device's bug: park their events on an invalid slot.
            currentSlot = value >= 0 && Int(value) < points.count ? Int(value) : -1
            return
        }
        guard currentSlot >= 0 else { return }
        switch code {
        case AbsCode.mtTrackingID:
            points[currentSlot].trackingID = value
            points[currentSlot].down = value >= 0
            changed[currentSlot] = true
        case AbsCode.mtPositionX: setX(currentSlot, value)
        case AbsCode.mtPositionY: setY(currentSlot, value)
        case AbsCode.mtPressure: setPressure(currentSlot, value)
        default: break
        }
    }

    private mutating func anonymousAbs(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.mtTrackingID:
            building.trackingID = value
            // A report with tracking id -1 is a lift, not a contact.
            buildingHasData = value >= 0
            return
        case AbsCode.mtPositionX: building.x = value
        case AbsCode.mtPositionY: building.y = value
        case AbsCode.mtPressure: building.pressure = value
        default: return
        }
        buildingHasData = true
    }

    /// End of frame for protocol A: match this frame's contacts to the previous ones, nearest
    /// first (tracking ids when the device sends them). A frame without any SYN_MT_REPORT has
    /// no contacts.
    mutating func matchAnonymous() {
        guard proto == .anonymous else { return }
        if buildingHasData { mtReport() }
        // Closest pairs first, so a lifted finger doesn't steal the survivor's report.
        var used = 0 as UInt64  // bit per report
        var matched = 0 as UInt64  // bit per slot
        while true {
            var best: (slot: Int, report: Int)?
            var bestDistance = Double.infinity
            for slot in points.indices where points[slot].down && matched & (1 << UInt64(slot)) == 0 {
                for (index, report) in frameReports.enumerated() where used & (1 << UInt64(index)) == 0 {
                    let distance: Double
                    if report.trackingID >= 0 && points[slot].trackingID >= 0 {
                        distance = report.trackingID == points[slot].trackingID ? 0 : .infinity
                    } else {
                        let dx = Double(report.x) - Double(points[slot].x)
                        let dy = Double(report.y) - Double(points[slot].y)
                        distance = dx * dx + dy * dy
                    }
                    if distance < bestDistance {
                        bestDistance = distance
                        best = (slot, index)
                    }
                }
            }
            guard let (slot, index) = best else { break }
            used |= 1 << UInt64(index)
            matched |= 1 << UInt64(slot)
            let report = frameReports[index]
            setX(slot, report.x)
            setY(slot, report.y)
            setPressure(slot, report.pressure)
            points[slot].trackingID = report.trackingID
        }
        for slot in points.indices where points[slot].down && matched & (1 << UInt64(slot)) == 0 {
            points[slot].down = false
            changed[slot] = true
        }
        for (index, report) in frameReports.enumerated() where used & (1 << UInt64(index)) == 0 {
            guard let free = points.indices.first(where: { !points[$0].down && !reported[$0] }) else { break }
            points[free] = report
            changed[free] = true
        }
        frameReports.removeAll(keepingCapacity: true)
    }

    mutating func clearChanges() {
        for slot in changed.indices { changed[slot] = false }
    }

    /// SYN_DROPPED: forget the half-read protocol-A frame.
    mutating func discardPartialFrame() {
        frameReports.removeAll(keepingCapacity: true)
        building = TouchPoint()
        buildingHasData = false
    }
}
