import Glibc
import Testing

@testable import SystemLayer

/// The one child-process helper every test and tool uses: what the child gets, what the parent
/// collects, and the waits (on the child's exit, never on time).
@Suite struct ChildProcessTests {
    @Test func collectsBothStreamsAndTheStatus() throws {
        let run = try ChildProcess.run(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(run.output == "out\n")
        #expect(run.errors == "err\n")
        #expect(run.status == 3 && run.termination == .exited(3) && !run.timedOut)
    }

    @Test func standardErrorFollowsStandardOutputWhenNotRouted() throws {
        let run = try ChildProcess.run(["/bin/sh", "-c", "echo out; echo err >&2"], errors: nil)
        #expect(run.output == "out\nerr\n")
    }

    @Test func aLargeOutputDoesNotBlockTheChild() throws {
        // Far more than a pipe holds: the wait must read while the child writes.
        let run = try ChildProcess.run(["/bin/sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x"], timeout: 60)
        #expect(run.status == 0 && run.output.utf8.count == 1_000_000)
    }

    @Test func writesTheInputThenEndOfFile() throws {
        let text = String(repeating: "line\n", count: 50_000)
        let run = try ChildProcess.run(["/bin/cat"], input: .bytes(Array(text.utf8)), timeout: 60)
        #expect(run.status == 0 && run.output == text)
    }

    @Test func aChildThatStopsReadingIsNotASignalToUs() throws {
        let run = try ChildProcess.run(
            ["/bin/sh", "-c", "exec 0<&-; exit 0"], input: .bytes([UInt8](repeating: 65, count: 4_000_000)))
        #expect(run.status == 0)
    }

    @Test func environmentAndDirectory() throws {
        let run = try ChildProcess.run(
            ["/bin/sh", "-c", "echo \"$A|${HOME-unset}|$(pwd)\""], environment: ["A": "set"], unsetting: ["HOME"],
            directory: "/tmp")
        #expect(run.output == "set|unset|/tmp\n")
        let only = try ChildProcess.run(["/usr/bin/env"], environment: ["ONLY": "1"], inheritingEnvironment: false)
        #expect(only.output == "ONLY=1\n")
    }

    @Test func aNameIsLookedUpInPath() throws {
        #expect(try ChildProcess.run(["true"]).status == 0)
    }

    @Test func aMissingExecutableIsAnError() {
        #expect(throws: ChildProcess.SpawnError.self) { try ChildProcess(["/nonexistent/tool"]) }
    }

    @Test func noArgumentsIsAnErrorNotATrap() {
        #expect(throws: ChildProcess.SpawnError.self) { try ChildProcess([]) }
    }

    @Test func theChildGetsOnlyItsStandardDescriptorsAndThePassedOnes() throws {
        // A descriptor without close-on-exec in the parent stays out of the child.
        var leaky: [Int32] = [-1, -1]
        try #require(pipe(&leaky) == 0)
        defer { for fd in leaky { close(fd) } }
        let run = try ChildProcess.run(["/bin/sh", "-c", "ls /proc/$$/fd"], passing: [leaky[0]])
        #expect(run.output.split(separator: "\n").sorted() == ["0", "1", "2", "3"], "\(run.output)")
    }

    @Test func theDeadlineStopsTheChild() throws {
        let child = try ChildProcess(["/bin/sleep", "60"])
        #expect(child.isRunning)
        #expect(child.wait(timeout: 0.1) == nil)
        #expect(child.termination == .signalled(SIGTERM))
        #expect(!child.isRunning)
    }

    @Test func aChildIgnoringSIGTERMIsKilledAfterTheGrace() throws {
        let child = try ChildProcess(["/bin/sh", "-c", "trap '' TERM; echo ready; while :; do :; done"], output: .pipe)
        #expect(child.waitForOutput(containing: "ready\n", timeout: 20))
        #expect(child.wait(timeout: 0, grace: 0.1) == nil)
        #expect(child.termination == .signalled(SIGKILL))
    }

    @Test func waitsForOutputOrTheExit() throws {
        let child = try ChildProcess(["/bin/sh", "-c", "echo first; echo second"], output: .pipe)
        #expect(child.waitForOutput(containing: "second\n", timeout: 20))
        #expect(!child.waitForOutput(containing: "third", timeout: 20))  // the exit ends the wait
        #expect(child.wait() == .exited(0))
        #expect(child.standardOutput == "first\nsecond\n")
    }

    /// Where the kernel has no pidfd (valgrind 3.19, Linux before 5.3) the exit is a pipe's
    /// hang-up: the child gets one more descriptor, after the passed ones, and nothing else changes.
    @Test func withoutAPidfdTheExitIsAPipesHangUp() throws {
        let child = try ChildProcess(
            ["/bin/sh", "-c", "ls /proc/$$/fd; read line; exit 7"], environment: [:], unsetting: [],
            inheritingEnvironment: true, directory: nil, passing: [], input: .bytes(Array("go\n".utf8)),
            output: .pipe, errors: nil, ownProcessGroup: false, exitPipe: true)
        #expect(child.wait() == .exited(7))
        #expect(
            child.standardOutput.split(separator: "\n").sorted() == ["0", "1", "2", "3"], "\(child.standardOutput)")
        #expect(!child.isRunning)

        let sleeper = try ChildProcess(
            ["/bin/sleep", "60"], environment: [:], unsetting: [], inheritingEnvironment: true, directory: nil,
            passing: [], input: .discard, output: .inherit, errors: nil, ownProcessGroup: false, exitPipe: true)
        #expect(sleeper.isRunning)
        #expect(sleeper.wait(timeout: 0.1) == nil)
        #expect(sleeper.termination == .signalled(SIGTERM))
    }

    @Test func signalsReachTheChild() throws {
        let child = try ChildProcess(["/bin/sleep", "60"])
        child.signal(SIGINT)
        #expect(child.wait() == .signalled(SIGINT))
        child.signal(SIGKILL)  // after the reap: nothing is sent
    }

    @Test func inItsOwnProcessGroupASignalReachesWhatItStarted() throws {
        // The shell survives SIGUSR1 (a trap) and waits for its background child, which does not.
        // `ready` only once the child is sleep itself: forked but not yet exec'd, it would still
        // have the shell's trap and live on.
        let script = """
            trap 'echo caught' USR1; sleep 600 & pid=$!
            until [ "$(cat /proc/$pid/comm 2>/dev/null)" = sleep ]; do :; done
            echo ready; wait $pid; wait $pid; echo done
            """
        let child = try ChildProcess(["/bin/sh", "-c", script], output: .pipe, ownProcessGroup: true)
        #expect(child.waitForOutput(containing: "ready\n", timeout: 20))
        #expect(getpgid(child.pid) == child.pid)
        child.signal(SIGUSR1)
        #expect(child.wait(timeout: 20) == 0, "the background child lives on")
        #expect(child.standardOutput.hasSuffix("done\n"), "\(child.standardOutput)")
    }

    @Test func theExitDescriptorWakesAPoll() throws {
        let child = try ChildProcess(["/bin/true"])
        var entry = pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 20_000) == 1)
        #expect(child.wait(timeout: 20) == 0)
    }
}
