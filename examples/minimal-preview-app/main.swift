// minimal-preview-app: one pressable item in a plain wl_shm window, and the whole
// PreviewInteraction API (docs/preview-interaction.md). Press it harder and harder: it lights
// up (preview), grows (commit) and opens (completed); lift early and it settles back.
import ArgumentParser
import CWaylandClient
import Glibc
import PreviewInteraction
import ToolOptions

struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minimal-preview-app", abstract: "One pressable item in a window: press it harder and harder.",
        version: ToolVersion.current)
    @Option(help: ArgumentHelp("Exit once this many presses have ended.", valueName: "count"))
    var exitAfter: Int?
}
let options = Options.parseOrExit()

final class App: PreviewInteractionDelegate {
    let connection: PreviewConnection
    var surface: OpaquePointer!, toplevel: OpaquePointer!
    var interaction: PreviewInteraction!
    var size = (width: 640, height: 480) { didSet { focusItem() } }
    var configured = false, running = true
    var glow = TransitionScrubber(curve: .easeOut), growth = TransitionScrubber(curve: .easeInOut)
    var opened = false, ended = 0
    let exitAfter: Int?
    var item: PreviewRect {
        PreviewRect(x: 40, y: 40, width: Double(size.width - 80), height: Double(size.height - 80))
    }

