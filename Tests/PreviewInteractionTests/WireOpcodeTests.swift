import CWaylandClient
import PreviewClientWire
import Testing

/// The library's dispatcher reads events by opcode: its table must be the XML's order, which the
/// generated interface holds.
@Suite struct WireOpcodeTests {
    @Test func theDispatchersOpcodesAreTheInterfacesEvents() throws {
        let interface = cwl_interface_spi_preview_interaction_v1().pointee
        let names = (0..<Int(interface.event_count)).map { String(cString: interface.events[$0].name) }
        let expected: [InteractionEventOpcode: String] = [
            .shouldBegin: "should_begin", .location: "location", .preview: "preview", .previewEnded: "preview_ended",
            .commit: "commit", .completed: "completed", .cancelled: "cancelled", .frame: "frame",
            .behaviour: "behaviour", .stage: "stage", .haptics: "haptics",
        ]
        #expect(names.count == InteractionEventOpcode.allCases.count, "\(names)")
        for opcode in InteractionEventOpcode.allCases {
            #expect(names[Int(opcode.rawValue)] == expected[opcode], "\(opcode)")
        }
    }
}
