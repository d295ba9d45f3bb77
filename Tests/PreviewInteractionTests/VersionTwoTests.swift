import CClientLibrary
import CWaylandClient
import ClientLibrary
import Glibc
import PreviewEngine
import PreviewInteraction
import PreviewProtocolServer
import Testing

// Protocol version 2 through both client libraries (the C entry points called as C calls
// them, and the Swift API) against the shared InteractionDriver with the real engine, which
// advertises version 2 or 1: the settings and their changes, the keyboard at the focus point,
// pressure behaviours and stages, haptic effects only for a running press.

/// A C app: a context and one interaction on a surface, recording its callbacks as lines.
final class CApp {
    let display: OpaquePointer
    let compositor: OpaquePointer
    let surface: OpaquePointer
    var context: OpaquePointer?
    var interaction: OpaquePointer?
    var calls: [String] = []
    var presses: [preview_interaction_client_press] = []
    var settingsChanges: [preview_interaction_client_settings] = []
    var answer = PREVIEW_INTERACTION_CLIENT_ANSWER_ACCEPT
    private var fd: Int32 = -1

    init(server: DriverServer) throws {
        display = wl_display_connect_to_fd(server.clientFD)!
        compositor = try #require(AppHarness.bindCompositor(display))
        surface = try #require(wl_compositor_create_surface(compositor))
        let data = Unmanaged.passUnretained(self).toOpaque()
        var contextCallbacks = preview_interaction_client_callbacks()
        contextCallbacks.size = MemoryLayout<preview_interaction_client_callbacks>.size
        contextCallbacks.settings_changed = { data, _, settings in
            CApp.of(data).settingsChanges.append(settings!.pointee)
        }
        #expect(preview_interaction_client_create(display, &contextCallbacks, data, &context) == 0)
        var callbacks = preview_interaction_client_interaction_callbacks()
        callbacks.size = MemoryLayout<preview_interaction_client_interaction_callbacks>.size
        callbacks.should_begin = { data, _, press in
            CApp.of(data).record(press, "should_begin")
            return CApp.of(data).answer
        }
        callbacks.preview = { data, _, press, _, ended in
            CApp.of(data).record(press, ended ? "preview ended" : "preview")
        }
        callbacks.commit = { data, _, press, _, ended in CApp.of(data).record(press, ended ? "completed" : "commit") }
        callbacks.cancelled = { data, _, press, reason in
            let name = String(cString: preview_interaction_client_cancel_reason_string(reason.rawValue))
            CApp.of(data).record(press, "cancelled \(name)")
        }
        callbacks.stage = { data, _, press, stage in CApp.of(data).record(press, "stage \(stage)") }
        callbacks.haptics_changed = { data, _, press, available in CApp.of(data).record(press, "haptics \(available)") }
        #expect(preview_interaction_client_interaction_attach(context, surface, &callbacks, data, &interaction) == 0)
        #expect(preview_interaction_client_get_fd(context, &fd) == 0)
    }

    static func of(_ data: UnsafeMutableRawPointer?) -> CApp { Unmanaged<CApp>.fromOpaque(data!).takeUnretainedValue() }

    private func record(_ press: UnsafePointer<preview_interaction_client_press>?, _ call: String) {
        presses.append(press!.pointee)
        calls.append("\(press!.pointee.id): \(call)")
    }

    /// Polls the library's descriptor and dispatches, as an app's loop does, until `condition`.
    @discardableResult
    func run(until condition: () -> Bool) -> Bool {
        let deadline = AppHarness.now() + 10
        while !condition() && AppHarness.now() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 20) > 0 { _ = preview_interaction_client_dispatch(context) }
        }
        return condition()
    }

    func commit() {
        wl_surface_commit(surface)
        wl_display_roundtrip(display)
    }

    func close(_ server: DriverServer) {
        #expect(wl_display_get_error(display) == 0, "no protocol error")
        #expect(preview_interaction_client_destroy(context) == 0)
        wl_surface_destroy(surface)
        wl_compositor_destroy(compositor)
        wl_display_roundtrip(display)
        server.stop()
        wl_display_disconnect(display)
    }
}

/// A Swift app: the library's client and one PreviewInteraction with a recording delegate.
final class SwiftApp {
    let display: OpaquePointer
    let client: PreviewInteractionClient
    let compositor: OpaquePointer
    let surface: OpaquePointer
    let interaction: PreviewInteraction
    let delegate = RecordingDelegate()