    init(exitAfter: Int?) throws {
        self.exitAfter = exitAfter
        connection = try PreviewConnection()
        guard connection.shm != nil, let wmBase = connection.wmBase else {
            throw PreviewInteractionError.unsupportedByCompositor
        }
        if let error = connection.previewError { say("no preview interactions: \(error)") }
        surface = wl_compositor_create_surface(connection.compositor)
        let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, &xdgSurfaceListener, nil)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, &toplevelListener, nil)
        xdg_toplevel_set_title(toplevel, "Press me")
        interaction = connection.makeInteraction(surface: surface)  // UIPreviewInteraction(view:)
        interaction.delegate = self
        interaction.allowedSources = .all  // e.g. [.touchscreen, .touchpad] keeps the pen for drawing
        focusItem()
        wl_surface_commit(surface)
    }

    /// The item has the keyboard focus (it is the only one): the preview key (Menu or Shift+F10,
    /// held) peeks at it, with no other change (protocol version 2).
    func focusItem() { interaction?.focusPoint = PreviewPoint(x: item.x + item.width / 2, y: item.y + item.height / 2) }

    func say(_ line: String) { print(line); fflush(nil) }

    // MARK: PreviewInteractionDelegate (UIPreviewInteractionDelegate)
    func previewInteractionShouldBegin(_ interaction: PreviewInteraction) -> Bool {
        let press = interaction.currentPress!, at = interaction.location(in: item)  // item-local
        let begin = !opened && interaction.runningPresses.count == 1 && item.contains(interaction.location())
        say(
            "press \(press.id) \(press.source.map { "\($0)" } ?? "?") \(press.force.map { "\($0)" } ?? "?") at \(Int(at.x)),\(Int(at.y)) in the item: \(begin ? "accept" : "decline")"
        )
        return begin
    }
    func previewInteraction(_ interaction: PreviewInteraction, didUpdatePreviewTransition progress: Double, ended: Bool)
    {
        say("press \(interaction.currentPress!.id) preview \(progress)\(ended ? " ended" : "")")
        glow.fractionComplete = progress
        draw()
    }
    func previewInteraction(_ interaction: PreviewInteraction, didUpdateCommitTransition progress: Double, ended: Bool)
    {
        let id = interaction.currentPress!.id
        if ended {
            opened = true
            say("press \(id) completed: opened the item")
            finish()
        } else if !item.contains(interaction.location()) {
            say("press \(id) slid off the item: cancel()")
            interaction.cancel()
        } else {
            say("press \(id) commit \(progress)")
            growth.fractionComplete = progress
        }
        draw()
    }
    func previewInteractionDidCancel(_ interaction: PreviewInteraction) {
        say("press \(interaction.currentPress!.id) cancelled: \(interaction.currentPress!.cancelReason!)")
        (glow.fractionComplete, growth.fractionComplete) = (0, 0)
        finish()
        draw()
    }
    func finish() {
        ended += 1
        if let exitAfter, ended >= exitAfter { running = false }
    }

    // MARK: drawing: a grey window, the item in blue turning orange with the preview, growing with the commit
    func draw() {
        guard configured, let shm = connection.shm else { return }
        let (w, h) = size, stride = w * 4, length = stride * h
        let fd = memfd(length)
        guard fd >= 0, let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED
        else { return }
        let pixels = memory.bindMemory(to: UInt32.self, capacity: w * h)
        fill(pixels, w, PreviewRect(x: 0, y: 0, width: Double(w), height: Double(h)), 0xFF_30_30_34)
        let grow = growth.interpolate(from: 0, to: 30), g = glow.value
        let colour = opened ? 0xFF_34_C7_59 : blend(0xFF_00_7A_FF, 0xFF_FF_95_00, g)
        let rect = item
        fill(
            pixels, w,
            PreviewRect(
                x: rect.x - grow, y: rect.y - grow, width: rect.width + 2 * grow, height: rect.height + 2 * grow),
            colour)
        let pool = wl_shm_create_pool(shm, fd, Int32(length))
        let buffer = wl_shm_pool_create_buffer(
            pool, 0, Int32(w), Int32(h), Int32(stride), UInt32(WL_SHM_FORMAT_ARGB8888.rawValue))
        wl_shm_pool_destroy(pool)
        munmap(memory, length)
        close(fd)
        wl_buffer_add_listener(buffer, &bufferListener, nil)  // destroyed when the compositor releases it
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(w), Int32(h))
        if interaction.region != [rect] { interaction.region = [rect] }  // presses begin only on the item
        interaction.commitSurface()  // wl_surface.commit, telling the compositor which frames it shows
    }
    func fill(_ pixels: UnsafeMutablePointer<UInt32>, _ w: Int, _ r: PreviewRect, _ colour: UInt32) {
        let x0 = max(0, Int(r.x)), x1 = min(w, Int(r.x + r.width)), y0 = max(0, Int(r.y)),
            y1 = min(size.height, Int(r.y + r.height))
        guard x1 > x0 else { return }
        for y in y0..<max(y0, y1) { (pixels + y * w + x0).update(repeating: colour, count: x1 - x0) }
    }
    func blend(_ a: UInt32, _ b: UInt32, _ t: Double) -> UInt32 {
        var out: UInt32 = 0xFF00_0000
        for shift in [0, 8, 16] as [UInt32] {
            let ca = Double((a >> shift) & 0xFF), cb = Double((b >> shift) & 0xFF)
            out |= UInt32((ca + (cb - ca) * t).rounded()) << shift
        }
        return out
    }
    func memfd(_ length: Int) -> Int32 {
        let name = "/minimal-preview-app-\(getpid())"
        let fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0o600)
        shm_unlink(name)
        if fd >= 0 && ftruncate(fd, off_t(length)) != 0 { close(fd); return -1 }
        return fd
    }
}

nonisolated(unsafe) var app: App!
nonisolated(unsafe) var xdgSurfaceListener = xdg_surface_listener(configure: { _, xdgSurface, serial in
    xdg_surface_ack_configure(xdgSurface, serial)
    app.configured = true
    app.draw()
})
nonisolated(unsafe) var toplevelListener = xdg_toplevel_listener(
    // The compositor's numbers are not trusted: sides are kept to 160...4096.
    configure: { _, _, width, height, _ in
        if width > 160 && height > 160 { app.size = (Int(min(width, 4096)), Int(min(height, 4096))) }
    },
    close: { _, _ in app.running = false }, configure_bounds: { _, _, _, _ in }, wm_capabilities: { _, _, _ in })
nonisolated(unsafe) var bufferListener = wl_buffer_listener(release: { _, buffer in wl_buffer_destroy(buffer) })

do { app = try App(exitAfter: options.exitAfter) } catch {
    print("minimal-preview-app: \(error)")
    exit(1)
}
guard app.connection.run(while: { app.running }) else {
    print("minimal-preview-app: the connection to the compositor was lost")
    exit(1)
}
exit(0)
