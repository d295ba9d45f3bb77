import FuzzInput
import FuzzSupport
import Glibc
import InputEvents
import Logging
import PreviewCompositor
import PreviewEngine

// Each input is a program for one client of an in-process compositor: which object gets which
// request with which numbers (extremes often), interleaved with device input. The requests go
// over a real socket in the Wayland wire format, so libwayland's demarshalling, our handlers and
// the interaction path all run. The compositor lives for the whole run (a fresh one per input
// would be a thousand times slower); each input's client connects and leaves.

/// What a client object is, for choosing requests and arguments.
enum Kind: Int, CaseIterable {
    case display, registry, compositor, subcompositor, shm, shmPool, buffer, surface, region, subsurface, output
    case seat, pointer, keyboard, touch, wmBase, positioner, xdgSurface, toplevel, popup, tabletManager, tabletSeat
    case dataDeviceManager, dataSource, dataDevice, previewManager, preview, callback
}

enum Arg {
    case int, uint, string, fd
    case object(Kind, nullable: Bool)
    case newID(Kind)
}

struct Request {
    var opcode: UInt16
    var args: [Arg]
    var destructor = false
}

/// Requests per interface, in protocol order (opcodes), at the versions bound below.
let requests: [Kind: [Request]] = {
    func r(_ opcode: UInt16, _ args: [Arg] = [], destructor: Bool = false) -> Request {
        Request(opcode: opcode, args: args, destructor: destructor)
    }
    let rect: [Arg] = [.int, .int, .int, .int]
    return [
        .display: [r(0, [.newID(.callback)])],
        .compositor: [r(0, [.newID(.surface)]), r(1, [.newID(.region)])],
        .subcompositor: [
            r(0, destructor: true),
            r(1, [.newID(.subsurface), .object(.surface, nullable: false), .object(.surface, nullable: false)]),
        ],
        .shm: [r(0, [.newID(.shmPool), .fd, .int])],
        .shmPool: [r(0, [.newID(.buffer), .int, .int, .int, .int, .uint]), r(1, destructor: true), r(2, [.int])],
        .buffer: [r(0, destructor: true)],
        .surface: [
            r(0, destructor: true), r(1, [.object(.buffer, nullable: true), .int, .int]), r(2, rect),
            r(3, [.newID(.callback)]),
            r(4, [.object(.region, nullable: true)]), r(5, [.object(.region, nullable: true)]), r(6), r(6), r(6),
            r(7, [.int]),
            r(8, [.int]), r(9, rect),
        ],
        .region: [r(0, destructor: true), r(1, rect), r(2, rect)],
        .subsurface: [
            r(0, destructor: true), r(1, [.int, .int]), r(2, [.object(.surface, nullable: false)]),
            r(3, [.object(.surface, nullable: false)]), r(4), r(5),
        ],
        .output: [r(0, destructor: true)],
        .seat: [r(0, [.newID(.pointer)]), r(1, [.newID(.keyboard)]), r(2, [.newID(.touch)]), r(3, destructor: true)],
        .pointer: [r(0, [.uint, .object(.surface, nullable: true), .int, .int]), r(1, destructor: true)],
        .keyboard: [r(0, destructor: true)],
        .touch: [r(0, destructor: true)],
        .wmBase: [
            r(0, destructor: true), r(1, [.newID(.positioner)]),
            r(2, [.newID(.xdgSurface), .object(.surface, nullable: false)]), r(3, [.uint]),
        ],
        .positioner: [
            r(0, destructor: true), r(1, [.int, .int]), r(2, rect), r(3, [.uint]), r(4, [.uint]), r(5, [.uint]),
            r(6, [.int, .int]),
        ],
        .xdgSurface: [
            r(0, destructor: true), r(1, [.newID(.toplevel)]),
            r(2, [.newID(.popup), .object(.xdgSurface, nullable: true), .object(.positioner, nullable: false)]),
            r(3, rect),
            r(4, [.uint]),
        ],
        .toplevel: [
            r(0, destructor: true), r(1, [.object(.toplevel, nullable: true)]), r(2, [.string]), r(3, [.string]),
            r(4, [.object(.seat, nullable: false), .uint, .int, .int]), r(5, [.object(.seat, nullable: false), .uint]),
            r(6, [.object(.seat, nullable: false), .uint, .uint]), r(7, [.int, .int]), r(8, [.int, .int]), r(9), r(10),
            r(11, [.object(.output, nullable: true)]), r(12), r(13),
        ],
        .popup: [r(0, destructor: true), r(1, [.object(.seat, nullable: false), .uint])],
        .tabletManager: [r(0, [.newID(.tabletSeat), .object(.seat, nullable: false)]), r(1, destructor: true)],
        .tabletSeat: [r(0, destructor: true)],
        .dataDeviceManager: [
            r(0, [.newID(.dataSource)]), r(1, [.newID(.dataDevice), .object(.seat, nullable: false)]),
        ],
        .dataSource: [r(0, [.string]), r(1, destructor: true), r(2, [.uint])],
        .dataDevice: [
            r(
                0,
                [
                    .object(.dataSource, nullable: true), .object(.surface, nullable: false),
                    .object(.surface, nullable: true), .uint,
                ]),
            r(1, [.object(.dataSource, nullable: true), .uint]), r(2, destructor: true),
        ],
        .previewManager: [r(0, destructor: true), r(1, [.newID(.preview), .object(.surface, nullable: false)])],
        .preview: [
            r(0, destructor: true), r(1, [.object(.region, nullable: true)]), r(2, [.uint]), r(3, [.uint]),
            r(4, [.uint]),
            r(5, [.uint]), r(6, [.uint]),
        ],
    ]
}()

