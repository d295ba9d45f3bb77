import Foundation
import SystemLayer

extension LookUpTests {
    /// A private session bus for one test whose accessibility bus and registry are running and
    /// answering before anything is started on it. The session bus starts org.a11y.Bus
    /// (at-spi-bus-launcher) as it does for any app: asked here for the accessibility bus's
    /// address, which starts that bus, then the registry is asked for its children, which starts
    /// it; each step waits for its reply (bounded), so an app, the compositor or preview-lookup
    /// finds both there at once.
    ///
    /// Each bus has a runtime directory of its own, where at-spi-bus-launcher puts the
    /// accessibility bus's socket (`at-spi/bus`): buses sharing one (tests running side by side)
    /// replace each other's socket, and an app then reaches another test's accessibility bus,
    /// which refuses it (the GUID in the address is not its own: "Couldn't register with
    /// accessibility bus"), or none once that test ends.
    ///
    /// Everything the bus starts (the launcher, the accessibility bus, the registry, any other
    /// service) is in the bus's process group, ended with it: one teardown, `end`.
    final class SessionBus {
        let address: String
        /// What org.a11y.Bus.GetAddress answers.
        let accessibilityAddress: String
        private let daemon: ChildProcess
        private let directory: String

        /// How long each step may take to answer on a loaded machine.
        static let replySeconds = 30

        init() throws {
            let directory = NSTemporaryDirectory() + "preview-bus-\(getpid())-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            chmod(directory, 0o700)
            let daemon: ChildProcess
            do {
                daemon = try ChildProcess(
                    ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                    environment: ["XDG_RUNTIME_DIR": directory], unsetting: ["DISPLAY"], output: .pipe,
                    errors: .discard, ownProcessGroup: true)
            } catch {
                try? FileManager.default.removeItem(atPath: directory)
                throw error
            }
            do {
                guard daemon.waitForOutput(containing: "\n", timeout: Double(Self.replySeconds)) else {
                    throw LookUpTestError("the session bus (dbus-daemon) gave no address")
                }
                let address = daemon.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
                let accessibility = try Self.call(
                    address, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress",
                    what: "the accessibility bus did not come up (org.a11y.Bus.GetAddress on the session bus)")
                guard let accessibilityAddress = Self.string(in: accessibility) else {
                    throw LookUpTestError("org.a11y.Bus.GetAddress answered no address: \(accessibility)")
                }
                try Self.askRegistry(accessibilityAddress)
                (self.address, self.accessibilityAddress) = (address, accessibilityAddress)
            } catch {
                Self.end(daemon, directory)
                throw error
            }
            (self.daemon, self.directory) = (daemon, directory)
        }

        deinit { Self.end(daemon, directory) }

        /// Asks the registry on the accessibility bus at `address` for its children (the bus
        /// starts it if it is not running), on a connection of its own; throws when it does not
        /// answer.
        static func askRegistry(_ address: String) throws {
            _ = try call(
                address, "org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
                "org.a11y.atspi.Accessible.GetChildren", what: "the accessibility registry did not answer on \(address)"
            )
        }

        /// SIGKILL to the bus's process group (every service it started), the bus reaped, its
        /// runtime directory removed.
        private static func end(_ daemon: ChildProcess, _ directory: String) {
            daemon.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// `method` (no arguments) of `path` at `destination` on the bus at `address`, started by
        /// the bus if it is not running; its reply as gdbus prints it.
        private static func call(
            _ address: String, _ destination: String, _ path: String, _ method: String, what: String
        ) throws -> String {
            let result = try ChildProcess.run(
                [
                    "gdbus", "call", "--address", address, "--dest", destination, "--object-path", path, "--method",
                    method, "--timeout", String(replySeconds),
                ], timeout: Double(replySeconds + 10))
            guard result.status == 0 else {
                let reason = result.timedOut ? "no reply in \(replySeconds) s" : result.errors
                throw LookUpTestError("\(what): \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            return result.output
        }

        /// The one string of a reply gdbus printed as `('…',)`.
        private static func string(in reply: String) -> String? {
            let text = reply.trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.hasPrefix("('"), text.hasSuffix("',)") else { return nil }
            let value = String(text.dropFirst(2).dropLast(3))
            return value.isEmpty || value.contains("'") ? nil : value
        }
    }
}
