import CPixman

/// The wl_shm formats the compositor accepts (wl_shm.format values).
public enum PixelFormat: UInt32, Hashable, Sendable, CaseIterable {
    case argb8888 = 0
    case xrgb8888 = 1

    /// Both are 32-bit little-endian words, which is pixman's a8r8g8b8 / x8r8g8b8.
    var pixman: pixman_format_code_t {
        switch self {
        case .argb8888: PIXMAN_a8r8g8b8
        case .xrgb8888: PIXMAN_x8r8g8b8
        }
    }
}
