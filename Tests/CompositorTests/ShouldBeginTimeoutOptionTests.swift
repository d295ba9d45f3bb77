import Testing

/// `--should-begin-timeout MS`: the user's setting for how long a client may take to answer.
@Suite struct ShouldBeginTimeoutOptionTests {
    func compositor(_ arguments: [String]) throws -> ClientRun {
        let process = try ClientProcess(
            [
                ReplayRunTests.binaries + "/preview-compositor", "--backend", "headless", "--socket",
                TestRuntime.uniqueSocket(),
            ] + arguments,
            socket: "", environment: [:])
        return process.finish(timeout: 60)
    }

    @Test(arguments: ["0", "10001", "-5", "soon"])
    func outOfRangeIsAUsageErrorThatSaysTheRange(_ value: String) throws {
        let run = try compositor(["--should-begin-timeout", value])
        #expect(run.status == 64, "\(run.output)")
        #expect(run.output.contains("should-begin-timeout"), "\(run.output)")
    }

    @Test func aValueInRangeStarts() throws {
        let run = try compositor(["--should-begin-timeout", "2000", "--exit-when-done", "--run", "true"])
        #expect(run.status == 0 && !run.timedOut, "\(run.output)")
    }
}