    init(server: DriverServer) throws {
        display = wl_display_connect_to_fd(server.clientFD)!
        client = try PreviewInteractionClient(display: display)
        compositor = try #require(AppHarness.bindCompositor(display))
        surface = try #require(wl_compositor_create_surface(compositor))
        interaction = PreviewInteraction(surface: surface, client: client)
        interaction.delegate = delegate
    }

    @discardableResult
    func run(until condition: () -> Bool) -> Bool {
        let deadline = AppHarness.now() + 10
        while !condition() && AppHarness.now() < deadline {
            guard AppHarness.dispatchOnce(display, timeoutMilliseconds: 20) else { return false }
        }
        return condition()
    }

    func commit() {
        wl_surface_commit(surface)
        wl_display_roundtrip(display)
    }

    func close(_ server: DriverServer) {
        #expect(wl_display_get_error(display) == 0, "no protocol error")
        interaction.invalidate()
        wl_surface_destroy(surface)
        client.close()
        wl_compositor_destroy(compositor)
        wl_display_roundtrip(display)
        server.stop()
        wl_display_disconnect(display)
    }
}

@Suite(.serialized) struct VersionTwoTests {
    static let point = Point(x: 30, y: 40)

    /// A pen pressed past the begin threshold; `run` dispatches the app until `asked` holds and
    /// the compositor has its answer (the test's clock waits for the app, as a quick one).
    static func pressUntilAsked(_ server: DriverServer, run: (() -> Bool) -> Bool, asked: @escaping () -> Bool)
        -> Bool
    {
        server.sync { $0.press(0.05, at: point, began: true) }
        for step in 1...8 { server.sync { $0.press(0.05 + Double(step) * 0.04, at: point) } }
        return run { asked() && server.sync { $0.driver.awaitingAnswerCount == 0 } }
    }

    /// Firmer, still inside the preview phase.
    static func pressFurther(_ server: DriverServer) {
        for step in 1...5 { server.sync { $0.press(0.37 + Double(step) * 0.02, at: point) } }
    }

    static let firmSlow = EngineConfiguration(sensitivity: .firm, longPress: .slow)

    // MARK: settings

    @Test func theCLibraryBindsVersionTwoReadsTheSettingsAndFollowsEveryChange() throws {
        let server = try DriverServer(advertising: 2, haptics: .medium)
        let app = try CApp(server: server)
        var version: UInt32 = 0
        #expect(preview_interaction_client_get_protocol_version(app.context, &version) == 0 && version == 2)
        var settings = preview_interaction_client_settings()
        settings.size = MemoryLayout<preview_interaction_client_settings>.size
        #expect(preview_interaction_client_get_settings(app.context, &settings) == 0)
        #expect(settings.sensitivity == PREVIEW_INTERACTION_CLIENT_SENSITIVITY_MEDIUM && settings.long_press_ms == 500)
        #expect(settings.haptics == PREVIEW_INTERACTION_CLIENT_HAPTICS_MEDIUM)
        #expect(settings.completion == PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_FORCE)
        #expect(settings.begin_threshold > 0 && settings.begin_threshold < settings.commit_threshold)
        #expect(app.settingsChanges.isEmpty, "create read the first settings: no callback for them")

        server.sync { $0.driver.configure(Self.firmSlow, haptics: .strong) }
        #expect(app.run { app.settingsChanges.count == 1 })
        let changed = app.settingsChanges.last
        #expect(changed?.sensitivity == PREVIEW_INTERACTION_CLIENT_SENSITIVITY_FIRM && changed?.long_press_ms == 800)
        #expect(changed?.haptics == PREVIEW_INTERACTION_CLIENT_HAPTICS_STRONG)
        #expect(preview_interaction_client_get_settings(app.context, &settings) == 0)
        #expect(settings.sensitivity == PREVIEW_INTERACTION_CLIENT_SENSITIVITY_FIRM, "the getter follows")

        server.sync { $0.driver.configure(EngineConfiguration(completion: .onRelease), haptics: .off) }
        #expect(app.run { app.settingsChanges.count == 2 }, "a second change arrives again")
        #expect(app.settingsChanges.last?.completion == PREVIEW_INTERACTION_CLIENT_COMPLETION_ON_RELEASE)
        #expect(app.settingsChanges.last?.sensitivity == PREVIEW_INTERACTION_CLIENT_SENSITIVITY_MEDIUM)
        app.close(server)
    }

