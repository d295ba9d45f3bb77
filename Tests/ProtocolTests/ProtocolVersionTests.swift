import CWaylandClient
import Foundation
import FoundationXML
import PreviewEngine
import PreviewProtocolServer
import Testing
import _PreviewProtocolTestSupport

/// Versions 2 and 3 of the XML follow wayland-protocols' rules for a version bump (version 3
/// adds no message: the acknowledgement window is a rule of its objects), and a version 1
/// client works unchanged against the server, which advertises version 3.
@Suite struct ProtocolVersionTests {
    /// Version 1 as it was released: messages in wire order (their opcodes), enum entries with values.
    static let version1Requests = [
        "spi_preview_interaction_manager_v1": ["destroy", "get_interaction"],
        "spi_preview_interaction_v1": [
            "destroy", "set_region", "set_sources", "accept", "decline", "cancel", "ack_frame",
        ],
    ]
    static let version1Events = [
        "spi_preview_interaction_manager_v1": [String](),
        "spi_preview_interaction_v1": [
            "should_begin", "location", "preview", "preview_ended", "commit", "completed", "cancelled", "frame",
        ],
    ]
    static let version1Entries: [String: [String: String]] = [
        "spi_preview_interaction_manager_v1.error": ["interaction_exists": "0"],
        "spi_preview_interaction_v1.error": [
            "inert": "0", "invalid_interaction": "1", "already_answered": "2", "invalid_sources": "3",
            "invalid_frame": "4",
        ],
        "spi_preview_interaction_v1.source": ["pen": "1", "touchpad": "2", "touchscreen": "3", "pointer": "4"],
        "spi_preview_interaction_v1.sources": ["pen": "1", "touchpad": "2", "touchscreen": "4", "pointer": "8"],
        "spi_preview_interaction_v1.force": ["measured": "1", "simulated": "2"],
        "spi_preview_interaction_v1.cancel_reason": [
            "lifted": "1", "client_cancelled": "2", "declined": "3", "timeout": "4", "device_removed": "5",
            "surface_gone": "6", "desynchronised": "7", "moved": "8", "system": "9",
        ],
    ]

    @Test func versionTwoOfTheXMLKeepsVersionOneAndDocumentsEverythingNew() throws {
        let xml = try ProtocolXML.parse()
        for interface in xml.interfaces {
            #expect(interface.version == "3", "\(interface.name) is at version \(interface.version)")
            #expect(interface.documented, "\(interface.name) has no description")
            let requests = interface.messages.filter { $0.kind == "request" }
            let events = interface.messages.filter { $0.kind == "event" }
            // Opcodes: version 1's messages first, in their order; every later one since 2.
            let oldRequests = Self.version1Requests[interface.name] ?? []
            let oldEvents = Self.version1Events[interface.name] ?? []
            #expect(requests.prefix(oldRequests.count).map(\.name) == oldRequests, "\(interface.name) requests moved")
            #expect(events.prefix(oldEvents.count).map(\.name) == oldEvents, "\(interface.name) events moved")
            for (index, message) in requests.enumerated() {
                #expect(message.since == (index < oldRequests.count ? nil : "2"), "\(interface.name).\(message.name)")
            }
            for (index, message) in events.enumerated() {
                #expect(message.since == (index < oldEvents.count ? nil : "2"), "\(interface.name).\(message.name)")
            }
            for message in interface.messages {
                #expect(message.documented, "\(interface.name).\(message.name) has no description")
                for arg in message.args { #expect(arg.documented, "\(interface.name).\(message.name): \(arg.name)") }
            }
            for enumeration in interface.enums {
                let key = "\(interface.name).\(enumeration.name)"
                let old = Self.version1Entries[key]
                #expect(enumeration.documented, "\(key) has no description")
                #expect(enumeration.since == (old == nil ? "2" : nil), "\(key) since \(enumeration.since ?? "1")")
                for entry in enumeration.entries {
                    #expect(entry.documented, "\(key).\(entry.name) has no summary")
                    if let value = old?[entry.name] {
                        #expect(entry.value == value && entry.since == nil, "\(key).\(entry.name) changed")
                    } else if old != nil {
                        // A new entry of an old enum; a new enum's since covers its entries.
                        #expect(entry.since == "2", "\(key).\(entry.name) is new and must say since=\"2\"")
                    }
                }
                if let old {
                    #expect(Set(old.keys).isSubset(of: enumeration.entries.map(\.name)), "\(key) lost an entry")
                }
            }
        }
        #expect(xml.interfaces.map(\.name).sorted() == Self.version1Requests.keys.sorted())
    }

    @Test func theServerAdvertisesVersionThreeAndRefusesMore() throws {
        #expect(cwl_interface_spi_preview_interaction_manager_v1().pointee.version == 3)
        #expect(cwl_interface_spi_preview_interaction_v1().pointee.version == 3)
        #expect(PreviewInteractionServer.version == 3)
        let harness = try ProtocolHarness()
        let connection = try Connection(to: harness.display)
        #expect(connection.bind(cwl_interface_spi_preview_interaction_manager_v1(), version: 4) != nil)
        #expect(!connection.roundtrip(), "binding beyond the advertised version is refused")
        #expect(connection.protocolError?.code == 0, "invalid_object")
    }

    @Test func aVersionOneClientRunsAWholeInteractionAndSeesNoNewReason() throws {
        let harness = try ProtocolHarness()
        let client = try PreviewClient(harness)
        #expect(wl_proxy_get_version(client.manager) == 1)
        let interaction = client.interaction(for: client.surface())
        client.roundtrip()
        harness.server.perform(.askShouldBegin(.test(1)))
        client.roundtrip()
        interaction.accept(1)
        client.roundtrip()
        harness.server.perform(.phase(.previewProgress, .test(1, progress: 0.5)))
        client.roundtrip()
        harness.server.perform(.phase(.previewEnded, .test(1, progress: 1)))
        client.roundtrip()
        harness.server.perform(.phase(.completed, .test(1, progress: 1)))
        client.roundtrip()
        #expect(
            interaction.phaseEvents.filter { if case .location = $0 { false } else { true } } == [
                .shouldBegin(1, source: 3, force: 1), .preview(1, 0.5), .previewEnded(1), .completed(1),
            ])

        // Escape's reason is version 2's: a version 1 object hears `system`.
        interaction.clear()
        harness.server.perform(.askShouldBegin(.test(2)))
        client.roundtrip()
        harness.server.perform(.phase(.cancelled(.dismissed), .test(2)))
        client.roundtrip()
        #expect(
            interaction.phaseEvents.last
                == .cancelled(2, reason: SPI_PREVIEW_INTERACTION_V1_CANCEL_REASON_SYSTEM.rawValue))
    }

    @Test func aVersionTwoRequestOnAVersionOneObjectIsAnErrorLibwaylandRaises() throws {
        let harness = try ProtocolHarness()
        let offender = try PreviewClient(harness)
        let bystander = try PreviewClient(harness)
        let interaction = offender.interaction(for: offender.surface())
        let other = bystander.interaction(for: bystander.surface())
        offender.roundtrip()
        // A version 1 object: libwayland stops the request before dispatch.
        spi_preview_interaction_v1_set_focus_point(interaction.proxy, wl_fixed_from_int(1), wl_fixed_from_int(2))
        #expect(!offender.roundtrip())
        // wl_display's invalid_method ("invalid method 7 (since 1 < 2)"), which the client reports as EINVAL.
        #expect(wl_display_get_error(offender.connection.display) == EINVAL)
        other.setSources(1)
        #expect(bystander.roundtrip(), "only the offender is disconnected")
    }
}

