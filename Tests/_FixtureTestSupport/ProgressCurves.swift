/// Comparing a traced progress curve with a reference run's, where either may have been paced
/// differently: a client that answers should-begin late sees a phase from then on, and flow
/// control may coalesce progress (docs/protocol.md), so neither side need have every sample.
public enum ProgressCurves {
    /// Where `seen` is off the reference's curve by more than `tolerance`: in order, each value
    /// must lie within `tolerance` of a segment between two consecutive reference samples at or
    /// after the previous value's; the curve starts at 0 (every phase begins at its threshold, so
    /// a question answered a sample earlier shows a smaller first value). The peak must be the
    /// reference's largest value from some point at or below `seen`'s first value. Nothing seen:
    /// nothing to compare.
    public static func mismatches(_ name: String, _ seen: [Double], against reference: [Double], tolerance: Double)
        -> [String]
    {
        guard let first = seen.first, let peak = seen.max() else { return [] }
        let curve = [0] + reference
        var problems: [String] = []
        var segment = 0
        for value in seen {
            func distance(_ index: Int) -> Double {
                let a = curve[index]
                let b = curve[min(index + 1, curve.count - 1)]
                return max(0, min(a, b) - value, value - max(a, b))
            }
            guard let found = (segment..<curve.count).first(where: { distance($0) <= tolerance }) else {
                problems.append(
                    "\(name) progress \(value) is off the reference's curve after sample \(segment): \(reference)")
                continue
            }
            segment = found
        }
        let peakAgrees = curve.indices.contains { index in
            curve[index] <= first + tolerance && abs(curve[index...].max()! - peak) <= tolerance
        }
        if !peakAgrees { problems.append("\(name) peak \(peak) vs the reference's from where it begins: \(reference)") }
        return problems
    }
}