    @Test func theSwiftLibraryReadsTheSettingsAndFollowsEveryChange() throws {
        let server = try DriverServer(advertising: 2, haptics: .light)
        let app = try SwiftApp(server: server)
        #expect(app.client.protocolVersion == 2)
        #expect(app.client.settings?.sensitivity == .medium && app.client.settings?.haptics == .light)
        #expect(app.client.settings?.longPressMilliseconds == 500)
        var changes: [PreviewUserSettings] = []
        app.client.onSettingsChanged = { changes.append($0) }
        server.sync { $0.driver.configure(Self.firmSlow) }
        #expect(app.run { changes.count == 1 })
        #expect(changes.last?.sensitivity == .firm && changes.last?.longPressMilliseconds == 800)
        #expect(changes.last?.haptics == .light, "a setting not changed keeps its value")
        server.sync { $0.driver.configure(EngineConfiguration(completion: .onRelease)) }
        #expect(app.run { changes.count == 2 })
        #expect(app.client.settings?.completion == .onRelease)
        app.close(server)
    }

    // MARK: a compositor of version 1

    @Test func againstVersionOneTheCLibraryWorksAndTheNewCallsSayUnsupported() throws {
        let server = try DriverServer(advertising: 1, haptics: .medium)
        server.sync { $0.hapticDevices = [DriverServer.Host.pen.device] }
        let app = try CApp(server: server)
        var version: UInt32 = 0
        #expect(preview_interaction_client_get_protocol_version(app.context, &version) == 0 && version == 1)
        var settings = preview_interaction_client_settings()
        settings.size = MemoryLayout<preview_interaction_client_settings>.size
        let unsupported = PREVIEW_INTERACTION_CLIENT_ERROR_UNSUPPORTED.rawValue
        #expect(preview_interaction_client_get_settings(app.context, &settings) == unsupported)
        #expect(preview_interaction_client_interaction_set_focus_point(app.interaction, 10, 10) == unsupported)
        var area = preview_interaction_client_behaviour_area(
            behaviour: PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR, stages: 3, rects: nil, rect_count: 0)
        #expect(preview_interaction_client_interaction_set_behaviours(app.interaction, &area, 1) == unsupported)
        app.commit()
        #expect(Self.pressUntilAsked(server, run: app.run, asked: { app.calls.first == "1: should_begin" }))
        Self.pressFurther(server)
        #expect(app.run { app.calls.contains("1: preview") }, "\(app.calls)")
        #expect(app.presses.first?.behaviour == PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_DEEP_CLICK)
        let tick = PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK
        #expect(preview_interaction_client_interaction_play_haptic(app.interaction, 1, tick) == unsupported)
        server.sync { $0.lift() }
        #expect(app.run { app.calls.last == "1: cancelled lifted" }, "\(app.calls)")
        #expect(server.sync { $0.played }.isEmpty)
        app.close(server)
    }

    @Test func againstVersionOneTheSwiftLibraryWorksAndTheNewCallsAreNoOps() throws {
        let server = try DriverServer(advertising: 1)
        let app = try SwiftApp(server: server)
        #expect(app.client.protocolVersion == 1 && app.interaction.protocolVersion == 1)
        #expect(app.client.settings == nil)
        app.interaction.focusPoint = PreviewPoint(x: 10, y: 10)
        app.interaction.behaviours = [PreviewBehaviourArea(.accelerator(stages: 3))]
        app.interaction.allowedSources = .all
        app.commit()
        #expect(Self.pressUntilAsked(server, run: app.run, asked: { app.delegate.calls.first == "1: shouldBegin" }))
        Self.pressFurther(server)
        #expect(app.run { app.delegate.calls.contains { $0.hasPrefix("1: preview 0.") } }, "\(app.delegate.calls)")
        #expect(app.delegate.pressesSeen.first?.behaviour == .deepClick)
        #expect(throws: PreviewHapticError.unsupportedVersion) { try app.interaction.playHaptic(.tick, press: 1) }
        app.close(server)
    }

    // MARK: the keyboard