/// The globals a client binds, with the versions the compositor offers.
let globals: [(interface: String, version: UInt32, kind: Kind)] = [
    ("wl_compositor", 4, .compositor), ("wl_subcompositor", 1, .subcompositor), ("wl_shm", 1, .shm),
    ("wl_output", 4, .output), ("xdg_wm_base", 2, .wmBase), ("wl_seat", 7, .seat),
    ("zwp_tablet_manager_v2", 1, .tabletManager), ("wl_data_device_manager", 3, .dataDeviceManager),
    ("spi_preview_interaction_manager_v1", 1, .previewManager),
]

let extremes: [Int32] = [
    .min, .min + 1, -65_536, -1, 0, 1, 2, 4, 16, 17, 100, 640, 8192, 8193, 16_384, 65_536, 1 << 20, .max - 100, .max,
]

/// The input bytes, read as a program; past the end every read is 0.
typealias Program = FuzzBytes

extension FuzzBytes {
    mutating func int32() -> Int32 {
        let choice = byte()
        if Int(choice) < extremes.count * 8 { return extremes[Int(choice) % extremes.count] }
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(byte()) }
        return Int32(bitPattern: value)
    }
}

/// The client side: the objects it holds, and what it has heard (serials, interactions).
struct ClientState {
    var socket: Int32
    var nextID: UInt32 = 2
    var objects: [(id: UInt32, kind: Kind)] = [(1, .display)]
    var configureSerials: [UInt32] = []
    var interactions: [UInt32] = []
    var frameSerials: [UInt32] = []
    var pingSerial: UInt32 = 0
    var dead = false
    var out: [UInt8] = []
    var pendingFD: Int32 = -1

    func kind(of id: UInt32) -> Kind? { objects.first { $0.id == id }?.kind }

    mutating func allocate(_ kind: Kind) -> UInt32 {
        defer { nextID += 1 }
        objects.append((nextID, kind))
        return nextID
    }

    mutating func put(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// Sends what is queued, with the pending fd; the fd is ours to close whatever happens.
    mutating func flush() {
        defer {
            if pendingFD >= 0 { close(pendingFD) }
            pendingFD = -1
            out.removeAll(keepingCapacity: true)
        }
        guard !out.isEmpty, !dead else { return }
        let sent = out.withUnsafeBytes { fuzz_send(socket, $0.baseAddress, $0.count, pendingFD) }
        if sent < 0 { dead = true }
    }

    /// Reads the events that arrived and keeps what later requests can use.
    mutating func receive() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !dead {
            let count = buffer.withUnsafeMutableBytes { fuzz_receive(socket, $0.baseAddress, $0.count) }
            if count == 0 { dead = true }
            guard count > 0 else { return }
            parse(buffer[0..<count])
        }
    }

    private mutating func parse(_ bytes: ArraySlice<UInt8>) {
        func word(_ offset: Int) -> UInt32 {
            let base = bytes.startIndex + offset
            guard base + 4 <= bytes.endIndex else { return 0 }
            return UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16
                | UInt32(bytes[base + 3]) << 24
        }
        var offset = 0
        while offset + 8 <= bytes.count {
            let id = word(offset)
            let header = word(offset + 4)
            let size = Int(header >> 16)
            let opcode = header & 0xffff
            guard size >= 8 else { return }
            switch (kind(of: id), opcode) {
            case (.display?, 0): dead = true  // wl_display.error
            case (.xdgSurface?, 0): configureSerials.append(word(offset + 8))
            case (.wmBase?, 0): pingSerial = word(offset + 8)
            case (.preview?, 0): interactions.append(word(offset + 8))
            case (.preview?, 7): frameSerials.append(word(offset + 12))
            default: break
            }
            offset += size
        }
    }
}

