import CWaylandServer
import SystemLayer
import WaylandServer

/// wl_data_device_manager: the clipboard (selections between clients). Drag and drop is not
/// offered: `start_drag` cancels its source at once (docs/compositor.md).
final class DataDeviceManagerResource: ResourceObject {
    weak var clipboard: Clipboard?

    init?(clipboard: Clipboard, client: Client, version: UInt32, id: UInt32) {
        self.clipboard = clipboard
        super.init(
            client: client, interface: cwl_interface_wl_data_device_manager(), version: version, id: id,
            implementation: DataDeviceManagerResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_data_device_manager_impl()
        impl.create_data_source = { _, resource, id in
            guard let manager = resolve(resource, as: DataDeviceManagerResource.self) else { return }
            _ = DataSourceResource(client: manager.client, version: manager.version, id: id)
        }
        impl.get_data_device = { _, resource, id, _ in
            guard let manager = resolve(resource, as: DataDeviceManagerResource.self),
                let clipboard = manager.clipboard,
                let device = DataDeviceResource(
                    clipboard: clipboard, client: manager.client, version: manager.version, id: id)
            else { return }
            clipboard.deviceCreated(device)
        }
        return makeImplementation(impl)
    }()
}

/// The one seat's selection: which data source holds it, and the offers made of it to the
/// client with the keyboard focus (sent again whenever the focus moves to another client).
final class Clipboard {
    private(set) weak var selection: DataSourceResource?
    private var devices: [Weak<DataDeviceResource>] = []
    /// The client the selection was last offered to.
    private var focusedClient: Client?

    func deviceCreated(_ device: DataDeviceResource) {
        devices.removeAll { $0.value?.isAlive != true }
        devices.append(Weak(device))
        if device.client == focusedClient { offer(to: device) }
    }

    /// wl_data_device.set_selection (nil clears it): the old source is cancelled.
    func setSelection(_ source: DataSourceResource?) {
        guard source !== selection else { return }
        let old = selection
        selection = source
        source?.becameSelection { [weak self, weak source] in
            guard let self, let source, selection === source else { return }
            selection = nil
            offerToFocus()
        }
        old?.cancel()
        offerToFocus()
    }

    /// The keyboard focus moved: its client gets the selection (a client without focus has none).
    func focusChanged(to client: Client?) {
        guard client != focusedClient else { return }
        focusedClient = client
        offerToFocus()
    }

    private func offerToFocus() {
        guard let focusedClient else { return }
        devices.removeAll { $0.value?.isAlive != true }
        for device in devices.compactMap(\.value) where device.client == focusedClient { offer(to: device) }
    }

    /// A fresh wl_data_offer (server-created) with the source's mime types, then `selection`.
    private func offer(to device: DataDeviceResource) {
        guard let deviceResource = device.resource else { return }
        guard let source = selection, source.isAlive,
            let offer = DataOfferResource(
                clipboard: self, source: source, client: device.client, version: device.version),
            let offerResource = offer.resource
        else {
            wl_data_device_send_selection(deviceResource, nil)
            return
        }
        wl_data_device_send_data_offer(deviceResource, offerResource)
        for mimeType in source.mimeTypes { wl_data_offer_send_offer(offerResource, mimeType) }
        wl_data_device_send_selection(deviceResource, offerResource)
    }
}

/// wl_data_device: set_selection; drag and drop is refused (the drag's source is cancelled).
final class DataDeviceResource: ResourceObject {
    weak var clipboard: Clipboard?