    @Test func aKeyboardPressReachesTheCClientAtItsFocusPoint() throws {
        let server = try DriverServer()
        let app = try CApp(server: server)
        app.commit()
        #expect(!server.sync { $0.keyDown() }, "no focus point: the key keeps its usual meaning")
        #expect(preview_interaction_client_interaction_set_focus_point(app.interaction, 40, 30) == 0)
        app.commit()
        #expect(server.sync { $0.keyDown() })
        server.sync { $0.advance(milliseconds: 600) }
        // The app accepts at once: the preview may follow in the same batch, so the test waits
        // for the question, not for it alone.
        #expect(app.run { app.calls.contains("1: should_begin") }, "\(app.calls)")
        #expect(app.calls.first == "1: should_begin", "\(app.calls)")
        let press = app.presses.first
        #expect(press?.source == PREVIEW_INTERACTION_CLIENT_SOURCE_KEYBOARD)
        #expect(press?.force == PREVIEW_INTERACTION_CLIENT_FORCE_SIMULATED)
        #expect(press?.x == 40 && press?.y == 30)
        #expect(press?.haptics_available == false, "the keyboard has no actuators")
        #expect(preview_interaction_client_interaction_unset_focus_point(app.interaction) == 0)
        app.close(server)
    }

    @Test func aKeyboardPressReachesTheSwiftDelegateAtItsFocusPoint() throws {
        let server = try DriverServer()
        let app = try SwiftApp(server: server)
        app.interaction.focusPoint = PreviewPoint(x: 12, y: 34)
        app.commit()
        #expect(server.sync { $0.keyDown() })
        server.sync { $0.advance(milliseconds: 600) }
        #expect(app.run { app.delegate.calls.contains("1: shouldBegin") }, "\(app.delegate.calls)")
        #expect(app.delegate.calls.first == "1: shouldBegin", "\(app.delegate.calls)")
        let press = app.delegate.pressesSeen.first
        #expect(press?.source == .keyboard && press?.force == .simulated)
        #expect(press?.location == PreviewPoint(x: 12, y: 34))
        app.close(server)
    }

    // MARK: behaviours and stages

    /// Ramps the force to 1 over 40 samples and lifts, the app accepting; waits for the first
    /// and the top stage (a busy app gets the latest level only, and a level still held back
    /// by flow control when the press ends is not sent).
    static func rampAndLift(
        _ server: DriverServer, run: (() -> Bool) -> Bool, asked: @escaping () -> Bool,
        sawStage: @escaping (UInt32) -> Bool
    ) -> Bool {
        guard pressUntilAsked(server, run: run, asked: asked) else { return false }
        server.sync { $0.press(0.37, at: point) }
        guard run({ sawStage(1) }) else { return false }
        for step in 0...40 { server.sync { $0.press(0.37 + Double(step) * 0.63 / 40, at: point) } }
        guard run({ sawStage(3) }) else { return false }
        server.sync { $0.lift() }
        return true
    }

