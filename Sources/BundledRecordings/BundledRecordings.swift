import Foundation

/// The recordings in `recordings/` (real devices, MIT, with their NOTICE.md), shipped as the
/// package's resources so the demo finds them wherever it runs: SwiftPM copies them beside the
/// executables (`swift-preview-interaction_BundledRecordings.resources`). They are also the
/// tests' fixtures (`Tests/Fixtures/recordings` links here).
public enum BundledRecordings {
    static let bundleName = "swift-preview-interaction_BundledRecordings.resources"

    /// The folder of the recordings beside the running executable; nil when the executable was
    /// copied without its resources. (`Bundle.module` is only asked once the bundle is known to
    /// be there: elsewhere it would stop the process.)
    public static var directory: String? {
        let beside = Bundle.main.bundleURL.appendingPathComponent(bundleName).path
        guard FileManager.default.fileExists(atPath: beside) else { return nil }
        return Bundle.module.url(forResource: "recordings", withExtension: nil)?.path
    }

    /// The path of one bundled recording, nil when it is not there.
    public static func path(_ name: String) -> String? {
        guard let directory else { return nil }
        let path = directory + "/" + name
        return FileManager.default.isReadableFile(atPath: path) ? path : nil
    }

    /// Where the executable looks, for messages.
    public static var expectedLocation: String { Bundle.main.bundleURL.appendingPathComponent(bundleName).path }
}
