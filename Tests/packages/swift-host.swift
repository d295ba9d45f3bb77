// A Swift program (the toolchain's own runtime, dynamically linked) that loads the installed
// libpreview-interaction, which carries a second Swift runtime hidden inside, and uses it; with
// a second path, libpreview-interaction-client too (a third runtime), connected to that display.
//   swiftc swift-host.swift -o swift-host
//   ./swift-host libpreview-interaction.so.1 [libpreview-interaction-client.so.1]
import Glibc

typealias Create =
    @convention(c) (OpaquePointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
typealias Destroy = @convention(c) (OpaquePointer?) -> Int32
typealias VersionString = @convention(c) () -> UnsafePointer<CChar>
typealias DisplayCreate = @convention(c) () -> OpaquePointer?
typealias DisplayDestroy = @convention(c) (OpaquePointer?) -> Void

func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as type: T.Type) -> T {
    guard let address = dlsym(library, name) else { fatalError("no \(name)") }
    return unsafeBitCast(address, to: type)
}

/// The client library on a connection to `display` (a socketpair; the server side runs on a
/// thread of its own while the library's create makes its roundtrip), created and destroyed.
func useClientLibrary(_ path: String, server wayland: UnsafeMutableRawPointer, display: OpaquePointer?) -> [String:
    Int32]
{
    typealias ClientCreate =
        @convention(c) (
            OpaquePointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32
    typealias ConnectToFD = @convention(c) (Int32) -> OpaquePointer?
    typealias ClientOfFD = @convention(c) (OpaquePointer?, Int32) -> OpaquePointer?
    typealias Run = @convention(c) (OpaquePointer?) -> Void
    guard let client = dlopen("libwayland-client.so.0", RTLD_NOW), let library = dlopen(path, RTLD_NOW | RTLD_LOCAL)
    else {
        print("FAILED: dlopen: \(String(cString: dlerror()))")
        exit(1)
    }
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0,
        symbol(wayland, "wl_client_create", as: ClientOfFD.self)(display, fds[0]) != nil
    else { return ["client socket": 1] }
    // wl_display_run(display) on a thread: the function and its argument through one pointer.
    let run = UnsafeMutablePointer<(Run, OpaquePointer?)>.allocate(capacity: 1)
    run.initialize(to: (symbol(wayland, "wl_display_run", as: Run.self), display))
    var thread = pthread_t()
    let started = pthread_create(
        &thread, nil,
        { argument in
            let (run, display) = argument!.assumingMemoryBound(to: (Run, OpaquePointer?).self).pointee
            run(display)
            return nil
        }, run)
    guard started == 0, let connection = symbol(client, "wl_display_connect_to_fd", as: ConnectToFD.self)(fds[1]) else {
        return ["client connection": 1]
    }
    var context: OpaquePointer?
    let created = symbol(library, "preview_interaction_client_create", as: ClientCreate.self)(
        connection, nil, nil, &context)
    let destroyed = symbol(library, "preview_interaction_client_destroy", as: Destroy.self)(context)
    let version = String(
        cString: symbol(library, "preview_interaction_client_version_string", as: VersionString.self)())
    print("libpreview-interaction-client \(version) beside it")
    return ["client created": created, "client destroyed": destroyed]
}

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "libpreview-interaction.so.1"
guard let wayland = dlopen("libwayland-server.so.0", RTLD_NOW), let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
    print("FAILED: dlopen: \(String(cString: dlerror()))")
    exit(1)
}
let display = symbol(wayland, "wl_display_create", as: DisplayCreate.self)()
var clientPhases: [String: Int32] = [:]
// The callbacks' size field only: the library's defaults for everything else.
var callbacks = [Int](repeating: 0, count: 8)
callbacks[0] = 7 * MemoryLayout<Int>.size
var context: OpaquePointer?
let created = callbacks.withUnsafeBytes {
    symbol(library, "preview_interaction_create", as: Create.self)(display, $0.baseAddress, nil, &context)
}
let destroyed = symbol(library, "preview_interaction_destroy", as: Destroy.self)(context)
if CommandLine.arguments.count > 2 {
    clientPhases = useClientLibrary(CommandLine.arguments[2], server: wayland, display: display)
}
symbol(wayland, "wl_display_destroy", as: DisplayDestroy.self)(display)
let version = String(cString: symbol(library, "preview_interaction_version_string", as: VersionString.self)())
// A dictionary of the host's own runtime, used after the library's ran: both still work.
let phases = ["created": created, "destroyed": destroyed].merging(clientPhases) { a, _ in a }
print("libpreview-interaction \(version) in a Swift host: \(phases.sorted { $0.key < $1.key })")
exit(phases.values.allSatisfy { $0 == 0 } ? 0 : 1)
