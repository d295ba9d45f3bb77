import ReplayTool

PreviewReplayCommand.main()
