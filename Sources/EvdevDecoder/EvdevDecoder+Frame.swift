import InputEvents
import PreviewEngine

// What each kind of device emits at SYN_REPORT. Order within a frame: proximity in, motion,
// contact begin/change, buttons and keys, contact end, proximity out, frame.
extension EvdevDecoder {
    mutating func commit(at time: Timestamp, into output: inout [DeviceEvent]) {
        let before = output.count
        switch kind {
        case .pen: commitPen(at: time, into: &output)
        case .touchscreen: commitTouchscreen(at: time, into: &output)
        case .touchpad: commitTouchpad(at: time, into: &output)
        case .pointer: commitPointer(at: time, into: &output)
        case .keyboard, .other: flushKeys(into: &output)
        }
        absChanged = false
        if isTouch { touches.clearChanges() }
        if output.count > before { output.append(.frame(time)) }
    }

    mutating func flushKeys(into output: inout [DeviceEvent]) {
        guard !pendingKeys.isEmpty else { return }  // most frames: no key, nothing to clear
        for key in pendingKeys {
            output.append(KeyCode.isButton(key.code) ? .button(key) : .key(key))
        }
        pendingKeys.removeAll(keepingCapacity: true)
    }

    // MARK: Pens

    private var penAxes: PenAxes {
        PenAxes(
            tool: pen.tool,
            distance: distanceAxis.map { $0.normalise(pen.distance) },
            tiltX: tiltXAxis.map { Self.degrees(pen.tiltX, $0) },
            tiltY: tiltYAxis.map { Self.degrees(pen.tiltY, $0) })
    }

    /// Tilt resolution is units per radian; without one, assume the range spans ±64° like libinput.
    private static func degrees(_ raw: Int32, _ axis: AbsInfo) -> Double {
        if axis.resolution > 0 {
            let centre = (Double(axis.minimum) + Double(axis.maximum)) / 2
            return (Double(raw) - centre) / Double(axis.resolution) * 180 / Double.pi
        }
        return axis.centred(raw) * 64
    }

    private var penPosition: NormalisedPoint {
        NormalisedPoint(x: xAxis?.normalise(absX) ?? 0.5, y: yAxis?.normalise(absY) ?? 0.5)
    }

    private var penKey: ContactKey { ContactKey(seat: seat, device: device, contact: 0) }

    /// Built only for a frame that reports the contact (most hovering frames do not).
    private func penContact(at time: Timestamp) -> DeviceContact {
        DeviceContact(
            key: penKey, time: time,
            force: penForce ?? 0, hasForce: hasForce, position: penPosition,
            positioning: .absolute, source: .pen, pen: penAxes)
    }

    /// libinput's normalised pressure (from the tool's lower threshold), nil without an axis.
    private var penForce: Double? {
        if let tabletPressure { return tabletPressure.force(pen.tool, raw: absPressure) }
        return pressure?.normalise(absPressure)
    }

    private func toolState(at time: Timestamp) -> ToolState {
        ToolState(
            device: device, time: time, position: penPosition, pressure: penForce,
            axes: penAxes)
    }

    private mutating func commitPen(at time: Timestamp, into output: inout [DeviceEvent]) {
        // A pen that was in proximity when the recording started never sends BTN_TOOL_*: its
        // first tip or axis event is the proximity-in.
        if !pen.inProximity && !pen.sawToolEvent && (pen.tipDown || absChanged) {
            pen.inProximity = true
            pen.proximityChanged = true
        }
        if pen.tipDown && !pen.tipReported && !pen.inProximity && !pen.tipTainted && !pen.proximityChanged {
            pen.inProximity = true  // a new tip down implies the pen is there, whatever the tool bits say
            pen.proximityChanged = true
        }
        // libinput's tip: from the pressure thresholds (BTN_TOUCH is ignored, see `key`).
        if pen.inProximity,
            let down = tabletPressure?.tipDown(
                pen.tool, pressure: absPressure, distance: pen.distance, entering: pen.proximityChanged,
                wasDown: pen.tipDown)
        {
            if !down { pen.tipTainted = false }  // lifted: a later press is a fresh one
            pen.tipDown = down
        }
        if pen.proximityChanged && pen.inProximity {
            output.append(.toolProximity(toolState(at: time), inProximity: true))
        }
        let beginTip = pen.inProximity && pen.tipDown && !pen.tipReported && !pen.tipTainted
        if beginTip {
            pen.tipReported = true
            output.append(.contactBegan(penContact(at: time)))
        } else if pen.tipReported && absChanged {
            output.append(.contactChanged(penContact(at: time)))
        } else if pen.inProximity && !pen.tipReported && absChanged && !pen.proximityChanged {
            output.append(.toolMotion(toolState(at: time)))
        }
        flushKeys(into: &output)
        if pen.tipReported && (!pen.tipDown || !pen.inProximity) {
            pen.tipReported = false
            output.append(.contactEnded(penKey, time: time, reason: .lifted))
        }
        if !pen.inProximity { pen.tipDown = false }  // no tip without a pen; a late BTN_TOUCH 0 is moot
        if pen.proximityChanged && !pen.inProximity {
            output.append(.toolProximity(toolState(at: time), inProximity: false))
        }
        pen.proximityChanged = false
    }

