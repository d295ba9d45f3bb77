import Testing

/// `--map-timeout MS`: how long `--replay` waits for a client to map a window before it starts.
@Suite struct MapTimeoutOptionTests {
    static let recording = ReplayRunTests.recordings + "/wacom-cintiq13hd-pen.yml"

    func compositor(_ arguments: [String]) throws -> ClientRun {
        let process = try ClientProcess(
            [ReplayRunTests.binaries + "/preview-compositor", "--socket", TestRuntime.uniqueSocket()] + arguments,
            socket: "", environment: [:])
        return process.finish(timeout: 60)
    }

    @Test(arguments: ["0", "600001", "later"])
    func outOfRangeIsAUsageErrorThatSaysTheRange(_ value: String) throws {
        let run = try compositor(["--replay", Self.recording, "--map-timeout", value])
        #expect(run.status == 64, "\(run.output)")
        #expect(run.output.contains("--map-timeout must be within 1...600000"), "\(run.output)")
    }

    @Test func withoutAClientTheReplayStartsAfterTheTimeout() throws {
        let run = try compositor(["--replay", Self.recording, "--map-timeout", "50", "--exit-when-done"])
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
        #expect(run.output.contains("no client mapped a window within 50 ms"), "\(run.output)")
    }
}
