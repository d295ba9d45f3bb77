import SystemLayer

/// An errno from opening a device node.
public struct OpenError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int32
    public init(code: Int32) { self.code = code }
    public var description: String { errnoText(code) + " (errno \(code))" }
}

/// How device nodes are opened and closed for libinput. A compositor routes these through
/// logind's TakeDevice or libseat; tests and tools open the node directly. The backend keeps
/// the fds it is handed: it reads the kernel's evdev state (pressure) from them.
public struct DeviceOpener: Sendable {
    public var open: @Sendable (_ path: String, _ flags: Int32) -> Result<Int32, OpenError>
    public var close: @Sendable (_ fd: Int32) -> Void

    public init(
        open: @escaping @Sendable (String, Int32) -> Result<Int32, OpenError>,
        close: @escaping @Sendable (Int32) -> Void
    ) {
        self.open = open
        self.close = close
    }

    /// open(2)/close(2) on the node itself: needs read access to /dev/input (root or the input group).
    public static let direct = DeviceOpener(
        open: { path, flags in
            do throws(SystemCallError) {
                return .success(try Descriptor(opening: path, flags).release())
            } catch {
                return .failure(OpenError(code: error.code))
            }
        },
        close: { fd in try? Descriptor(adopting: fd).close() })
}