    // MARK: Touch devices

    /// The normalised pressure of a touch point: its own ABS_MT_PRESSURE, else the device's
    /// ABS_PRESSURE (single-touch, protocol-A and semi-mt pads report one pressure for the pad).
    public func pressure(of point: TouchPoint) -> Double {
        if let mtPressure { return mtPressure.normalise(point.pressure) }
        return pressure?.normalise(absPressure) ?? 0
    }

    private func touchPosition(_ point: TouchPoint) -> NormalisedPoint {
        if touches.proto == .single {
            return NormalisedPoint(x: xAxis?.normalise(point.x) ?? 0.5, y: yAxis?.normalise(point.y) ?? 0.5)
        }
        return NormalisedPoint(x: mtXAxis?.normalise(point.x) ?? 0.5, y: mtYAxis?.normalise(point.y) ?? 0.5)
    }

    private mutating func commitTouchscreen(at time: Timestamp, into output: inout [DeviceEvent]) {
        touches.matchAnonymous()
        var ended: UInt64 = 0
        for slot in 0..<touches.count {
            let point = touches.points[slot]
            let key = ContactKey(seat: seat, device: device, contact: Int32(slot))
            if touches.reported[slot] && (!point.down || point.trackingID != reportedIDs[slot]) {
                // Lifted, or a new tracking id replaced the touch in this slot.
                touches.reported[slot] = false
                ended |= 1 << UInt64(slot)
            }
            if touches.tainted[slot] && (!point.down || point.trackingID != reportedIDs[slot]) {
                touches.tainted[slot] = false
            }
            let contact = DeviceContact(
                key: key, time: time, force: pressure(of: point), hasForce: hasForce, position: touchPosition(point),
                positioning: .absolute, source: .touchscreen)
            if point.down && !touches.reported[slot] && !touches.tainted[slot] {
                if ended & (1 << UInt64(slot)) != 0 {
                    output.append(.contactEnded(key, time: time, reason: .lifted))
                    ended &= ~(1 << UInt64(slot))
                }
                touches.reported[slot] = true
                reportedIDs[slot] = point.trackingID
                output.append(.contactBegan(contact))
            } else if touches.reported[slot] && (touches.isChanged(slot) || (absChanged && mtPressure == nil)) {
                output.append(.contactChanged(contact))
            }
        }
        flushKeys(into: &output)
        for slot in 0..<touches.count where ended & (1 << UInt64(slot)) != 0 {
            output.append(
                .contactEnded(ContactKey(seat: seat, device: device, contact: Int32(slot)), time: time, reason: .lifted)
            )
        }
    }

    /// The force of a touchpad click: the hardest-pressing finger.
    private var padForce: Double {
        guard hasForce else { return 0 }
        if mtPressure == nil { return pressure?.normalise(absPressure) ?? 0 }
        var force = 0.0
        for point in touches.points where point.down { force = max(force, pressure(of: point)) }
        return force
    }

    private var padPosition: NormalisedPoint {
        if xAxis != nil { return NormalisedPoint(x: xAxis?.normalise(absX) ?? 0.5, y: yAxis?.normalise(absY) ?? 0.5) }
        if let point = touches.points.first(where: { $0.down }) { return touchPosition(point) }
        return .centre
    }

    private mutating func commitTouchpad(at time: Timestamp, into output: inout [DeviceEvent]) {
        touches.matchAnonymous()
        // Which finger positions drive the cursor: the kernel's single-touch emulation when
        // the pad has it, else the first touch. With BTN_TOUCH only a touching finger moves it,
        // as in libinput: a protocol A pad reports a finger landing before it touches, and that
        // finger's first position is not a move from where the last one lifted.
        var current: (x: Int32, y: Int32)?
        if xAxis != nil && yAxis != nil {
            let touching = hasTouchKey ? touchKey : touches.anyDown || fingerCount > 0 || touches.points[0].down
            current = touching ? (absX, absY) : nil
        } else if let point = touches.points.first(where: { $0.down }) {
            current = (point.x, point.y)
        }
        var moved = false
        if resetMotion || current == nil || fingerCount > 1 {
            motionReference = fingerCount > 1 ? nil : current
        } else if let reference = motionReference, let current {
            let dx = (Double(current.x) - Double(reference.x)) / unitsPerMM.x * (1000 / 25.4)
            let dy = (Double(current.y) - Double(reference.y)) / unitsPerMM.y * (1000 / 25.4)
            if dx != 0 || dy != 0 {
                output.append(.pointerMotion(RelativeMotion(device: device, time: time, dx: dx, dy: dy)))
                moved = true
            }
            motionReference = current
        } else {
            motionReference = current
        }
        resetMotion = false
        for slot in 0..<touches.count where !touches.points[slot].down { touches.tainted[slot] = false }
        // A pressure pad presses by force: the finger on the pad is the contact (its click is
        // a force threshold of the pad's own, delivered as the button it is).
        let down = isPressurePad ? fingerTouching : click.mask != 0
        commitClick(at: time, moved: moved, down: down, positioning: .cursor, source: .touchpad, into: &output)
    }