/// The protocol XML, read with Foundation's parser: what the rules above look at.
struct ProtocolXML {
    struct Arg { var name: String, documented: Bool }
    struct Message {
        var kind: String, name: String, since: String?, documented = false, args: [Arg] = []
    }
    struct Entry { var name: String, value: String, since: String?, documented: Bool }
    struct Enumeration { var name: String, since: String?, documented = false, entries: [Entry] = [] }
    struct Interface {
        var name: String, version: String, documented = false
        var messages: [Message] = []
        var enums: [Enumeration] = []
    }

    var interfaces: [Interface] = []

    static func parse() throws -> ProtocolXML {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let parser = try #require(
            XMLParser(contentsOf: root.appendingPathComponent("protocol/preview-interaction-v1.xml")))
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "the XML parses")
        return reader.xml
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var xml = ProtocolXML()
        private var path: [String] = []
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let parent = path.last
            path.append(element)
            text = ""
            let name = attributes["name"] ?? ""
            let summary = !(attributes["summary"] ?? "").isEmpty
            switch element {
            case "interface": xml.interfaces.append(Interface(name: name, version: attributes["version"] ?? ""))
            case "request", "event":
                xml.interfaces[xml.interfaces.count - 1].messages.append(
                    Message(kind: element, name: name, since: attributes["since"]))
            case "enum":
                xml.interfaces[xml.interfaces.count - 1].enums.append(
                    Enumeration(name: name, since: attributes["since"]))
            case "entry":
                let entry = Entry(
                    name: name, value: attributes["value"] ?? "", since: attributes["since"], documented: summary)
                xml.interfaces[xml.interfaces.count - 1].enums[lastEnum].entries.append(entry)
            case "arg":
                xml.interfaces[xml.interfaces.count - 1].messages[lastMessage].args.append(
                    Arg(name: name, documented: summary))
            case "description" where summary:
                switch parent {
                case "interface"?: xml.interfaces[xml.interfaces.count - 1].documented = true
                case "request"?, "event"?:
                    xml.interfaces[xml.interfaces.count - 1].messages[lastMessage].documented = true
                case "enum"?: xml.interfaces[xml.interfaces.count - 1].enums[lastEnum].documented = true
                case "entry"?:
                    let count = xml.interfaces[xml.interfaces.count - 1].enums[lastEnum].entries.count
                    xml.interfaces[xml.interfaces.count - 1].enums[lastEnum].entries[count - 1].documented = true
                default: break
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            path.removeLast()
            // A description must say something beyond its summary, except an entry's.
            if element == "description", path.last != "entry",
                text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            {
                switch path.last {
                case "request"?, "event"?:
                    xml.interfaces[xml.interfaces.count - 1].messages[lastMessage].documented = false
                case "enum"?: xml.interfaces[xml.interfaces.count - 1].enums[lastEnum].documented = false
                default: break
                }
            }
        }

        private var lastMessage: Int { xml.interfaces[xml.interfaces.count - 1].messages.count - 1 }
        private var lastEnum: Int { xml.interfaces[xml.interfaces.count - 1].enums.count - 1 }
    }
}
