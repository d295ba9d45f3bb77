@_exported import PreviewClientCore
