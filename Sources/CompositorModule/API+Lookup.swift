import CCompositorModule
import CWaylandServer
import PreviewEngine
import PreviewLog
import PreviewProtocolServer
import SystemLayer
import WaylandServer

// The Look Up entry points (since 1.3, the deadline since 1.5; the header's Look Up section).

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

@_cdecl("preview_interaction_set_lookup_deadline")
public func previewInteractionSetLookupDeadline(_ handle: OpaquePointer?, _ milliseconds: UInt32) -> Int32 {
    call(handle) { context throws(Status) in
        guard LookupConfiguration.deadlineMilliseconds.contains(Int64(milliseconds)) else { throw .invalidArgument }
        context.setLookupDeadline(.milliseconds(Int64(milliseconds)))
    }
}

@_cdecl("preview_interaction_lookup_client")
public func previewInteractionLookupClient(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
{
    out?.pointee = nil
    return call(handle) { context throws(Status) in
        guard let out else { throw .invalidArgument }
        out.pointee = context.driver.lookupClient?.raw
    }
}

extension EmbeddedContext {
    /// Look Up on (preview-lookup at `executable`, started now) or off (ended, nothing shown).
    func setLookup(_ enabled: Bool, executable: String) throws(Status) {
        guard enabled else {
            driver.stopLookup()
            lookup?.invalidate()
            lookup = nil
            logger.info("look up: off")
            return
        }
        guard FileSystem.isExecutable(executable) else {
            logger.warning("look up: \(executable) is not an executable: Look Up stays off")
            throw .unsupported
        }
        let shell = lookup ?? EmbeddedLookup(context: self)
        lookup = shell
        driver.startLookup(
            LookupConfiguration(executable: executable, longPress: lookupLongPress, deadline: lookupDeadline),
            host: shell)
    }

    func setLookupLongPress(_ enabled: Bool) {
        lookupLongPress = enabled
        guard var configuration = driver.lookupConfiguration else { return }
        configuration.longPress = enabled
        driver.configureLookup(configuration)
    }

    func setLookupDeadline(_ deadline: Timestamp.Duration) {
        lookupDeadline = deadline
        guard var configuration = driver.lookupConfiguration else { return }
        configuration.deadline = deadline
        driver.configureLookup(configuration)
    }
}
