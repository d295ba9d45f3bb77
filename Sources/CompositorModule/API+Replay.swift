import CCompositorModule
import PreviewProtocolServer

// The replay entry points (since 1.4; the header's Replay section): the host core's pacing,
// the same as preview-compositor's --replay.

@_cdecl("preview_interaction_replay_start")
public func previewInteractionReplayStart(_ handle: OpaquePointer?, _ pacing: preview_interaction_replay_pacing)
    -> Int32
{
    call(handle) { context throws(Status) in
        let options: ReplayPacer.Options
        switch pacing {
        case PREVIEW_INTERACTION_REPLAY_RECORDED: options = ReplayPacer.Options()
        case PREVIEW_INTERACTION_REPLAY_FAST: options = ReplayPacer.Options(fast: true)
        case PREVIEW_INTERACTION_REPLAY_AWAIT_CLIENTS: options = ReplayPacer.Options(awaitsClients: true)
        default: throw .invalidArgument
        }
        context.driver.startReplay(options)
    }
}

@_cdecl("preview_interaction_replay_next")
public func previewInteractionReplayNext(
    _ handle: OpaquePointer?, _ recorded: UInt64, _ flags: UInt32, _ wait: UnsafeMutablePointer<UInt64>?,
    _ time: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    wait?.pointee = 0
    time?.pointee = 0
    return call(handle) { context throws(Status) in
        guard let wait, let time, recorded <= UInt64(Int64.max) else { throw .invalidArgument }
        let event = ReplayPacer.Event(
            recorded: Int64(recorded), beginsStroke: flags & PREVIEW_INTERACTION_REPLAY_BEGINS_STROKE.rawValue != 0,
            startsFile: flags & PREVIEW_INTERACTION_REPLAY_STARTS_FILE.rawValue != 0)
        switch context.driver.replayNext(event) {
        case .deliver(let offset):
            time.pointee = UInt64(clamping: Int64(recorded).addingReportingOverflow(offset).partialValue)
        case .wait(let microseconds):
            // Never 0: that means go.
            wait.pointee = UInt64(clamping: max(1, microseconds))
        }
    }
}
