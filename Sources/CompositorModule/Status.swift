/// The C API's status codes (enum preview_interaction_status; the C test checks each one).
enum Status: Int32, Error {
    case ok = 0
    case invalidArgument = -1
    case invalidContext = -2
    case unknownDevice = -3
    case unknownContact = -4
    case contactExists = -5
    case notASurface = -6
    case wrongThread = -7
    case wayland = -8
    case limit = -9
    case unsupported = -10
    case displayInUse = -11
}
