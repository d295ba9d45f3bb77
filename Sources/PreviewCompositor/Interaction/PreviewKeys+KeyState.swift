import CXkbcommon
import InputEvents
import PreviewEngine
import PreviewProtocolServer

/// The preview keys' rules every host shares (`PreviewProtocolServer.PreviewKeys`, run by the
/// host core), fed with the decoder's keys and what xkb says of them: the keysyms (in lower
/// case, so a letter's binding matches either case) and the modifiers held.
typealias PreviewKeys = PreviewProtocolServer.PreviewKeys

extension PreviewKeys.Key {
    init(_ key: KeyState, symbols: KeySymbols, held: KeyModifiers) {
        self.init(
            code: UInt32(key.code), keysym: xkb_keysym_to_lower(symbols.produced),
            baseKeysym: xkb_keysym_to_lower(symbols.base), modifiers: held, pressed: key.pressed, time: key.time)
    }
}
