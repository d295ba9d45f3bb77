import PreviewEngine

extension InteractionDriver {
    /// Whether a client declared a preview area for `source` at `point` (local to `surface`): a
    /// host's own feature for the presses no client takes (Look Up) asks before it acts.
    public func declaresPreview(on surface: SurfaceID, at point: Point, source: InputSource) -> Bool {
        server.allowsInteraction(on: surface, at: point, source: source)
    }

    /// Whether the preview key on `surface` (of `surfaceSize`) is its client's (an interaction
    /// object that takes the keyboard at its focus point): otherwise Look Up may take it.
    public func declaresKeyboardPreview(on surface: SurfaceID, surfaceSize: Point) -> Bool {
        guard let point = server.keyboardPoint(on: surface, surfaceSize: surfaceSize) else { return false }
        return server.allowsInteraction(on: surface, at: point, source: .keyboard)
            && server.behaviour(on: surface, at: point) != .generic
    }
}
