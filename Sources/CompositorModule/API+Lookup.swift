import CCompositorModule
import CWaylandServer
import SystemLayer

// The Look Up entry points (since 1.3; the header's Look Up section).

@_cdecl("preview_interaction_set_lookup")
public func previewInteractionSetLookup(_ handle: OpaquePointer?, _ enabled: Bool, _ path: UnsafePointer<CChar>?)
    -> Int32
{
    call(handle) { context throws(Status) in
        let executable = path.map { String(cString: $0) } ?? PREVIEW_INTERACTION_LOOKUP_PATH
        try context.setLookup(enabled, executable: executable)
    }
}

@_cdecl("preview_interaction_set_lookup_long_press")
public func previewInteractionSetLookupLongPress(_ handle: OpaquePointer?, _ enabled: Bool) -> Int32 {
    call(handle) { context throws(Status) in context.setLookupLongPress(enabled) }
}

@_cdecl("preview_interaction_lookup_client")
public func previewInteractionLookupClient(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
{
    out?.pointee = nil
    return call(handle) { context throws(Status) in
        guard let out else { throw .invalidArgument }
        out.pointee = context.lookup?.driver.processClient?.raw
    }
}

extension EmbeddedContext {
    /// Look Up on (preview-lookup at `executable`, started now) or off (ended, nothing shown).
    func setLookup(_ enabled: Bool, executable: String) throws(Status) {
        guard enabled else {
            lookup?.stop()
            lookup = nil
            logger.info("look up: off")
            return
        }
        guard FileSystem.isExecutable(executable) else {
            logger.warning("look up: \(executable) is not an executable: Look Up stays off")
            throw .unsupported
        }
        if let lookup, lookup.executable == executable { return }
        lookup?.stop()
        let started = EmbeddedLookup(context: self, executable: executable, longPress: lookupLongPress)
        lookup = started
        started.driver.start()
    }

    func setLookupLongPress(_ enabled: Bool) {
        lookupLongPress = enabled
        lookup?.driver.configure(driver.configuration, longPress: enabled)
    }
}