    @Test func anAcceleratorsBehaviourAndStagesReachTheCCallbacks() throws {
        let server = try DriverServer()
        let app = try CApp(server: server)
        var area = preview_interaction_client_behaviour_area(
            behaviour: PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR, stages: 3, rects: nil, rect_count: 0)
        #expect(preview_interaction_client_interaction_set_behaviours(app.interaction, &area, 1) == 0)
        app.commit()
        #expect(
            Self.rampAndLift(
                server, run: app.run, asked: { app.calls.first == "1: should_begin" },
                sawStage: { app.calls.contains("1: stage \($0)") }))
        #expect(app.run { app.calls.last == "1: completed" }, "\(app.calls)")
        let asked = app.presses.first
        #expect(asked?.behaviour == PREVIEW_INTERACTION_CLIENT_BEHAVIOUR_ACCELERATOR && asked?.stages == 3)
        let stages = app.calls.filter { $0.hasPrefix("1: stage ") }
        #expect(stages.first == "1: stage 1" && stages.contains("1: stage 3"), "\(app.calls)")
        #expect(!app.calls.contains { $0.contains("preview") }, "stages instead of the phases: \(app.calls)")
        #expect(app.presses.last?.phase == PREVIEW_INTERACTION_CLIENT_PHASE_COMPLETED)
        app.close(server)
    }

    @Test func anAcceleratorsStagesReachTheSwiftDelegate() throws {
        let server = try DriverServer()
        let app = try SwiftApp(server: server)
        let area = PreviewRect(x: 0, y: 0, width: 100, height: 100)
        app.interaction.behaviours = [PreviewBehaviourArea(.accelerator(stages: 3), rects: [area])]
        app.commit()
        #expect(
            Self.rampAndLift(
                server, run: app.run, asked: { app.delegate.calls.first == "1: shouldBegin" },
                sawStage: { app.delegate.calls.contains("1: stage \($0)") }))
        #expect(app.run { app.delegate.calls.last == "1: commit 1.0 ended" }, "\(app.delegate.calls)")
        #expect(app.delegate.pressesSeen.first?.behaviour == .accelerator(stages: 3))
        let stages = app.delegate.calls.filter { $0.hasPrefix("1: stage ") }
        #expect(stages.first == "1: stage 1" && stages.contains("1: stage 3"), "\(app.delegate.calls)")
        app.close(server)
    }

    // MARK: haptics

    @Test func aHapticEffectIsSentOnlyWhileThePressRuns() throws {
        let server = try DriverServer(haptics: .medium)
        server.sync { $0.hapticDevices = [DriverServer.Host.pen.device] }
        let app = try CApp(server: server)
        app.answer = PREVIEW_INTERACTION_CLIENT_ANSWER_LATER
        app.commit()
        server.sync { $0.press(0.05, at: Self.point, began: true) }
        for step in 1...8 { server.sync { $0.press(0.05 + Double(step) * 0.04, at: Self.point) } }
        #expect(app.run { app.calls == ["1: should_begin"] })
        #expect(app.presses.first?.haptics_available == true)
        let tick = PREVIEW_INTERACTION_CLIENT_HAPTIC_TICK
        let notRunning = PREVIEW_INTERACTION_CLIENT_ERROR_NOT_RUNNING.rawValue
        #expect(preview_interaction_client_interaction_play_haptic(app.interaction, 1, tick) == notRunning)
        #expect(preview_interaction_client_interaction_answer(app.interaction, 1, true) == 0)
        #expect(app.run { server.sync { $0.driver.awaitingAnswerCount == 0 } })
        Self.pressFurther(server)
        #expect(app.run { app.calls.contains("1: preview") })
        #expect(preview_interaction_client_interaction_play_haptic(app.interaction, 1, tick) == 0)
        #expect(app.run { server.sync { $0.played } == [.tick] }, "the effect reached the compositor's handler")

        // The user turns haptics off: told to the running press.
        server.sync { $0.driver.configure(EngineConfiguration(), haptics: .off) }
        #expect(app.run { app.calls.last == "1: haptics false" }, "\(app.calls)")
        var available = true
        #expect(preview_interaction_client_interaction_haptics_available(app.interaction, 1, &available) == 0)
        #expect(!available)

        server.sync { $0.lift() }
        #expect(app.run { app.calls.last == "1: cancelled lifted" }, "\(app.calls)")
        let ended = PREVIEW_INTERACTION_CLIENT_ERROR_PRESS_ENDED.rawValue
        #expect(preview_interaction_client_interaction_play_haptic(app.interaction, 1, tick) == ended)
        wl_display_roundtrip(app.display)
        #expect(server.sync { $0.played } == [.tick])
        app.close(server)
    }

    @Test func aSwiftAppsHapticEffectReachesTheCompositorDuringThePress() throws {
        let server = try DriverServer(haptics: .strong)
        server.sync { $0.hapticDevices = [DriverServer.Host.pen.device] }
        let app = try SwiftApp(server: server)
        app.commit()
        #expect(Self.pressUntilAsked(server, run: app.run, asked: { app.delegate.calls.first == "1: shouldBegin" }))
        #expect(app.delegate.pressesSeen.first?.hapticsAvailable == true)
        Self.pressFurther(server)
        #expect(app.run { app.delegate.calls.contains { $0.hasPrefix("1: preview 0.") } })
        try app.interaction.playHaptic(.confirm, press: 1)
        #expect(app.run { server.sync { $0.played } == [.confirm] })
        server.sync { $0.lift() }
        #expect(app.run { app.delegate.calls.last == "1: cancel lifted" }, "\(app.delegate.calls)")
        #expect(throws: PreviewHapticError.pressEnded) { try app.interaction.playHaptic(.tick, press: 1) }
        #expect(throws: PreviewHapticError.unknownPress) { try app.interaction.playHaptic(.tick, press: 7) }
        app.close(server)
    }
}
