import PreviewEngine
import PreviewProtocolServer
import Testing

/// Look Up's host-independent part, the pure session: which press asks preview-lookup, what an
/// answer (on time, late, or nothing) leads to, the phases drawn, and every way what is shown
/// goes. Time is stepped by the test (10 ms a sample); the session's timer fires when due.
@Suite struct LookupSessionTests {
    typealias Effect = LookupSession.Effect

    static let window = SurfaceID(7)
    static let word = LookupRect(x: 40, y: 20, width: 52, height: 16)

    /// One pen (or mouse) driving a session, with everything the session said, in order.
    struct Run {
        var session: LookupSession
        var effects: [Effect] = []
        var said: [Effect] = []
        var time = Timestamp(microseconds: 5_000_000)
        var key = ContactKey(device: DeviceID(1), contact: 0)
        var hasForce = true
        var available = true

        init(longPress: Bool = false, deadline: Int64 = 500) {
            session = LookupSession(
                configuration: EngineConfiguration(), deadline: .milliseconds(deadline), longPress: longPress)
        }

        func sample(_ force: Double) -> ForceSample {
            ForceSample(
                time: time, force: hasForce ? force : 0, location: Point(x: 60, y: 28),
                source: hasForce ? .pen : .pointer, contact: key)
        }

        mutating func keep() { said += effects }

        mutating func press(on target: LookupPressTarget = .window(window, Point(x: 60, y: 28), declaresPreview: false))
        {
            session.contactBegan(sample(0.02), hasForce: hasForce, on: target, available: available, into: &effects)
            keep()
        }

        /// A press that passes the begin threshold: preview-lookup is asked.
        mutating func pressAndAsk(
            on target: LookupPressTarget = .window(window, Point(x: 60, y: 28), declaresPreview: false)
        ) {
            press(on: target)
            ramp(to: 0.2, steps: 8)
        }

        /// Steps 10 ms at a time for `steps` samples, the force going linearly to `force`.
        mutating func ramp(to force: Double, steps: Int, from start: Double = 0.02) {
            for step in 1...steps {
                advance(milliseconds: 10)
                let value = start + (force - start) * Double(step) / Double(steps)
                session.contactMoved(sample(value), into: &effects)
                keep()
            }
        }

        /// Time passes; the session's timer fires when due.
        mutating func advance(milliseconds: Int64) {
            let end = time + .milliseconds(milliseconds)
            while let due = session.nextDeadline, due <= end {
                time = max(time, due)
                session.timerFired(at: time, into: &effects)
                keep()
            }
            time = end
        }

        mutating func answer(_ kind: LookupChannel.Kind, extents: LookupRect? = word) {
            guard let id = asked.last else { return }
            session.answered(
                LookupChannel.Answer(id: id, kind: kind, extents: extents, word: "jumps"), at: time, into: &effects)
            keep()
        }

        mutating func lift() {
            advance(milliseconds: 10)
            session.contactEnded(key, at: time, reason: .lifted, into: &effects)
            keep()
        }

        var asked: [UInt32] {
            said.compactMap { if case .ask(let id, _, _, _) = $0 { id } else { nil } }
        }
        var highlights: [Double] {
            said.compactMap { if case .highlight(_, _, let progress) = $0 { progress } else { nil } }
        }
        var panels: Int { said.filter { if case .showPanel = $0 { true } else { false } }.count }
        var dismissals: Int { said.filter { if case .dismiss = $0 { true } else { false } }.count }
        var completed: Bool { said.contains { if case .completed = $0 { true } else { false } } }
        var outcomes: [LookupSession.Outcome] {
            said.compactMap { if case .answered(_, let outcome, _, _) = $0 { outcome } else { nil } }
        }
    }

    @Test func aFirmPressOnAWordHighlightsItThenShowsThePanelWhichStaysUntilANewPress() throws {
        var run = Run()
        run.press()
        #expect(run.asked.isEmpty, "preview-lookup was asked before the force reached the begin threshold")
        run.ramp(to: 0.2, steps: 8)
        #expect(run.asked.count == 1, "a press on a window asks preview-lookup")
        let ask = run.said.last { if case .ask = $0 { true } else { false } }
        guard case .ask(_, let surface, let point, false)? = ask else { throw Expectation.missing }
        #expect(surface == Self.window && point == Point(x: 60, y: 28), "the question is local to the window")
        run.answer(.word)
        #expect(run.outcomes == [.found])
        run.ramp(to: 1, steps: 40)
        #expect(!run.highlights.isEmpty, "the preview highlights the word")
        #expect(run.highlights.last == 1 && run.highlights.max() == 1, "the highlight grows with the force")
        #expect(run.panels == 1, "the commit shows the panel once")
        run.ramp(to: 1, steps: 30, from: 1)
        #expect(run.completed)
        run.lift()
        #expect(run.dismissals == 0, "the completed panel stays after the lift")
        #expect(run.session.shownLookup == run.asked.first)

        run.key = ContactKey(device: DeviceID(1), contact: 1)
        run.press(on: .panel)
        #expect(run.dismissals == 0, "a press on the panel is the panel's")
        run.press(on: .elsewhere)
        #expect(run.dismissals == 1, "a press elsewhere dismisses it")
        #expect(run.session.shownLookup == nil)
    }

