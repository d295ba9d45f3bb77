import InputEvents

/// libinput's rules for a pen's pressure axis (libinput 1.22, src/evdev-tablet.c), so that the
/// decoder gives the answers a compositor on libinput gets:
///
/// * The tip is decided from pressure, not from `BTN_TOUCH`: down at or above the upper
///   threshold (5 % of the range), up at or below the lower one (1 %). A stroke whose pressure
///   dips to the lower threshold while `BTN_TOUCH` stays down is two strokes.
/// * Force is `(raw - lower) / (maximum - lower)`: 0 at the lower threshold.
/// * A worn tip that reports pressure while hovering (a pen entering proximity at least half its
///   distance range away with some pressure, at most 20 % of the range) sets a pressure offset:
///   the lower threshold moves to it, the upper one keeps its gap. Once set, any lower pressure
///   lowers it again. Only devices with a distance axis do this.
///
/// Thresholds are per tool, as in libinput (a pen's offset survives leaving proximity).
/// libinput's per-device `AttrPressureRange` quirks (a few Aiptek tablets) are not applied.
struct TabletPressure: Sendable {
    struct Thresholds: Sendable, Equatable {
        var lower: Int32
        var upper: Int32
        var hasOffset = false
    }

    let axis: AbsInfo
    let distance: AbsInfo?
    /// One entry per `PenTool`, filled at init: the event path never allocates.
    private var tools: [Thresholds]

    /// Nil when the axis has no range (then there is no pressure to decide from).
    init?(axis: AbsInfo, distance: AbsInfo?) {
        guard axis.hasRange else { return nil }
        self.axis = axis
        self.distance = distance?.hasRange == true ? distance : nil
        let defaults = Thresholds(
            lower: Self.truncated(Self.percentage(axis, 1)), upper: Self.truncated(Self.percentage(axis, 5)))
        tools = Array(repeating: defaults, count: Self.toolCount)
    }

    /// A point `percent` of the way along the axis, as a double (libinput compares these
    /// unrounded, and truncates them where it keeps them in an int).
    static func percentage(_ axis: AbsInfo, _ percent: Double) -> Double {
        (Double(axis.maximum) - Double(axis.minimum)) * percent / 100 + Double(axis.minimum)
    }

    private static func truncated(_ value: Double) -> Int32 {
        Int32(clamping: Int64(value.rounded(.towardZero)))
    }

    private static let toolCount = 7

    private static func index(_ tool: PenTool) -> Int {
        switch tool {
        case .pen: 0
        case .eraser: 1
        case .brush: 2
        case .pencil: 3
        case .airbrush: 4
        case .mouse: 5
        case .lens: 6
        }
    }

    func thresholds(_ tool: PenTool) -> Thresholds { tools[Self.index(tool)] }

    /// 0...1 from the tool's lower threshold to the maximum (clamped: hardware overshoots).
    func force(_ tool: PenTool, raw: Int32) -> Double {
        let lower = Double(thresholds(tool).lower)
        let range = Double(axis.maximum) - lower
        guard range > 0 else { return 0 }
        return min(1, max(0, (Double(raw) - lower) / range))
    }

    /// One frame with the pen in proximity: updates the tool's offset, then returns whether the
    /// tip is down now. `entering`: the pen came into proximity in this frame.
    mutating func tipDown(
        _ tool: PenTool, pressure: Int32, distance rawDistance: Int32, entering: Bool, wasDown: Bool
    ) -> Bool {
        let index = Self.index(tool)
        // A local copy, written back: `detectOffset(&tools[index])` would pass `self` to the
        // call while its array is borrowed inout, and Swift then copies `self` (and the array,
        // copy on write): an allocation on every frame.
        var thresholds = tools[index]
        detectOffset(&thresholds, pressure: pressure, distance: rawDistance, entering: entering)
        tools[index] = thresholds
        if wasDown && pressure <= thresholds.lower { return false }
        if !wasDown && pressure >= thresholds.upper { return true }
        return wasDown
    }

    private func detectOffset(
        _ thresholds: inout Thresholds, pressure: Int32, distance rawDistance: Int32, entering: Bool
    ) {
        guard let distance else { return }
        if thresholds.hasOffset {
            // A fast first touch may have set it too high: follow any lower pressure down.
            if pressure < thresholds.lower { Self.setOffset(&thresholds, pressure) }
            return
        }
        guard pressure > axis.minimum, entering else { return }
        // Closer than half the distance range: too likely to be a real touch.
        guard Double(rawDistance) >= Self.percentage(distance, 50) else { return }
        guard Double(pressure) <= Self.percentage(axis, 20) else { return }
        Self.setOffset(&thresholds, pressure)
    }

    private static func setOffset(_ thresholds: inout Thresholds, _ offset: Int32) {
        let gap = thresholds.upper &- thresholds.lower
        thresholds.lower = offset
        thresholds.upper = offset &+ gap
        thresholds.hasOffset = true
    }
}
