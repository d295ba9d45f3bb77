import CCompositorModule
import FuzzSupport

// Look Up through the library: the host turns it on with FuzzLookupStandIn as preview-lookup
// (a real process the library starts, restarts and ends; it makes its panel surface and hands
// its channel over), and the input speaks for preview-lookup on that channel: answers (found,
// nothing, for the question asked, an old one or one never asked, any extents), dismissals,
// oversized frames, a channel closed mid-press. The host's Look Up callbacks check what the
// header promises and may call back in.

/// preview-lookup's side of one input's Look Up.
struct StandIn {
    /// The lookup channel, and the connection that keeps the stand-in alive (-1: none).
    var channel: Int32 = -1
    var keep: Int32 = -1
    /// Questions read from the channel, the newest last.
    var asked: [UInt32] = []
    var unread: [UInt8] = []

    /// Ends the stand-in (its process exits; the library sees preview-lookup go).
    mutating func close() {
        fuzz_close(channel)
        fuzz_close(keep)
        channel = -1
        keep = -1
        unread.removeAll()
    }
}

/// The listening socket stand-ins connect to, and the stand-in's path (beside this executable).
nonisolated(unsafe) var lookupListener: Int32 = -1
nonisolated(unsafe) var standInPath = ""

func prepareLookup() {
    lookupListener = fuzz_lookup_listen()
    let me = CommandLine.arguments[0]
    let folder = me.lastIndex(of: "/").map { String(me[..<$0]) } ?? "."
    standInPath = folder + "/FuzzLookupStandIn"
}

/// Takes the channel of a stand-in the library started (`wait`: give it time to start).
func takeStandIn(wait: Bool) {
    guard host.standIn.channel < 0, lookupListener >= 0 else { return }
    var keep: Int32 = -1
    let channel = fuzz_lookup_accept(lookupListener, wait ? 1000 : 0, &keep)
    if channel >= 0 {
        host.standIn.channel = channel
        host.standIn.keep = keep
    }
}

/// After an input: the stand-ins it started (and any restarted one) go.
func endStandIns() {
    host.standIn.close()
    while lookupListener >= 0 {
        var keep: Int32 = -1
        let channel = fuzz_lookup_accept(lookupListener, 0, &keep)
        guard channel >= 0 else { break }
        fuzz_close(channel)
        fuzz_close(keep)
    }
}

/// The questions the library sent (frames of a u32 length, then type and id).
func readQuestions() {
    guard host.standIn.channel >= 0 else { return }
    var chunk = [UInt8](repeating: 0, count: 512)
    while true {
        let count = chunk.withUnsafeMutableBytes { fuzz_receive(host.standIn.channel, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        host.standIn.unread += chunk[..<count]
    }
    func u32(_ at: Int) -> UInt32 {
        host.standIn.unread[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
    while host.standIn.unread.count >= 12 {
        let length = Int(u32(0))
        guard length >= 8, length <= 64 else { broken("the library sent a \(length)-byte frame") }
        guard host.standIn.unread.count >= 4 + length else { break }
        switch u32(4) {
        case 1, 3: host.standIn.asked.append(u32(8))
        case 2: break
        default: broken("the library sent a frame of type \(u32(4))")
        }
        host.standIn.unread.removeFirst(4 + length)
    }
}

func send(_ body: [UInt8]) { sendRaw(le(UInt32(body.count)) + body) }

func sendRaw(_ bytes: [UInt8]) {
    guard host.standIn.channel >= 0 else { return }
    _ = bytes.withUnsafeBytes { fuzz_send(host.standIn.channel, $0.baseAddress, $0.count, -1) }
}

func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

/// One Look Up step of the host or of preview-lookup, chosen by the script.
func lookUp(_ script: inout Script) {
    readQuestions()
    let asked = host.standIn.asked
    func question() -> UInt32 {
        let choice = script.byte()
        if asked.isEmpty || choice % 4 == 0 { return UInt32(choice / 4) }
        return asked[asked.count - 1 - Int(choice / 4) % min(asked.count, 3)]
    }
    switch script.byte() % 10 {
    case 0:
        // A process started now (a new client) connects at once: wait for it, and only then.
        var before: OpaquePointer?
        var after: OpaquePointer?
        _ = preview_interaction_lookup_client(host.context, &before)
        _ = preview_interaction_set_lookup(host.context, true, standInPath)
        _ = preview_interaction_lookup_client(host.context, &after)
        if after != nil && after != before { host.standIn.close() }
        takeStandIn(wait: after != nil && after != before)
    case 1: _ = preview_interaction_set_lookup(host.context, false, nil)
    case 2:
        // Not an executable: Look Up stays as it was.
        _ = preview_interaction_set_lookup(host.context, true, script.byte() % 2 == 0 ? "/nonexistent" : nil)
    case 3: _ = preview_interaction_set_lookup_long_press(host.context, script.byte() % 2 == 0)
    case 4:
        var client: OpaquePointer?
        if script.byte() % 4 == 0 {
            _ = preview_interaction_lookup_client(host.context, nil)
        } else {
            _ = preview_interaction_lookup_client(host.context, &client)
        }
    case 5, 6:
        // An answer: a word, a link or nothing, with extents of any size, short strings.
        var body = le(101) + le(question()) + le(UInt32(script.byte() % 4))
        for _ in 0..<4 { body += le(UInt32(bitPattern: script.int32())) }
        body += le(1234)
        for text in ["gtk", "word", "https://example.org", "a definition"] {
            let bytes = Array(text.utf8)
            body += [UInt8(bytes.count), 0] + bytes
        }
        if script.byte() % 8 == 0 { body.removeLast(Int(script.byte()) % body.count) }
        send(body)
    case 7: send(le(103) + le(question()))
    case 9:
        // The user's deadline: in range, at its ends, just out of it, or any value at all.
        let hostile: [UInt32] = [0, 1, 99, 100, 500, 5000, 5001, .max]
        let choice = script.byte()
        let milliseconds = choice < 128 ? hostile[Int(choice) % hostile.count] : UInt32(bitPattern: script.int32())
        // OK exactly in range; a context a callback destroyed answers INVALID_CONTEXT to anything.
        let status = preview_interaction_set_lookup_deadline(host.context, milliseconds)
        let expected =
            (100...5000).contains(milliseconds)
            ? PREVIEW_INTERACTION_OK.rawValue : PREVIEW_INTERACTION_ERROR_INVALID_ARGUMENT.rawValue
        if status != expected && status != PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT.rawValue {
            broken("set_lookup_deadline(\(milliseconds)) gave \(status)")
        }
    default:
        switch script.byte() % 3 {
        case 0: sendRaw([0xff, 0xff, 0xff, 0x7f])  // an oversized frame: the library restarts preview-lookup
        case 1: host.standIn.close()  // preview-lookup goes away
        default: takeStandIn(wait: false)  // one the library restarted, if any
        }
    }
}