    init?(clipboard: Clipboard, client: Client, version: UInt32, id: UInt32) {
        self.clipboard = clipboard
        super.init(
            client: client, interface: cwl_interface_wl_data_device(), version: version, id: id,
            implementation: DataDeviceResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_data_device_impl()
        impl.start_drag = { _, _, source, _, _, _ in
            // No drag and drop: the client learns at once that this drag is over.
            resolve(source, as: DataSourceResource.self)?.cancel()
        }
        impl.set_selection = { _, resource, source, _ in
            guard let device = resolve(resource, as: DataDeviceResource.self) else { return }
            let dataSource = resolve(source, as: DataSourceResource.self)
            if let dataSource, dataSource.client != device.client {
                return device.postError(WL_DATA_DEVICE_ERROR_ROLE.rawValue, "a data source of another client")
            }
            device.clipboard?.setSelection(dataSource)
        }
        impl.release = destroyResourceRequest
        return makeImplementation(impl)
    }()
}

/// wl_data_source: the mime types a client offers, and where `receive` requests are passed.
final class DataSourceResource: ResourceObject {
    private(set) var mimeTypes: [String] = []
    private var cancelled = false
    private var onDestroy: (() -> Void)?

    /// A client may offer any number of types; a copy of a few dozen is what real apps send.
    static let mimeTypeLimit = 256

    init?(client: Client, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: cwl_interface_wl_data_source(), version: version, id: id,
            implementation: DataSourceResource.implementation)
    }

    override func resourceDestroyed() { onDestroy?() }

    func becameSelection(destroyed: @escaping () -> Void) { onDestroy = destroyed }

    /// wl_data_source.cancelled: replaced as the selection, or a drag refused.
    func cancel() {
        guard !cancelled, let resource else { return }
        cancelled = true
        onDestroy = nil
        wl_data_source_send_cancelled(resource)
    }

    /// Hands the write end of a pipe to the source's client (wl_data_source.send); our copy closes.
    func send(mimeType: String, fd: Int32) {
        let owned = Descriptor(adopting: fd)
        if let resource, !cancelled { wl_data_source_send_send(resource, mimeType, owned.rawValue) }
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_data_source_impl()
        impl.offer = { _, resource, mimeType in
            guard let source = resolve(resource, as: DataSourceResource.self), let mimeType else { return }
            guard source.mimeTypes.count < mimeTypeLimit else {
                return source.client.postImplementationError("more than \(mimeTypeLimit) mime types on one data source")
            }
            let type = String(cString: mimeType)
            if !source.mimeTypes.contains(type) { source.mimeTypes.append(type) }
        }
        impl.destroy = destroyResourceRequest
        impl.set_actions = { _, _, _ in }  // drag-and-drop actions: no drag and drop here
        return makeImplementation(impl)
    }()
}

/// wl_data_offer: one client's view of the selection; `receive` reaches the source while it
/// is still the selection, and otherwise just closes the pipe (the reader sees end of file).
final class DataOfferResource: ResourceObject {
    weak var clipboard: Clipboard?
    weak var source: DataSourceResource?

    init?(clipboard: Clipboard, source: DataSourceResource, client: Client, version: UInt32) {
        self.clipboard = clipboard
        self.source = source
        super.init(
            client: client, interface: cwl_interface_wl_data_offer(), version: version, id: 0,
            implementation: DataOfferResource.implementation)
    }

    nonisolated(unsafe) static let implementation: UnsafeRawPointer = {
        var impl = cwl_wl_data_offer_impl()
        impl.accept = { _, _, _, _ in }  // drag and drop only
        impl.receive = { _, resource, mimeType, fd in
            guard let offer = resolve(resource, as: DataOfferResource.self), let mimeType,
                let source = offer.source, offer.clipboard?.selection === source
            else {
                _ = Descriptor(adopting: fd)  // closed: the reader sees end of file
                return
            }
            source.send(mimeType: String(cString: mimeType), fd: fd)
        }
        impl.destroy = destroyResourceRequest
        impl.finish = { _, resource in
            resolve(resource, as: DataOfferResource.self)?.postError(
                WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish on a selection offer (no drag and drop here)")
        }
        impl.set_actions = { _, _, _, _ in }
        return makeImplementation(impl)
    }()
}