    /// A finger touches the pad: BTN_TOUCH where the pad has it (Apple's pads report hovering
    /// fingers as touches and tools), else any touch point.
    private var fingerTouching: Bool { hasTouchKey ? touchKey : touches.anyDown || fingerCount > 0 }

    private mutating func commitClick(
        at time: Timestamp, moved: Bool, down: Bool, positioning: Positioning, source: InputSource,
        into output: inout [DeviceEvent]
    ) {
        let key = ContactKey(seat: seat, device: device, contact: 0)
        let force = source == .touchpad ? padForce : 0
        let contact = DeviceContact(
            key: key, time: time, force: force, hasForce: source == .touchpad && hasForce,
            position: source == .touchpad ? padPosition : .centre, positioning: positioning, source: source)
        if click.fresh || (click.tainted && !down) {
            click.tainted = false
            click.fresh = false
        }
        if down && !click.reported && !click.tainted {
            // The button event first, so a host sees the click before the preview starts.
            flushKeys(into: &output)
            click.reported = true
            click.lastForce = force
            output.append(.contactBegan(contact))
            return
        }
        if click.reported && down && (moved || force != click.lastForce) {
            click.lastForce = force
            output.append(.contactChanged(contact))
        }
        flushKeys(into: &output)
        if click.reported && !down {
            click.reported = false
            output.append(.contactEnded(key, time: time, reason: .lifted))
        }
    }

    // MARK: Mice

    private mutating func commitPointer(at time: Timestamp, into output: inout [DeviceEvent]) {
        let moved = relX != 0 || relY != 0
        if moved {
            output.append(
                .pointerMotion(RelativeMotion(device: device, time: time, dx: Double(relX), dy: Double(relY))))
            relX = 0
            relY = 0
        }
        // Hi-res wheels send both forms; once a device has sent hi-res, its low-res events
        // are the duplicates.
        let vertical = wheelHiResSeen.vertical ? wheel.hiRes : wheel.notches &* 120
        let horizontal = wheelHiResSeen.horizontal ? wheel.hHiRes : wheel.hNotches &* 120
        if vertical != 0 || horizontal != 0 {
            output.append(
                .scroll(ScrollMotion(device: device, time: time, vertical120: 0 &- vertical, horizontal120: horizontal))
            )
        }
        wheel = (0, 0, 0, 0)
        commitClick(
            at: time, moved: moved, down: click.mask != 0, positioning: .cursor, source: .pointer, into: &output)
    }

    // MARK: SYN_DROPPED

    mutating func desynchronise(at time: Timestamp, into output: inout [DeviceEvent]) {
        let before = output.count
        endReported(at: time, reason: .desynchronised, into: &output)
        pendingKeys.removeAll(keepingCapacity: true)
        touches.discardPartialFrame()
        touches.clearChanges()
        absChanged = false
        pen.proximityChanged = false
        resetMotion = true
        if output.count > before { output.append(.frame(time)) }
    }

    /// Ends every reported contact; those still physically down stay tainted (silent) until lifted.
    mutating func endReported(at time: Timestamp, reason: CancelReason, into output: inout [DeviceEvent]) {
        if pen.tipReported {
            pen.tipReported = false
            pen.tipTainted = pen.tipDown
            output.append(.contactEnded(ContactKey(seat: seat, device: device, contact: 0), time: time, reason: reason))
        }
        for slot in 0..<touches.count where touches.reported[slot] {
            touches.reported[slot] = false
            touches.tainted[slot] = touches.points[slot].down
            output.append(
                .contactEnded(ContactKey(seat: seat, device: device, contact: Int32(slot)), time: time, reason: reason))
        }
        if click.reported {
            click.reported = false
            click.tainted = isPressurePad ? fingerTouching : click.mask != 0
            output.append(.contactEnded(ContactKey(seat: seat, device: device, contact: 0), time: time, reason: reason))
        }
    }
}