    @Test func aLightPressShowsNothingAndAPressShortOfTheCommitOnlyTheHighlight() {
        var light = Run()
        light.press()
        light.ramp(to: 0.08, steps: 30)
        light.lift()
        #expect(light.asked.isEmpty && light.said.allSatisfy { if case .scheduleTimer = $0 { true } else { false } })

        var run = Run()
        run.pressAndAsk()
        run.answer(.word)
        run.ramp(to: 0.4, steps: 20, from: 0.2)
        run.lift()
        #expect(!run.highlights.isEmpty && run.panels == 0, "a press short of the commit showed the panel")
        #expect(run.session.shownLookup == nil && run.dismissals == 1, "the highlight stayed after the lift")
    }

    @Test func nothingUnderThePressOrAnswerAfterTheDeadlineMeansNoLookup() {
        var nothing = Run()
        nothing.pressAndAsk()
        nothing.answer(.nothing)
        nothing.ramp(to: 1, steps: 40)
        #expect(nothing.outcomes == [.nothing] && nothing.highlights.isEmpty && nothing.panels == 0)

        var late = Run(deadline: 100)
        late.press()
        late.ramp(to: 0.3, steps: 25)  // asked after about 50 ms; 250 ms is past the deadline
        late.answer(.word)
        late.ramp(to: 1, steps: 20, from: 0.3)
        #expect(late.outcomes == [.late], "an answer after the deadline is late")
        #expect(late.highlights.isEmpty && late.panels == 0)
        #expect(late.session.awaitingAnswerCount == 0)
    }

    /// A contact that can no longer look up (nothing there, past the deadline, cancelled) is
    /// forgotten at once: the rest of its stroke costs nothing, and the same pen pressing again
    /// (the same contact key every stroke) looks up again, however often.
    @Test func aContactThatCanNoLongerLookUpIsForgottenAndTheSamePenLooksUpAgain() {
        var run = Run()
        for press in 1...(InteractionEngine.maximumContacts + 2) {
            run.pressAndAsk()
            #expect(run.asked.count == press, "press \(press) of the same pen asked nothing")
            run.answer(.nothing)
            #expect(!run.session.follows(run.key), "a declined contact is still followed")
            #expect(run.session.trackedContactCount == 0, "a declined contact is still in the engine")
            run.ramp(to: 1, steps: 5, from: 0.2)
            run.lift()
        }

        var late = Run(deadline: 100)
        late.pressAndAsk()
        late.advance(milliseconds: 200)
        #expect(!late.session.follows(late.key) && late.session.trackedContactCount == 0)
        late.lift()
        late.pressAndAsk()
        #expect(late.asked.count == 2, "the pen looked up nothing after a lookup past the deadline")

        var escaped = Run()
        escaped.press()
        escaped.ramp(to: 0.1, steps: 3)
        escaped.session.escapePressed(seat: 0, at: escaped.time, into: &escaped.effects)
        #expect(!escaped.session.follows(escaped.key) && escaped.session.trackedContactCount == 0)
        escaped.lift()
        escaped.pressAndAsk()
        #expect(escaped.asked.count == 1, "the pen looked up nothing after Escape")
    }

    @Test func aDeclaredPreviewAreaAnOffSwitchAndALongPressWithoutTheSettingAskNothing() {
        var declared = Run()
        declared.pressAndAsk(on: .window(Self.window, Point(x: 1, y: 1), declaresPreview: true))
        var off = Run()
        off.available = false
        off.pressAndAsk()
        var mouse = Run()
        mouse.hasForce = false
        mouse.press()
        mouse.ramp(to: 0, steps: 200)
        #expect(declared.asked.isEmpty && off.asked.isEmpty && mouse.asked.isEmpty)
        #expect(!declared.session.follows(declared.key))

        var longPress = Run(longPress: true)
        longPress.hasForce = false
        longPress.press()
        for _ in 0..<100 where longPress.asked.isEmpty { longPress.ramp(to: 0, steps: 1) }
        #expect(longPress.asked.count == 1, "with the setting on, a long press looks up")
        longPress.answer(.link)
        longPress.ramp(to: 0, steps: 150)
        #expect(!longPress.highlights.isEmpty && longPress.panels == 1, "the long press's phases run")
    }