nonisolated(unsafe) var compositor: Compositor!
nonisolated(unsafe) var globalNames: [String: UInt32] = [:]
nonisolated(unsafe) var contactsDown: Set<ContactKey> = []

func now() -> Timestamp {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Timestamp(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000)
}

func setUp() {
    fuzz_quiet_libwayland()
    var configuration = CompositorConfiguration()
    configuration.listen = false
    configuration.handleSignals = false
    configuration.outputWidth = 320
    configuration.outputHeight = 200
    configuration.engine.shouldBeginTimeout = .milliseconds(50)
    let quiet = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
    compositor = try! Compositor(configuration: configuration, logger: quiet)
    compositor.start()
    // Learn the globals' names once: a registry and a sync, read back.
    let socket = try! compositor.connectClient()
    var state = ClientState(socket: socket)
    let registry = state.allocate(.registry)
    state.put(1)
    state.put(12 << 16 | 1)
    state.put(registry)
    state.flush()
    for _ in 0..<20 { compositor.dispatch() }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { fuzz_receive(socket, $0.baseAddress, $0.count) }
    var offset = 0
    while count > 0, offset + 8 <= count {
        func word(_ at: Int) -> UInt32 {
            buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
        }
        let size = Int(word(offset + 4) >> 16)
        if word(offset) == registry && word(offset + 4) & 0xffff == 0 {
            let name = word(offset + 8)
            let length = Int(word(offset + 12))
            let text = String(decoding: buffer[(offset + 16)..<(offset + 16 + max(0, length - 1))], as: UTF8.self)
            globalNames[text] = name
        }
        guard size >= 8 else { break }
        offset += size
    }
    close(socket)
    compositor.dispatch()
}

/// A string argument in the wire format: length with the NUL, bytes padded to 32 bits.
func wireString(_ text: String) -> [UInt32] {
    var bytes = Array(text.utf8) + [0]
    let length = UInt32(bytes.count)
    while bytes.count % 4 != 0 { bytes.append(0) }
    return [length]
        + stride(from: 0, to: bytes.count, by: 4).map { index in
            UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                | UInt32(bytes[index + 3]) << 24
        }
}

/// Encodes one request with arguments drawn from the program.
func send(_ request: Request, to target: UInt32, _ program: inout Program, _ state: inout ClientState) {
    var body: [UInt32] = []
    for arg in request.args {
        switch arg {
        case .int: body.append(UInt32(bitPattern: program.int32()))
        case .uint:
            switch program.byte() % 8 {
            case 0: body.append(state.configureSerials.last ?? 0)
            case 1: body.append(state.interactions.last ?? 0)
            case 2: body.append(state.frameSerials.last ?? 0)
            case 3: body.append(state.pingSerial)
            default: body.append(UInt32(bitPattern: program.int32()))
            }
        case .string:
            let texts = ["", "a", "peek", String(repeating: "x", count: 300), "\u{1b}[2J", "\u{7f}ELF"]
            body += wireString(texts[Int(program.byte()) % texts.count])
        case .fd:
            state.flush()
            state.pendingFD = fuzz_memfd(Int(program.byte() % 64 + 1) * 16_384)
        case .object(let kind, let nullable):
            let choice = program.byte()
            let candidates = state.objects.filter { $0.kind == kind }
            if nullable && choice % 8 == 0 || candidates.isEmpty && nullable {
                body.append(0)
            } else if choice % 16 == 1 || candidates.isEmpty {
                // The wrong kind of object, or one that does not exist.
                body.append(state.objects.isEmpty ? 99 : state.objects[Int(choice) % state.objects.count].id)
            } else {
                body.append(candidates[Int(choice) % candidates.count].id)
            }
        case .newID(let kind): body.append(state.allocate(kind))
        }
    }
    state.put(target)
    state.put(UInt32(8 + body.count * 4) << 16 | UInt32(request.opcode))
    for word in body { state.put(word) }
    if request.destructor { state.objects.removeAll { $0.id == target } }
    if state.pendingFD >= 0 { state.flush() }
}

