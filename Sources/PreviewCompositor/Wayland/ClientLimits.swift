/// What one client may ask of the compositor. Wayland leaves most numbers to the compositor;
/// these bounds keep every sum of client numbers inside Int32 (no arithmetic can trap on a
/// request) and every allocation a client causes bounded. docs/compositor.md lists them.
enum ClientLimits {
    /// Positions, offsets and geometry are clamped to ±2^20 logical pixels, far beyond any
    /// output: sums of a few such values (a subsurface chain of `subsurfaceDepth`) stay in range.
    static let coordinate: Int32 = 1 << 20
    /// wl_surface.set_buffer_scale above this is the protocol's `invalid_scale`: real outputs
    /// use 1 to 4, and the damage arithmetic multiplies by it.
    static let bufferScale: Int32 = 16
    /// Rectangles a wl_region may collect: regions are hit-tested per pointer event, so their
    /// cost must stay bounded (toolkits use a handful). More is an implementation error.
    static let regionRectangles = 4096
    /// Subsurface nesting: placement, damage and hit-testing walk the tree.
    static let subsurfaceDepth = 32

    static func clamp(_ value: Int32) -> Int32 { max(-coordinate, min(coordinate, value)) }
    static func clampSize(_ value: Int32) -> Int32 { max(0, min(coordinate, value)) }
}

extension Rect {
    /// The rectangle with its position and size inside `ClientLimits.coordinate`.
    var clampedToClientLimits: Rect {
        Rect(
            x: ClientLimits.clamp(x), y: ClientLimits.clamp(y), width: ClientLimits.clampSize(width),
            height: ClientLimits.clampSize(height))
    }
}
