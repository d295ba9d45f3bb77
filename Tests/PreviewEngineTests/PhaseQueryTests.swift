import PreviewEngine
import Testing

/// The engine answers which phase an interaction is in: hosts ask instead of keeping copies.
@Suite struct PhaseQueryTests {
    @Test("phase(of:) follows one interaction from should-begin to its end, and forgets it")
    func followsOneInteraction() throws {
        var script = Script(client: .silent)
        script.press(0.3, at: 0)  // past begin (0.12), below commit (0.55)
        let id = try #require(script.lastAsked)
        #expect(script.engine.phase(of: id) == .asking)
        #expect(script.engine.runningCount == 1)
        script.answer(id, accept: true, at: 5)
        #expect(script.engine.phase(of: id) == .preview)
        var ms: Int64 = 5
        while script.engine.phase(of: id) == .preview, ms < 5_000 {
            ms += 10
            script.force(1, at: ms)
        }
        #expect(script.engine.phase(of: id) == .commit)
        #expect(script.engine.runningCount == 1)
        script.lift(at: ms + 10)
        #expect(script.engine.phase(of: id) == nil, "the contact ended: the engine dropped it")
        #expect(script.engine.runningCount == 0)
    }

    @Test("A declined interaction is cancelled while its contact stays down, and is not running")
    func declined() throws {
        var script = Script(client: .silent)
        script.press(0.9, at: 0)
        let id = try #require(script.lastAsked)
        script.answer(id, accept: false, at: 5)
        #expect(script.engine.phase(of: id) == .cancelled)
        #expect(script.engine.runningCount == 0)
        #expect(script.engine.phase(of: InteractionID(99)) == nil)
    }
}
