import PreviewEngine

extension InteractionDriver {
    /// Whether the preview key on `surface` (of `surfaceSize`) is its client's (an interaction
    /// object that takes the keyboard at its focus point): otherwise Look Up may take it.
    func declaresKeyboardPreview(on surface: SurfaceID, surfaceSize: Point) -> Bool {
        guard let point = server.keyboardPoint(on: surface, surfaceSize: surfaceSize) else { return false }
        return server.allowsInteraction(on: surface, at: point, source: .keyboard)
            && server.behaviour(on: surface, at: point) != .generic
    }
}
