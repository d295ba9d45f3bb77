import PreviewCompositor
import Testing

@Suite("Surface damage from clients")
struct DamageTests {
    @Test("Damage of INT32_MAX size (wev sends it) is clamped so its edges don't overflow")
    func hugeDamageIsClamped() {
        for rect in [
            Rect(x: 0, y: 0, width: .max, height: .max),
            Rect(x: .max, y: .max, width: .max, height: .max),
            Rect(x: .min, y: .min, width: .max, height: .max),
        ] {
            let clamped = rect.clampedDamage
            #expect(!clamped.x.addingReportingOverflow(clamped.width).overflow, "\(rect)")
            #expect(!clamped.y.addingReportingOverflow(clamped.height).overflow, "\(rect)")
            #expect(clamped.width >= 0 && clamped.height >= 0)
        }
    }

    @Test("Ordinary damage passes unchanged; negative sizes become empty")
    func ordinaryDamageUnchanged() {
        #expect(
            Rect(x: 10, y: 20, width: 300, height: 200).clampedDamage == Rect(x: 10, y: 20, width: 300, height: 200))
        #expect(Rect(x: 5, y: 5, width: -3, height: 4).clampedDamage.width == 0)
    }
}
