import CClientLibrary
import PreviewClientCore

/// The C API's status codes (enum preview_interaction_client_status).
enum Status: Int32, Error {
    case ok = 0
    case invalidArgument = -1
    case invalidContext = -2
    case invalidInteraction = -3
    case unknownPress = -4
    case pressEnded = -5
    case alreadyAnswered = -6
    case wrongThread = -7
    case surfaceTaken = -8
    case wayland = -9
    case disconnected = -10
    case limit = -11
    case busy = -12
    case unsupported = -13
    case notRunning = -14

    init(_ refusal: CoreRefusal) {
        switch refusal {
        case .unknownPress: self = .unknownPress
        case .pressEnded: self = .pressEnded
        case .alreadyAnswered: self = .alreadyAnswered
        case .notRunning: self = .notRunning
        }
    }

    var text: String { String(cString: preview_interaction_client_status_string(rawValue)) }
}
