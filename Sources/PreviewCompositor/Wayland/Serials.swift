import WaylandServer

/// The display's event serials: all most concerns need of the display.
struct Serials {
    private let display: Display

    init(_ display: Display) { self.display = display }

    func next() -> UInt32 { display.nextSerial() }
}
