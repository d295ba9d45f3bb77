import CCompositorModule
import CWaylandClient
import CWaylandServer
import FuzzInput
import FuzzSupport
import Glibc
import WaylandServer
import _PreviewProtocolTestSupport

// Each input is a script for a C compositor that loaded libpreview-interaction and for one
// real libwayland client of it (version 1 or 2), interleaved: the host adds and removes
// devices, sends contacts with force (and absurd numbers), keys, focus changes, surface
// commits and departures, changes the user's settings, lets time pass, turns Look Up on and
// off (speaking for preview-lookup: LookupStandIn.swift) and destroys the context; the client makes surfaces and interactions and sends every request of the
// extension (regions, behaviours of every kind, sources, focus points, haptics, answers,
// acks). The display and its wl_compositor live for the whole run; each input gets its own
// context and client.

/// The input bytes, read as a script; past the end every read is 0.
typealias Script = FuzzBytes

extension FuzzBytes {
    static let numbers: [Double] = [
        0, 0.5, 1, 0.1, 0.3, 0.6, 0.9, 0.95, 50, 150, 250, -1, -0.0, 4096, 2048, 1e308, -1e308, .nan, .infinity,
        -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ]
    mutating func number() -> Double { pick(Self.numbers) }

    static let int32s: [Int32] = [0, 1, 2, 5, 10, 50, 100, 150, -1, -100, 1 << 20, .max, .min, .max - 1]
    mutating func int32() -> Int32 { pick(Self.int32s) }

    static let steps: [UInt64] = [0, 1, 1_000, 5_000, 8_000, 16_000, 50_000, 200_000, 1_000_000, 1 << 62, .max]

    /// The host's clock moves forward (mostly) or back; a call's time is now, or absurd.
    mutating func time() -> UInt64 {
        let choice = byte()
        switch choice % 8 {
        case 0: host.now &-= Self.steps[Int(choice / 8) % Self.steps.count] / 2
        case 1: return Self.steps[Int(choice / 8) % Self.steps.count]
        default: host.now &+= Self.steps[Int(choice / 8) % 6]
        }
        return host.now
    }
}

/// The client: its objects, and what it heard.
final class ScriptedClient {
    let client: PreviewClient
    let version: UInt32
    var surfaces: [OpaquePointer?] = []
    var interactions: [(interaction: ClientInteraction, alive: Bool)] = []
    var regions: [OpaquePointer?] = []
    /// The server side went away (a protocol error, or the end): its resources are gone.
    var serverGone = false
    private var gone: Listener?

    init?(version: UInt32) {
        guard let display, let client = try? PreviewClient(display: display, version: version) else { return nil }
        self.client = client
        self.version = version
        let listener = Listener { [unowned self] _ in serverGone = true }
        listener.listen(toDestroyOf: client.connection.serverClient)
        gone = listener
    }

    /// Every proxy the script left is freed (disconnecting does not free them): interaction
    /// objects, surfaces, regions, then the globals.
    deinit {
        gone?.remove()
        for (interaction, live) in interactions where live { interaction.destroy() }
        for surface in surfaces.compactMap({ $0 }) { wl_surface_destroy(surface) }
        for region in regions.compactMap({ $0 }) { wl_region_destroy(region) }
        spi_preview_interaction_manager_v1_destroy(client.manager)
        wl_compositor_destroy(client.compositor)
    }

    var alive: Bool { !serverGone && wl_display_get_error(client.connection.display) == 0 }

    /// The host's wl_resource of a surface, while the client and the surface live.
    func resource(of index: Int) -> OpaquePointer? {
        guard alive, surfaces.indices.contains(index), let surface = surfaces[index] else { return nil }
        return wl_client_get_object(client.connection.serverClient.raw, wl_proxy_get_id(surface))
    }

    /// Any resource of the client that is not a surface (a region): the host's mistake.
    func otherResource() -> OpaquePointer? {
        guard alive, let region = regions.compactMap({ $0 }).first else { return nil }
        return wl_client_get_object(client.connection.serverClient.raw, wl_proxy_get_id(region))
    }

