import PreviewEngine
import Testing

@Suite("Cancel reasons")
struct CancelTests {
    /// A script with one interaction in its preview phase.
    static func previewing() -> Script {
        var script = Script()
        script.press(0.1, at: 0)
        script.force(0.3, at: 10)
        script.advance(to: 50)
        return script
    }

    @Test(
        "A contact lost mid-preview cancels with its reason",
        arguments: [
            CancelReason.lifted, .deviceRemoved, .desynchronised, .system,
        ])
    func contactEnds(reason: CancelReason) {
        var script = Self.previewing()
        #expect(script.seen().phases == ["ask", "preview"])
        script.lift(at: 60, reason: reason)
        #expect(script.seen() == [.cancel(reason)])
        #expect(script.engine.contactCount == 0)
    }

    @Test("Lifting during the commit phase cancels; the update carries the commit progress")
    func liftInCommit() {
        var script = Script()
        script.press(0.3, at: 0)
        script.force(0.7, at: 10)
        script.advance(to: 40)
        #expect(script.seen().phases == ["ask", "preview", "preview-ended", "commit"])
        script.lift(at: 50)
        let updates = script.updates()
        #expect(updates.count == 1)
        #expect(updates.first.map { $0.progress > 0 } == true)
    }

    @Test("The client cancels: cancel(clientCancelled), then nothing until the contact ends")
    func clientCancel() throws {
        var script = Self.previewing()
        let id = try #require(script.lastAsked)
        _ = script.seen()
        script.clientCancels(id, at: 60)
        #expect(script.seen() == [.cancel(.clientCancelled)])
        script.force(1.0, at: 70)
        script.advance(to: 400)
        script.lift(at: 410)
        #expect(script.seen() == [])
        script.press(0.3, at: 500)
        #expect(script.seen().phases == ["ask", "preview"], "the next contact starts afresh")
    }

    @Test("The surface is destroyed: cancel(surfaceGone); the contact goes on inert")
    func surfaceGone() {
        var script = Self.previewing()
        _ = script.seen()
        script.destroySurface(at: 60)
        #expect(script.seen() == [.cancel(.surfaceGone)])
        script.force(1.0, at: 70)
        script.lift(at: 80)
        #expect(script.seen() == [])
        #expect(script.engine.contactCount == 0)
    }

    @Test("The device is removed: cancel(deviceRemoved) for its contacts only")
    func deviceRemoved() {
        var script = Script()
        script.press(0.3, at: 0, finger: Script.finger(0, device: 1))
        script.press(0.3, at: 0, finger: Script.finger(0, device: 2))
        _ = script.seen()
        script.removeDevice(DeviceID(1), at: 20)
        let updates = script.updates()
        #expect(updates.map(\.contact) == [Script.finger(0, device: 1)])
        #expect(script.engine.contactCount == 1)
        script.force(0.35, at: 30, finger: Script.finger(0, device: 2))
        #expect(script.seen().phases == ["preview"])
    }

    @Test("Contacts over nothing, duplicate begins and unknown contacts are ignored")
    func oddInput() {
        var script = Script()
        script.press(0.9, at: 0, surface: nil)
        script.force(0.9, at: 10)
        script.lift(at: 20)
        #expect(script.seen() == [])
        script.press(0.05, at: 30)
        script.press(0.9, at: 40)
        #expect(script.seen() == [], "a second begin for the same contact does nothing")
        #expect(script.engine.contactCount == 1)
    }

    @Test("NaN and out-of-range forces never crash or leave 0...1")
    func badForce() {
        var script = Script()
        script.press(.nan, at: 0)
        script.force(-3, at: 10)
        script.force(.infinity, at: 20)
        script.force(.nan, at: 30)
        script.advance(to: 300)
        #expect(script.all.map(Script.seen).phases == ["ask", "preview", "preview-ended", "commit", "completed"])
        for update in script.updates() { #expect((0...1).contains(update.progress)) }
    }
}
