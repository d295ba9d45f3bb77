import PreviewEngine

extension InteractionDriver {
    /// Whether a client declared a preview area for `source` at `point` (local to `surface`): a
    /// host's own feature for the presses no client takes (Look Up) asks before it acts.
    public func declaresPreview(on surface: SurfaceID, at point: Point, source: InputSource) -> Bool {
        server.allowsInteraction(on: surface, at: point, source: source)
    }
}