    @Test func escapeTheAppGoneAndTheProcessGoneTakeItAllDown() {
        func shown() -> Run {
            var run = Run()
            run.pressAndAsk()
            run.answer(.word)
            run.ramp(to: 0.45, steps: 10, from: 0.2)
            return run
        }
        var escape = shown()
        #expect(!escape.highlights.isEmpty)
        escape.session.escapePressed(seat: 0, at: escape.time, into: &escape.effects)
        escape.keep()
        #expect(escape.dismissals == 1 && escape.session.shownLookup == nil)
        escape.ramp(to: 1, steps: 20, from: 0.45)
        #expect(escape.panels == 0, "a lookup dismissed by Escape came back")

        var gone = shown()
        gone.session.surfaceDestroyed(SurfaceID(99), at: gone.time, into: &gone.effects)
        gone.keep()
        #expect(gone.dismissals == 0, "another window's end took the lookup down")
        gone.session.surfaceDestroyed(Self.window, at: gone.time, into: &gone.effects)
        gone.keep()
        #expect(gone.dismissals == 1 && !gone.session.follows(gone.key))

        var process = shown()
        process.session.processGone(into: &process.effects)
        process.keep()
        #expect(process.dismissals == 1)

        var asked = Run()
        asked.pressAndAsk()
        asked.session.processGone(into: &asked.effects)
        #expect(asked.session.awaitingAnswerCount == 0, "answers in flight were kept after the process went")
    }

    @Test func aQuestionThatCannotBeSentDeclinesAtOnce() {
        var run = Run()
        run.pressAndAsk()
        #expect(run.asked.count == 1)
        run.session.askFailed(run.asked.first ?? 0, at: run.time, into: &run.effects)
        run.keep()
        #expect(run.session.awaitingAnswerCount == 0)
        run.answer(.word)
        #expect(run.outcomes.isEmpty, "an answer to a question never sent was taken")
    }
}

extension LookupSessionTests {
    @Test func thePreviewKeyLooksUpAtTheCaretHeldPastTheLongPressAndIsDismissedByItsRelease() throws {
        var run = Run()
        let key = ContactKey(seat: 0, device: DeviceID(9), contact: 127)
        let focus = Point(x: 300, y: 200)
        run.session.keyPressed(
            key, on: .window(Self.window, focus, declaresPreview: true), available: true, at: run.time,
            into: &run.effects)
        run.keep()
        run.advance(milliseconds: 2000)
        #expect(run.asked.isEmpty, "a window that declared a keyboard preview got a lookup")

        run.session.keyPressed(
            key, on: .window(Self.window, focus, declaresPreview: false), available: true, at: run.time,
            into: &run.effects)
        run.keep()
        for _ in 0..<200 where run.asked.isEmpty { run.advance(milliseconds: 10) }
        let ask = try #require(run.said.last { if case .ask = $0 { true } else { false } })
        #expect(ask == .ask(id: run.asked[0], surface: Self.window, at: focus, caret: true), "\(ask)")
        run.answer(.word)
        run.advance(milliseconds: 3000)
        #expect(!run.highlights.isEmpty && run.panels == 1 && run.completed, "the held key did not complete")
        run.session.keyReleased(key, at: run.time, into: &run.effects)
        run.keep()
        #expect(run.dismissals == 0, "the release took the completed panel down")
        #expect(!run.session.follows(key))
    }

    @Test func thePreviewKeyReleasedEarlyShowsNothing() {
        var run = Run()
        let key = ContactKey(seat: 0, device: DeviceID(9), contact: 127)
        run.session.keyPressed(
            key, on: .window(Self.window, Point(x: 5, y: 5), declaresPreview: false), available: true, at: run.time,
            into: &run.effects)
        run.keep()
        for _ in 0..<200 where run.asked.isEmpty { run.advance(milliseconds: 10) }
        run.answer(.word)
        run.advance(milliseconds: 50)
        run.session.keyReleased(key, at: run.time, into: &run.effects)
        run.keep()
        run.advance(milliseconds: 2000)
        #expect(run.panels == 0 && run.session.shownLookup == nil, "a tap of the preview key showed the panel")
    }
}

enum Expectation: Error { case missing }
