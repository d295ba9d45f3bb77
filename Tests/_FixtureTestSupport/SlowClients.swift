/// The should-begin wait (ms, `--should-begin-timeout`) that test runs give real clients whose
/// outcome they check: a debug client on a loaded two-core CI machine can take longer than the
/// user default (150 ms) to answer, and the interaction would end `timeout` instead of what the
/// recording does. Replays pause while a question is open, so a prompt client costs nothing
/// more. The engine's own timeout is tested in PreviewEngineTests and with its option.
public let slowClientShouldBeginTimeout = 10_000