/// A window the usual way (surface, xdg_surface, toplevel, commit, ack, buffer, commit), so
/// short programs reach mapped windows.
func mapWindow(_ program: inout Program, _ state: inout ClientState) {
    guard let compositorID = state.objects.first(where: { $0.kind == .compositor })?.id,
        let wmBase = state.objects.first(where: { $0.kind == .wmBase })?.id,
        let shm = state.objects.first(where: { $0.kind == .shm })?.id
    else { return }
    let surface = state.allocate(.surface)
    state.put(compositorID); state.put(12 << 16 | 0); state.put(surface)
    let xdg = state.allocate(.xdgSurface)
    state.put(wmBase); state.put(16 << 16 | 2); state.put(xdg); state.put(surface)
    let toplevel = state.allocate(.toplevel)
    state.put(xdg); state.put(12 << 16 | 1); state.put(toplevel)
    state.put(surface); state.put(8 << 16 | 6)
    state.flush()
    turn(&state)
    if let serial = state.configureSerials.last { state.put(xdg); state.put(12 << 16 | 4); state.put(serial) }
    let width = Int32(program.byte() % 64 + 1) * 4
    let height = Int32(program.byte() % 64 + 1) * 4
    let size = Int(width * height * 4)
    let pool = state.allocate(.shmPool)
    state.put(shm); state.put(16 << 16 | 0); state.put(pool); state.put(UInt32(size))
    state.flush()
    state.pendingFD = fuzz_memfd(size)
    let buffer = state.allocate(.buffer)
    state.put(pool); state.put(32 << 16 | 0); state.put(buffer); state.put(0); state.put(UInt32(width))
    state.put(UInt32(height)); state.put(UInt32(width * 4)); state.put(0)
    state.put(surface); state.put(20 << 16 | 1); state.put(buffer); state.put(0); state.put(0)
    state.put(surface); state.put(24 << 16 | 9); state.put(0); state.put(0); state.put(UInt32(width));
    state.put(UInt32(height))
    state.put(surface); state.put(8 << 16 | 6)
    state.flush()
}

/// Device input: a touchscreen, pen or pointer contact pressing at a point of the output.
func input(_ program: inout Program) {
    let key = ContactKey(device: DeviceID(UInt32(program.byte() % 3)), contact: Int32(program.byte() % 3))
    let forces: [Double] = [0, 0.05, 0.2, 0.6, 0.95, 1, .nan, .infinity, -1]
    let contact = DeviceContact(
        key: key, time: now(), force: forces[Int(program.byte()) % forces.count], hasForce: program.byte() % 4 != 0,
        position: NormalisedPoint(x: Double(program.byte()) / 255, y: Double(program.byte()) / 255),
        positioning: program.byte() % 3 == 0 ? .cursor : .absolute,
        source: InputSource.allCases[Int(program.byte()) % InputSource.allCases.count])
    switch program.byte() % 4 {
    case 0:
        compositor.inject(.contactBegan(contact))
        contactsDown.insert(key)
    case 1, 2: compositor.inject(.contactChanged(contact))
    default:
        compositor.inject(.contactEnded(key, time: now(), reason: .lifted))
        contactsDown.remove(key)
    }
    compositor.inject(.frame(now()))
}

/// Sends what is queued, lets the compositor run, reads its answers.
func turn(_ state: inout ClientState) {
    state.flush()
    compositor.dispatch()
    compositor.flushClients()
    state.receive()
}

/// One-time state before the first input: tables, the compositor, and a warm-up client that
/// maps a window, so the weak-reference side tables of long-lived objects (the compositor, the
/// seat) exist before leak detection starts (LeakSanitizer cannot follow their tagged pointers).
func prepare() {
    _ = requests
    setUp()
    let warmUp: [UInt8] = [0, 40, 40, 1, 0, 0, 128, 128, 0, 0, 1, 0, 0, 128, 128, 0, 0, 3]
    warmUp.withUnsafeBufferPointer { _ = fuzzCompositor($0.baseAddress!, $0.count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompositor(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let socket = try? compositor.connectClient() else { return 0 }
    var state = ClientState(socket: socket)
    var program = Program(bytes: UnsafeBufferPointer(start: data, count: size))
    let registry = state.allocate(.registry)
    state.put(1); state.put(12 << 16 | 1); state.put(registry)
    for global in globals {
        guard let name = globalNames[global.interface] else { continue }
        var words: [UInt32] = [name] + wireString(global.interface)
        words.append(global.version)
        words.append(state.allocate(global.kind))
        state.put(registry)
        state.put(UInt32(8 + words.count * 4) << 16 | 0)
        for word in words { state.put(word) }
    }
    turn(&state)

    var steps = 0
    while !program.atEnd && !state.dead && steps < 400 {
        steps += 1
        let choice = program.byte()
        switch choice % 32 {
        case 0: mapWindow(&program, &state)
        case 1, 2: input(&program)
        case 3: turn(&state)
        default:
            let candidates = state.objects.filter { requests[$0.kind] != nil }
            guard !candidates.isEmpty, state.objects.count < 2_000 else { continue }
            let target = candidates[Int(program.byte()) % candidates.count]
            let list = requests[target.kind]!
            send(list[Int(program.byte()) % list.count], to: target.id, &program, &state)
        }
        if steps % 8 == 0 { turn(&state) }
    }
    turn(&state)
    close(socket)
    for key in contactsDown { compositor.inject(.contactEnded(key, time: now(), reason: .lifted)) }
    contactsDown.removeAll()
    compositor.dispatch()
    compositor.dispatch()
    return 0
}
