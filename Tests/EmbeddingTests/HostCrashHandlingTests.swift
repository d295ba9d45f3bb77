import Testing

/// Both libraries in a C host's process (Tests/capi/host-signals.c): the host's SIGSEGV handler
/// from before loading, the default action of the other fatal signals and the thread's alternate
/// stack are unchanged after dlopen and the first calls; a handler installed afterwards runs; a
/// crash with the default action dies of its signal with nothing printed. Against this build's
/// libraries, whose Swift runtime is the toolchain's shared one; scripts/check-packages runs the
/// same program against the installed self-contained libraries.
@Suite struct HostCrashHandlingTests {
    @Test("Loading the libraries leaves a C host's signal handlers and crashes as they were")
    func hostSignalsUnchanged() throws {
        let log = Paths.scratch("signals") + "/make.log"
        let run = try make("Tests/capi", ["signals"], log: log)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("host-signals: the host's crash handling is unchanged"), "\(run.output)")
        #expect(!run.output.contains("Program crashed"), "\(run.output)")
    }
}