    /// Reads the client's events (answering should_begin as the script says) and sends its requests.
    func pump(_ script: inout Script) {
        guard alive else { return }
        client.roundtrip()
        let answer = script.byte()
        for (interaction, live) in interactions where live {
            for case .shouldBegin(let id, _, _) in interaction.events {
                switch answer % 3 {
                case 0: interaction.accept(id)
                case 1: interaction.decline(id)
                default: break  // no answer: the timeout decides
                }
            }
            interaction.clear()
        }
    }

    /// One client request, chosen by the script.
    func request(_ script: inout Script) {
        guard alive else { return }
        let op = script.byte()
        let index = Int(script.byte())
        func surface() -> OpaquePointer? { surfaces.isEmpty ? nil : surfaces[index % surfaces.count] }
        func interaction() -> ClientInteraction? {
            let live = interactions.filter(\.alive)
            return live.isEmpty ? nil : live[index % live.count].interaction
        }
        func region() -> OpaquePointer? { regions.isEmpty ? nil : regions[index % regions.count] }
        switch op % 16 {
        case 0:
            guard surfaces.count < 6 else { return }
            surfaces.append(client.surface())
        case 1:
            guard let surface = surface(), interactions.count < 8 else { return }
            interactions.append((client.interaction(for: surface, sync: false), true))
        case 2:
            guard regions.count < 6 else { return }
            var rectangles: [(Int32, Int32, Int32, Int32)] = []
            for _ in 0..<(script.byte() % 4) {
                rectangles.append((script.int32(), script.int32(), script.int32(), script.int32()))
            }
            regions.append(client.region(rectangles))
        case 3: interaction()?.setRegion(script.byte() % 4 == 0 ? nil : region())
        case 4:
            guard version >= 2, let interaction = interaction() else { return }
            // Every behaviour, with right and wrong numbers of stages (wrong ones: a protocol error).
            let behaviour = UInt32(script.byte() % 5)
            let stages = script.pick([0, 0, 2, 3, 5, 1, 6, UInt32.max])
            interaction.setBehaviour(behaviour, stages: stages, region: script.byte() % 3 == 0 ? nil : region())
        case 5: if version >= 2 { interaction()?.clearBehaviours() }
        case 6: interaction()?.setSources(UInt32(script.byte()) & (version >= 2 ? 0x3f : 0x1f))
        case 7:
            guard version >= 2, let interaction = interaction() else { return }
            spi_preview_interaction_v1_set_focus_point(
                interaction.proxy, wl_fixed_from_int(script.int32() % 100_000),
                wl_fixed_from_int(script.int32() % 100_000))
        case 8:
            guard version >= 2 else { return }
            interaction()?.playHaptic(UInt32(script.byte() % 8), effect: UInt32(script.byte() % 6))
        case 9: interaction()?.cancel(UInt32(script.byte() % 8))
        case 10: interaction()?.ack(UInt32(script.byte()))
        case 11: interaction()?.accept(UInt32(script.byte() % 8))
        case 12:
            guard let live = interactions.indices.filter({ interactions[$0].alive }).first else { return }
            interactions[live].interaction.destroy()
            interactions[live].alive = false
        case 13:
            // A surface destroyed before its interaction is a protocol error the client may make.
            guard !surfaces.isEmpty, let surface = surfaces[index % surfaces.count] else { return }
            wl_surface_destroy(surface)
            surfaces[index % surfaces.count] = nil
        case 14:
            guard let region = region() else { return }
            wl_region_destroy(region)
            regions.removeAll { $0 == region }
        default: if let surface = surface() { wl_surface_commit(surface) }
        }
    }
}

