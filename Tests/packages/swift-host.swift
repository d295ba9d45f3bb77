// A Swift program (the toolchain's own runtime, dynamically linked) that loads the installed
// libpreview-interaction, which carries a second Swift runtime hidden inside, and uses it.
//   swiftc swift-host.swift -o swift-host && ./swift-host libpreview-interaction.so.1
import Glibc

typealias Create = @convention(c) (OpaquePointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
typealias Destroy = @convention(c) (OpaquePointer?) -> Int32
typealias VersionString = @convention(c) () -> UnsafePointer<CChar>
typealias DisplayCreate = @convention(c) () -> OpaquePointer?
typealias DisplayDestroy = @convention(c) (OpaquePointer?) -> Void

func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as type: T.Type) -> T {
    guard let address = dlsym(library, name) else { fatalError("no \(name)") }
    return unsafeBitCast(address, to: type)
}

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "libpreview-interaction.so.1"
guard let wayland = dlopen("libwayland-server.so.0", RTLD_NOW), let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
    print("FAILED: dlopen: \(String(cString: dlerror()))")
    exit(1)
}
let display = symbol(wayland, "wl_display_create", as: DisplayCreate.self)()
// The callbacks' size field only: the library's defaults for everything else.
var callbacks = [Int](repeating: 0, count: 8)
callbacks[0] = 7 * MemoryLayout<Int>.size
var context: OpaquePointer?
let created = callbacks.withUnsafeBytes { symbol(library, "preview_interaction_create", as: Create.self)(display, $0.baseAddress, nil, &context) }
let destroyed = symbol(library, "preview_interaction_destroy", as: Destroy.self)(context)
symbol(wayland, "wl_display_destroy", as: DisplayDestroy.self)(display)
let version = String(cString: symbol(library, "preview_interaction_version_string", as: VersionString.self)())
// A dictionary of the host's own runtime, used after the library's ran: both still work.
let phases = ["created": created, "destroyed": destroyed]
print("libpreview-interaction \(version) in a Swift host: \(phases.sorted { $0.key < $1.key })")
exit(created == 0 && destroyed == 0 ? 0 : 1)
