import CWaylandClient
import CWaylandServer
import Testing

// The C bridge's import rule: one Swift file may import the server and the client
// module together and still use the shared and generated declarations.
@Test func serverAndClientModulesImportTogether() {
    let fixed: wl_fixed_t = cwl_fixed_from_double(0.5)
    #expect(cwl_fixed_to_double(fixed) == 0.5)
    #expect(SPI_PREVIEW_INTERACTION_V1_ERROR_INERT.rawValue == 0)
    #expect(XDG_WM_BASE_ERROR_ROLE.rawValue == 0)
    #expect(WL_SEAT_CAPABILITY_TOUCH.rawValue == 4)
    #expect(String(cString: cwl_interface_spi_preview_interaction_v1().pointee.name) == "spi_preview_interaction_v1")
    var list = wl_list()
    wl_list_init(&list)
    #expect(wl_list_empty(&list) == 1)
}
