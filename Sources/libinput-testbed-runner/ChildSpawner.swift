import Foundation
import Logging
import SystemLayer

/// `--spawn-children`: children started one after the other on a thread of their own, from
/// before the device is opened to the end of the run, each listing the descriptors it was
/// started with (`ls -l /proc/self/fd`). What a child holds of the testbed's device files (its
/// ptys) is logged: `spawned child holds FD->PATH,...`. A descriptor opened without
/// close-on-exec and made so later is caught by a child started in between.
final class ChildSpawner: @unchecked Sendable {
    private let logger: Logger
    private let stopped = NSCondition()
    private var stopping = false
    private var running = false

    init(logger: Logger) { self.logger = logger }

    func start() {
        running = true
        Thread { [self] in
            var count = 0
            while !isStopping {
                guard let run = try? ChildProcess.run(["/bin/ls", "-l", "/proc/self/fd/"], timeout: 10) else { break }
                count += 1
                let held = run.output.split(separator: "\n").compactMap { line -> String? in
                    let words = line.split(separator: " ")
                    guard let arrow = words.firstIndex(of: "->"), arrow > 0, arrow + 1 < words.count,
                        words[arrow + 1].hasPrefix("/dev/pts/")
                    else { return nil }
                    return "\(words[arrow - 1])->\(words[arrow + 1])"
                }
                if !held.isEmpty { logger.info("spawned child holds \(held.joined(separator: ","))") }
            }
            logger.info("spawned \(count) children")
            stopped.lock()
            running = false
            stopped.broadcast()
            stopped.unlock()
        }.start()
    }

    private var isStopping: Bool {
        stopped.lock()
        defer { stopped.unlock() }
        return stopping
    }

    /// Waits for the child running now; no other starts.
    func stop() {
        stopped.lock()
        stopping = true
        while running { stopped.wait() }
        stopped.unlock()
    }
}
