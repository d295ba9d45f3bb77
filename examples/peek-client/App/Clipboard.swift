import CWaylandClient
import SystemLayer

// "Copy": the item's title becomes the selection, offered as text to whoever pastes
// (wl_data_device_manager; `wl-paste` reads it).
extension PeekApp {
    static let textMimeTypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "TEXT", "STRING"]

    func copy(_ text: String) {
        guard let dataDeviceManager, let seat else {
            if log { printError("peek-client: no wl_data_device_manager: nothing copied") }
            return
        }
        if dataDevice == nil { dataDevice = wl_data_device_manager_get_data_device(dataDeviceManager, seat) }
        guard let source = wl_data_device_manager_create_data_source(dataDeviceManager) else { return }
        wl_data_source_add_listener(source, &dataSourceListener, context(self))
        for type in Self.textMimeTypes { wl_data_source_offer(source, type) }
        copiedText = text
        // The new source replaces ours: the compositor cancels the old one, which is destroyed then.
        wl_data_device_set_selection(dataDevice, source, inputSerial)
        dataSource = source
    }

    /// A paste: the text goes into the pipe, then it is closed (the reader sees the end).
    func clipboardSend(mimeType: String?, fd: Int32) {
        let pipe = Descriptor(adopting: fd)
        // A reader that went away must not kill the app: the write fails with EPIPE instead.
        CurrentProcess.ignoreBrokenPipes()
        try? pipe.write(copiedText)
    }

    func clipboardCancelled(_ source: OpaquePointer?) {
        if source == dataSource { dataSource = nil }
        wl_data_source_destroy(source)
    }
}