/// One host call, chosen by the script.
func hostCall(_ script: inout Script, _ client: ScriptedClient) {
    let op = script.byte()
    func device() -> OpaquePointer? {
        let choice = Int(script.byte())
        return host.devices.isEmpty || choice == 255 ? nil : host.devices[choice % host.devices.count]
    }
    func surface() -> OpaquePointer? {
        let choice = script.byte()
        if choice == 255 { return client.otherResource() }
        return client.surfaces.isEmpty ? nil : client.resource(of: Int(choice) % client.surfaces.count)
    }
    func contact() -> Int32 { script.pick([0, 0, 1, 2, -1, .max, .min]) }
    switch op % 26 {
    case 0:
        guard host.devices.count < 24 else { return }
        let kind = preview_interaction_device_kind(rawValue: UInt32(script.byte() % 7))
        let (low, high) = script.pick([(0.0, 1.0), (0, 0), (0, 4096), (1, 0), (-1e308, 1e308), (.nan, 1)])
        var made: OpaquePointer?
        _ = preview_interaction_device_add(
            host.context, kind, "fuzz device", low, high, UInt32(script.byte() % 3), &made)
        if let made { host.devices.append(made) }
    case 1: _ = preview_interaction_device_remove(device(), script.time())
    case 2, 3:
        _ = preview_interaction_contact_down(
            device(), contact(), surface(), script.number(), script.number(), script.number(), script.time())
    case 4: _ = preview_interaction_contact_motion(device(), contact(), script.number(), script.number(), script.time())
    case 5, 6: _ = preview_interaction_contact_force(device(), contact(), script.number(), script.time())
    case 7, 8:
        _ = preview_interaction_contact_update(
            device(), contact(), script.number(), script.number(), script.number(), script.time())
    case 9:
        var swallow = false
        _ = preview_interaction_contact_up(device(), contact(), script.time(), &swallow)
    case 10: _ = preview_interaction_contact_cancel(device(), contact(), script.time())
    case 11:
        var taken = false
        _ = preview_interaction_contact_is_taken_away(device(), contact(), &taken)
    case 12: if let surface = surface() { _ = preview_interaction_surface_commit(host.context, surface) }
    case 13: if let surface = surface() { _ = preview_interaction_surface_gone(host.context, surface, script.time()) }
    case 14, 15:
        var key = preview_interaction_key()
        key.size = MemoryLayout<preview_interaction_key>.size
        key.seat = UInt32(script.byte() % 3)
        key.keycode = script.pick([127, 1, 68, 30, 28, 0, .max])
        key.keysym = script.pick([0, 0xff67, 0xff1b, 0x61, .max])
        key.modifiers = UInt32(script.byte() % 32)
        key.pressed = script.byte() % 2 == 0
        key.time_usec = script.time()
        key.focus = surface()
        key.focus_width = script.int32()
        key.focus_height = script.int32()
        key.device = script.byte() % 2 == 0 ? nil : device()
        var verdict = PREVIEW_INTERACTION_KEY_DELIVER
        var pressTime: UInt64 = 0
        _ = preview_interaction_keyboard_key(host.context, &key, &verdict, &pressTime)
    case 16: _ = preview_interaction_keyboard_focus_lost(host.context, UInt32(script.byte() % 3), script.time())
    case 17:
        let value = UInt32(script.byte() % 6)
        switch script.byte() % 6 {
        case 0: _ = preview_interaction_set_sensitivity(host.context, preview_interaction_sensitivity(rawValue: value))
        case 1: _ = preview_interaction_set_long_press(host.context, preview_interaction_long_press(rawValue: value))
        case 2:
            _ = preview_interaction_set_should_begin_timeout(host.context, script.pick([0, 1, 5, 150, 60_000, .max]))
        case 3: _ = preview_interaction_set_completion(host.context, preview_interaction_completion(rawValue: value))
        case 4: _ = preview_interaction_set_haptics(host.context, preview_interaction_haptics(rawValue: value))
        default: _ = preview_interaction_set_log_level(host.context, preview_interaction_log_level(rawValue: value))
        }
    case 18:
        var keys = (0..<Int(script.byte() % 4)).map { _ in
            preview_interaction_key_binding(
                keycode: script.pick([127, 68, 28, 0]), keysym: script.pick([0, 0xff67, 0x61]),
                modifiers: UInt32(script.byte() % 32))
        }
        if keys.isEmpty {
            _ = preview_interaction_set_preview_keys(host.context, nil, script.byte() % 2 == 0 ? 0 : 1)
        } else {
            _ = preview_interaction_set_preview_keys(host.context, &keys, UInt32(keys.count))
        }
    case 19:
        var count: UInt32 = 0
        _ = preview_interaction_running_count(host.context, &count)
        _ = preview_interaction_awaiting_answer_count(host.context, &count)
    case 20:
        host.reentry = Reentry(rawValue: script.byte() % 6) ?? .nothing
        host.regionAnswer = RegionAnswer(rawValue: script.byte() % 5) ?? .boxes
    case 21:
        // Time passes on the host's clock and its loop runs (the library's timers are on it).
        _ = script.time()
        display?.dispatch(timeoutMilliseconds: script.byte() % 16 == 0 ? 2 : 0)
    case 22:
        // Destroyed mid-script: every later call must fail cleanly with the stale handle.
        // Or Look Up, with the input speaking for preview-lookup.
        switch script.byte() % 8 {
        case 0: _ = preview_interaction_destroy(host.context)
        case 4...7: lookUp(&script)
        default: break
        }
    case 23:
        // Since 1.3: every button through the library, which knows the device's click.
        var swallow = false
        _ = preview_interaction_pointer_button(
            device(), script.pick([0x110, 0x111, 0x112, 0x113, 0, .max]), script.byte() % 2 == 0, surface(),
            script.number(), script.number(), script.number(), script.time(), &swallow)
    case 24:
        let value = UInt32(script.byte() % 4)
        switch script.byte() % 5 {
        case 0:
            _ = preview_interaction_set_take_away_mode(
                host.context, preview_interaction_take_away_mode(rawValue: value))
        case 1: _ = preview_interaction_set_time_unit(host.context, preview_interaction_time_unit(rawValue: value))
        case 2:
            var seat: UInt32 = 0
            _ = preview_interaction_seat(host.context, script.pick(["seat0", "seat1", "", "x"]), &seat)
        case 3: _ = preview_interaction_device_set_user_data(device(), UnsafeMutableRawPointer(bitPattern: 0x1000))
        default:
            var data: UnsafeMutableRawPointer?
            _ = preview_interaction_device_get_user_data(device(), &data)
        }
    default: client.pump(&script)
    }
}

