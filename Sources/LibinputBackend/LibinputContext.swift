import CLibinput
import PreviewLog
import SystemLayer

/// Owns one `struct libinput` and the host callbacks libinput calls back into.
/// The only file that uses `Unmanaged`: libinput's user data points at the
/// `clibinput_host` below, whose `context` is an unretained reference to this object
/// (the object owns the C struct and outlives the libinput context, see `deinit`).
final class LibinputContext {
    let raw: OpaquePointer
    private let host: UnsafeMutablePointer<clibinput_host>
    private let udev: OpaquePointer?
    let opener: DeviceOpener
    let logger: Log
    /// Device node → fd, for every node libinput asked us to open and has not closed.
    private(set) var openFiles: [String: Int32] = [:]

    enum Backend {
        case path
        case udev(seat: String)
    }

    /// Nil (and a log line) when libinput or udev cannot be set up.
    init?(backend: Backend, opener: DeviceOpener, logger: Log) {
        self.opener = opener
        self.logger = logger
        host = .allocate(capacity: 1)
        host.initialize(to: clibinput_host(open: hostOpen, close: hostClose, log: hostLog, context: nil))
        switch backend {
        case .path:
            udev = nil
        case .udev:
            udev = udev_new()
            if udev == nil {
                logger.error("udev_new failed: no udev, cannot enumerate input devices")
                host.deallocate()
                return nil
            }
        }
        let context: OpaquePointer? =
            switch backend {
            case .path: clibinput_path_context(host)
            case .udev: clibinput_udev_context(host, udev)
            }
        guard let context else {
            logger.error("libinput could not create a context")
            if let udev { udev_unref(udev) }
            host.deallocate()
            return nil
        }
        raw = context
        host.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        libinput_log_set_priority(raw, LIBINPUT_LOG_PRIORITY_INFO)
        if case .udev(let seat) = backend, libinput_udev_assign_seat(raw, seat) != 0 {
            logger.error("libinput could not assign seat \(seat) (is udev running, may we read /run/udev?)")
        }
    }

    deinit {
        // Unref first: libinput closes its devices through the host while tearing down.
        libinput_unref(raw)
        if let udev { udev_unref(udev) }
        host.deallocate()
    }

    fileprivate func open(path: String, flags: Int32) -> Int32 {
        switch opener.open(path, flags) {
        case .success(let fd):
            // A seat manager's descriptor may be inheritable: no child we start keeps a device.
            let adopted = Descriptor(adopting: fd)
            try? adopted.setCloseOnExec()
            _ = adopted.release()
            openFiles[path] = fd
            return fd
        case .failure(let error):
            // libinput logs its own line too, but ours names the cause (permission, logind).
            logger.error(
                "cannot open \(path): \(error) (no permission? run via logind/libseat or join the input group)")
            return -error.code
        }
    }

    fileprivate func close(fd: Int32) {
        if let path = openFiles.first(where: { $0.value == fd })?.key { openFiles[path] = nil }
        opener.close(fd)
    }

    fileprivate func log(priority: libinput_log_priority, message: String) {
        let line = message.hasSuffix("\n") ? String(message.dropLast()) : message
        switch priority {
        case LIBINPUT_LOG_PRIORITY_ERROR: logger.error("libinput: \(line)")
        case LIBINPUT_LOG_PRIORITY_INFO: logger.info("libinput: \(line)")
        default: logger.debug("libinput: \(line)")
        }
    }
}

private func context(_ raw: UnsafeMutableRawPointer?) -> LibinputContext? {
    guard let raw else { return nil }
    return Unmanaged<LibinputContext>.fromOpaque(raw).takeUnretainedValue()
}

private let hostOpen: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
    raw, path, flags in
    guard let context = context(raw), let path else { return -22 }  // EINVAL
    return context.open(path: String(cString: path), flags: flags)
}

private let hostClose: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Void = { raw, fd in
    context(raw)?.close(fd: fd)
}

private let hostLog: @convention(c) (UnsafeMutableRawPointer?, libinput_log_priority, UnsafePointer<CChar>?) -> Void = {
    raw, priority, message in
    guard let message else { return }
    context(raw)?.log(priority: priority, message: String(cString: message))
}
