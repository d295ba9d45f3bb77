import EvdevDecoder
import PreviewEngine
import PreviewProtocolServer

/// The preview keys' rules every host shares (`PreviewProtocolServer.PreviewKeys`), fed with
/// the decoder's keys: codes only, modifiers tracked from the modifier keys themselves.
typealias PreviewKeys = PreviewProtocolServer.PreviewKeys

extension PreviewKeys {
    mutating func handle(
        _ key: KeyState, begin: () -> Bool, end: () -> Bool, escape: () -> Bool
    ) -> Verdict {
        handle(
            Key(code: UInt32(key.code), pressed: key.pressed, time: key.time), begin: begin, end: end, escape: escape)
    }
}
