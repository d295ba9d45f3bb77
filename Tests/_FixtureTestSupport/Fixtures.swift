/// The checked-in recordings (Sources/BundledRecordings/recordings, with their MIT notice, also
/// reachable as Tests/Fixtures/recordings), for every test target.
public enum Fixtures {
    public static let directory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Sources/BundledRecordings/recordings"
    }()

    public static func path(_ name: String) -> String { directory + "/" + name }

    public static let pens = [
        "dell-canvas-isdv4-pen.yml", "uclogic-wp5540u-pen.yml", "wacom-cintiq12wx-pen.yml", "wacom-cintiq13hd-pen.yml",
        "wacom-dth2242-pen.yml",
    ]
    public static let touchpads = [
        "apple-bcm5974-pressurepad.yml", "apple-bcm5974-touchpad.yml", "cypress-trackpad.yml", "elantech-touchpad.yml",
    ]
    public static let all = (pens + touchpads).sorted()
    /// Fixtures whose device reports FF_HAPTIC (a compositor plays their clicks).
    public static let hapticPads = ["apple-bcm5974-pressurepad.yml"]
}
