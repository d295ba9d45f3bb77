// `peek-client`: the sample client of the preview-interaction protocol (README.md next to this).
PeekClientCommand.main()
