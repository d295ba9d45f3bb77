extension BackendRegistry {
    /// The project's backends, as the command line offers them: a new backend is its folder
    /// under Backends/Input or Backends/Output (the backend and its descriptor) and one line here.
    /// The injected input is not here: only a host's code drives it (`.injected`).
    public static let standard = BackendRegistry(
        inputs: [
            ReplayDriver.descriptor,
            LibinputSource.descriptor,
        ],
        outputs: [
            HeadlessOutput.descriptor,  // first: the default when no output says it is
            WaylandBackend.descriptor,
        ])
}
