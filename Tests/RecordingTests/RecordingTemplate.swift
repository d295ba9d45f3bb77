import Foundation

/// A small but complete recording in the layout of `libinput record` (with `hid`, `quirks`,
/// device `libinput` description, `libinput:` event entries and a frame split across items like
/// libinput 1.15 wrote them). Tests edit it to make every malformed case.
enum Template {
    static let text = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.25.0"
          git: "unknown"
        system:
          os: "debian:12"
          kernel: "6.1.0-18-amd64"
          dmi: "dmi:bvnLENOVO:bvrN2HET:svnLENOVO"
        devices:
        - node: /dev/input/event5
          evdev:
            # Name: Test Pen
            # ID: bus 0x3 vendor 0x56a product 0x333 version 0x110
            name: "Test \\"Pen\\""
            id: [3, 1386, 819, 272]
            codes:
              0: [0, 1, 2, 3] # EV_SYN
              1: [320, 330, 331] # EV_KEY
              3: [0, 1, 24] # EV_ABS
            absinfo:
              0: [0, 1000, 0, 0, 10]
              1: [0, 1000, 0, 0, 10]
              24: [0, 1000, 0, 0, 0]
            properties: [1]
          hid: [
            0x05, 0x0d, 0x09, 0x02,
            0xa1, 0x01
          ]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TABLET=1
            virtual: false
          quirks:
          - ModelWacomISDV4Pen=1
          libinput:
            size: [100, 100]
            capabilities: [tablet]
          unknown-future-key: {a: 1, b: [2, 3]}
          events:
          # Current time is 12:00:00
          - evdev:
            - [  0,      0,   1, 320,       1] # EV_KEY / BTN_TOOL_PEN              1
            - [  0,      0,   3,   0,     500] # EV_ABS / ABS_X                   500
            - [  0,      0,   3,   1,     250] # EV_ABS / ABS_Y                   250
            - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
          - evdev:
            - [  0,  10000,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
            - [  0,  10000,   3,  24,     400] # EV_ABS / ABS_PRESSURE            400
            libinput:
            - {time: 0.010000, type: TABLET_TOOL_TIP, state: down}
          - evdev:
            - [  0,  10000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +10ms
          - hid:
              time: [  0,  15000]
              hidraw0: [
                0x01, 0x02,
                0x03
              ]
          - evdev:
            - [  0,  20000,   3,  24,     800] # EV_ABS / ABS_PRESSURE            800
            - [  0,  20000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +10ms
          - libinput:
            - {time: 0.020000, type: TABLET_TOOL_AXIS, pressure: 0.80}
          - evdev:
            - [  0,  30000,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
            - [  0,  30000,   3,  24,       0] # EV_ABS / ABS_PRESSURE              0
            - [  0,  30000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +10ms
                                             # Touch device in neutral state
          - evdev:
            - [  0,  40000,   1, 320,       0] # EV_KEY / BTN_TOOL_PEN              0
            - [  0,  40000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +10ms

        """

    /// The template with the first occurrence of `old` replaced.
    static func replacing(_ old: String, with new: String) -> String {
        guard let range = text.range(of: old) else { fatalError("template has no '\(old)'") }
        return text.replacingCharacters(in: range, with: new)
    }

    /// 1-based line number of the first line containing `needle` in `text`.
    static func line(of needle: String, in text: String = Template.text) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.contains(needle) }) else { fatalError("no '\(needle)'") }
        return index + 1
    }
}