func prepare() {
    fuzz_quiet_libwayland()
    // The scripted client's protocol errors are expected: libwayland-client need not print them.
    wl_log_set_handler_client { _, _ in }
    guard let made = try? Display() else { broken("no display") }
    display = made
    compositor = try? MiniCompositor(display: made)
    prepareLookup()
    let warmUp: [UInt8] = [1, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 4, 0, 4]
    warmUp.withUnsafeBufferPointer { _ = fuzzEmbedded($0.baseAddress!, $0.count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEmbedded(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let display else { return 0 }
    var script = Script(bytes: UnsafeBufferPointer(start: data, count: size))
    host = HostState()
    var callbacks = hostCallbacks()
    var context: OpaquePointer?
    guard preview_interaction_create(display.raw, &callbacks, nil, &context) == 0 else { broken("create failed") }
    host.context = context
    guard let client = ScriptedClient(version: script.byte() % 2 == 0 ? 2 : 1) else { broken("no client") }
    var steps = 0
    while !script.atEnd && steps < 512 {
        steps += 1
        if script.byte() % 2 == 0 { hostCall(&script, client) } else { client.request(&script) }
    }
    client.pump(&script)
    // The end: the context goes first (as a host does at shutdown), then the client.
    _ = preview_interaction_destroy(host.context)
    if preview_interaction_destroy(host.context) != PREVIEW_INTERACTION_ERROR_INVALID_CONTEXT.rawValue {
        broken("a destroyed context was destroyed again")
    }
    endStandIns()
    host = HostState()
    withExtendedLifetime(client) {}
    display.dispatch(timeoutMilliseconds: 0)
    return 0
}
