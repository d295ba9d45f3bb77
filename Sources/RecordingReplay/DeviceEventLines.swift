import InputEvents
import LibinputRecording
import PreviewEngine

/// `preview-replay --events`: the decoded device events, one text line each, for a host that
/// drives its own input stack from a recording (the wlroots example feeds them to virtual
/// wlroots devices). Fields are separated by one space; a device's name is the rest of its line.
///
///     device ID KIND FORCE NAME            KIND: pen|touchpad|touchscreen|pointer|keyboard|other; FORCE 1: pressure axis
///     down T DEV CONTACT SOURCE X Y FORCE POSITIONING     X, Y normalised 0...1; POSITIONING absolute|cursor
///     move T DEV CONTACT SOURCE X Y FORCE POSITIONING
///     up T DEV CONTACT REASON
///     proximity-in T DEV X Y PRESSURE     PRESSURE -1: none
///     proximity-out T DEV X Y
///     tool T DEV X Y PRESSURE
///     motion T DEV DX DY
///     scroll T DEV V120 H120
///     button T DEV CODE PRESSED           (evdev codes; PRESSED 1 or 0)
///     key T DEV CODE PRESSED
///     frame T
///
/// T is the recording's time in µs. Several files: each file's devices get their own numbers
/// and it starts 500 ms after the previous file's last event (as preview-compositor replays them).
public enum DeviceEventLines {
    public static let gapBetweenFiles: Int64 = 500_000

    public static func run(files: [String], options: ReadOptions, output: (String) -> Void) throws(RecordingError) {
        var shift: Int64 = 0
        var deviceBase: UInt32 = 0
        for file in files {
            var input = try RecordingInput(path: file, options: options)
            for device in input.devices {
                let id = deviceBase &+ device.id.rawValue
                let force = device.kind == .pen || device.kind == .touchpad || device.kind == .touchscreen
                output("device \(id) \(device.kind.rawValue) \(force ? 1 : 0) \(device.name)")
            }
            var batch: [DeviceEvent] = []
            var first: Int64?
            var last: Int64 = 0
            while try input.next(into: &batch) {
                for event in batch {
                    if first == nil { first = event.time.microseconds }
                    last = max(last, event.time.microseconds)
                    output(line(event.shifted(by: shift - (first ?? 0), deviceBase: deviceBase)))
                }
                batch.removeAll(keepingCapacity: true)
            }
            input.finish(at: Timestamp(microseconds: last), into: &batch)
            for event in batch { output(line(event.shifted(by: shift - (first ?? 0), deviceBase: deviceBase))) }
            shift += last - (first ?? 0) + gapBetweenFiles
            deviceBase &+= UInt32(input.devices.map { $0.id.rawValue + 1 }.max() ?? 0)
        }
    }

    public static func line(_ event: DeviceEvent) -> String {
        let time = event.time.microseconds
        switch event {
        case .contactBegan(let contact): return "down \(time) " + fields(contact)
        case .contactChanged(let contact): return "move \(time) " + fields(contact)
        case .contactEnded(let key, _, let reason): return "up \(time) \(key.device.rawValue) \(key.contact) \(reason)"
        case .toolProximity(let state, true):
            return
                "proximity-in \(time) \(state.device.rawValue) \(state.position.x) \(state.position.y) \(state.pressure ?? -1)"
        case .toolProximity(let state, false):
            return "proximity-out \(time) \(state.device.rawValue) \(state.position.x) \(state.position.y)"
        case .toolMotion(let state):
            return
                "tool \(time) \(state.device.rawValue) \(state.position.x) \(state.position.y) \(state.pressure ?? -1)"
        case .pointerMotion(let motion): return "motion \(time) \(motion.device.rawValue) \(motion.dx) \(motion.dy)"
        case .scroll(let scroll):
            return "scroll \(time) \(scroll.device.rawValue) \(scroll.vertical120) \(scroll.horizontal120)"
        case .button(let key): return "button \(time) \(key.device.rawValue) \(key.code) \(key.pressed ? 1 : 0)"
        case .key(let key): return "key \(time) \(key.device.rawValue) \(key.code) \(key.pressed ? 1 : 0)"
        case .frame: return "frame \(time)"
        }
    }

    private static func fields(_ contact: DeviceContact) -> String {
        let positioning =
            switch contact.positioning {
            case .absolute: "absolute"
            case .cursor: "cursor"
            }
        return "\(contact.key.device.rawValue) \(contact.key.contact) \(contact.source) \(contact.position.x) "
            + "\(contact.position.y) \(contact.hasForce ? contact.force : -1) \(positioning)"
    }
}
