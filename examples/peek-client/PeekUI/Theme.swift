// Light and dark palettes, close to the iOS system colours so the sample looks familiar.

public enum Theme: String, Sendable, CaseIterable {
    case light
    case dark

    public var palette: Palette {
        switch self {
        case .light: .light
        case .dark: .dark
        }
    }
}

/// A straight (not premultiplied) RGBA colour.
public struct Color: Hashable, Sendable {
    public var r, g, b, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            Double((hex >> 16) & 0xff) / 255, Double((hex >> 8) & 0xff) / 255, Double(hex & 0xff) / 255, alpha)
    }
    public func withAlpha(_ a: Double) -> Color { Color(r, g, b, a) }
}

public struct Palette: Sendable {
    public var background: Color
    public var bar: Color
    public var separator: Color
    public var label: Color
    public var secondaryLabel: Color
    public var tile: Color
    public var focusRing: Color
    /// Laid over the blurred background while peeking (a light or dark veil, as UIBlurEffect does).
    public var veil: Color
    public var platter: Color
    public var platterHighlight: Color
    public var selectedFill: Color
    public var tint: Color
    public var destructive: Color
    public var shadow: Color
    public var toast: Color
    public var toastLabel: Color

    public static let light = Palette(
        background: Color(hex: 0xF2F2F7), bar: Color(hex: 0xF9F9FB, alpha: 0.96), separator: Color(hex: 0xC6C6C8),
        label: Color(hex: 0x000000), secondaryLabel: Color(hex: 0x3C3C43, alpha: 0.62), tile: Color(hex: 0xFFFFFF),
        focusRing: Color(hex: 0x007AFF), veil: Color(hex: 0xF2F2F7, alpha: 0.42),
        platter: Color(hex: 0xFFFFFF, alpha: 0.97), platterHighlight: Color(hex: 0xD1D1D6),
        selectedFill: Color(hex: 0x007AFF, alpha: 0.14), tint: Color(hex: 0x007AFF),
        destructive: Color(hex: 0xFF3B30), shadow: Color(0, 0, 0, 0.28), toast: Color(hex: 0x1C1C1E, alpha: 0.92),
        toastLabel: Color(hex: 0xFFFFFF))

    public static let dark = Palette(
        background: Color(hex: 0x000000), bar: Color(hex: 0x161618, alpha: 0.96), separator: Color(hex: 0x38383A),
        label: Color(hex: 0xFFFFFF), secondaryLabel: Color(hex: 0xEBEBF5, alpha: 0.6), tile: Color(hex: 0x1C1C1E),
        focusRing: Color(hex: 0x0A84FF), veil: Color(hex: 0x000000, alpha: 0.45),
        platter: Color(hex: 0x2C2C2E, alpha: 0.97), platterHighlight: Color(hex: 0x48484A),
        selectedFill: Color(hex: 0x0A84FF, alpha: 0.22), tint: Color(hex: 0x0A84FF),
        destructive: Color(hex: 0xFF453A), shadow: Color(0, 0, 0, 0.6), toast: Color(hex: 0xF2F2F7, alpha: 0.94),
        toastLabel: Color(hex: 0x000000))
}
