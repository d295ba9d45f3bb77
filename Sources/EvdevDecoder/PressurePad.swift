import PreviewEngine

/// Force on a pressure pad (`INPUT_PROP_PRESSUREPAD`): measured, not a contact area. Where the
/// pressure axis has a resolution the kernel reports grams (units per gram), and the engine's
/// 0...1 force is grams over one fixed full scale, so a preset means the same force on every
/// pad; without a resolution the axis range is all we know (as for any touchpad).
/// docs/state-machine.md, "Pressure pads", gives the grams each preset's thresholds become.
public enum PressurePad {
    /// The force the engine's 1.0 stands for. With it the default preset begins a preview at
    /// 72 g, commits at 330 g and completes at 528 g; the pad's own click (about 200 g, see
    /// `clickGrams`) falls between begin and commit in every preset.
    public static let fullScaleGrams = 600

    /// The force at which a pressure pad's firmware clicks by itself: the press threshold the
    /// kernel's hid-haptic support was proposed with (200, ABS_MT_PRESSURE in grams).
    public static let clickGrams = 200.0

    /// The normaliser of a pressure pad's force axis: grams over `fullScaleGrams` when the
    /// axis has a resolution, else its absinfo range. Nil without a usable axis.
    public static func normaliser(_ axis: AbsInfo) -> ForceNormaliser? {
        guard axis.resolution > 0 else { return ForceNormaliser(minimum: axis.minimum, maximum: axis.maximum) }
        let (maximum, overflow) = Int32(fullScaleGrams).multipliedReportingOverflow(by: axis.resolution)
        return ForceNormaliser(minimum: 0, maximum: overflow ? Int32.max : maximum)
    }

    /// What the force is measured in, for logs: "g" with a resolution, else "of its range".
    public static func unit(_ axis: AbsInfo) -> String {
        axis.resolution > 0 ? "\(axis.resolution) units/g, 1.0 = \(fullScaleGrams) g" : "range, no resolution"
    }
}
