import PreviewEngine
import Testing

@Suite("Should-begin: answers, veto, timeout")
struct ShouldBeginTests {
    @Test("Nothing but the question until the client answers; then the preview starts where the force is")
    func waitsForTheAnswer() throws {
        var script = Script(client: .silent)
        script.press(0.2, at: 0)
        script.force(0.3, at: 10)
        let id = try #require(script.lastAsked)
        #expect(script.seen() == [.ask(id)])
        script.answer(id, accept: true, at: 20)
        let seen = script.seen()
        #expect(seen.count == 1)
        guard case .preview(let progress, ended: false) = seen.first else {
            Issue.record("expected a preview, saw \(seen)")
            return
        }
        #expect(progress > 0.2 && progress < 0.5)
    }

    @Test("A veto cancels (declined) and keeps the contact inert until it lifts")
    func veto() throws {
        var script = Script(client: .declines)
        script.press(0.2, at: 0)
        let first = try #require(script.lastAsked)
        #expect(script.seen() == [.ask(first), .cancel(.declined)])
        script.force(0.6, at: 20)
        script.force(1.0, at: 30)
        script.advance(to: 500)
        #expect(script.seen() == [], "no second interaction under the same finger")
        #expect(script.engine.interaction(for: Script.finger())?.state == .vetoed(.declined))
        script.lift(at: 510)
        #expect(script.seen() == [])

        script.client = .accepts
        script.press(0.3, at: 600)
        let second = try #require(script.lastAsked)
        #expect(second.rawValue > first.rawValue, "interaction ids increase")
        #expect(script.seen().phases == ["ask", "preview"])
    }

    @Test("No answer within the timeout counts as a decline (timeout)")
    func timeout() throws {
        var script = Script(EngineConfiguration(shouldBeginTimeout: .milliseconds(150)), client: .silent)
        script.press(0.2, at: 0)
        let id = try #require(script.lastAsked)
        script.advance(to: 149)
        #expect(script.seen() == [.ask(id)])
        script.advance(to: 150)
        let updates = script.updates()
        #expect(updates.map(\.time) == [Timestamp(milliseconds: 150)])
        script.answer(id, accept: true, at: 160)
        script.force(0.9, at: 170)
        script.advance(to: 400)
        #expect(script.seen() == [], "a late answer is ignored")
        #expect(script.engine.interaction(id)?.state == .vetoed(.timeout))
    }

    @Test("An answer that arrives after the deadline, before the timer fired, is still late")
    func lateAnswerBeforeTimer() throws {
        var engine = InteractionEngine()
        let finger = Script.finger()
        let began = engine.contactBegan(
            ForceSample(time: Timestamp(milliseconds: 0), force: 0.3, location: .zero, source: .pen, contact: finger),
            surface: SurfaceID(7), hasForce: true)
        #expect(began.map(Script.seenOrTimer) == ["timer(150000µs)", "ask(#1)"], "the timer comes first")
        guard case .askShouldBegin(let ask) = began[1] else {
            Issue.record("expected a question, got \(began)")
            return
        }
        let late = engine.clientAnswered(ask.interaction, accept: true, at: Timestamp(milliseconds: 400))
        #expect(late.map(Script.seenOrTimer) == ["timer(nil)", "cancel(timeout)"])
    }

    @Test("Answers for unknown or finished interactions are ignored")
    func unknownAnswers() throws {
        var script = Script()
        script.press(0.3, at: 0)
        let id = try #require(script.lastAsked)
        _ = script.seen()
        script.answer(InteractionID(999), accept: false, at: 10)
        script.answer(id, accept: false, at: 20)
        script.clientCancels(InteractionID(999), at: 30)
        #expect(script.seen() == [], "a second answer to a running interaction changes nothing")
        script.lift(at: 40)
        script.answer(id, accept: true, at: 50)
        script.clientCancels(id, at: 60)
        #expect(script.seen() == [.cancel(.lifted)])
    }
}

extension Script {
    static func seenOrTimer(_ action: Action) -> String {
        if case .scheduleTimer(let time) = action { return "timer(\(time.map(\.description) ?? "nil"))" }
        return seen(action).description
    }
}
