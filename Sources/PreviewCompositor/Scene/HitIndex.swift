import PreviewEngine

/// The input-taking surfaces of one window (a root and its mapped subsurface tree), flattened
/// top to bottom with their output origins, and bucketed into a coarse grid over their extents.
/// A hit test looks at one cell instead of walking every subsurface and recomputing every output
/// origin: with 10,000 mapped subsurfaces a pen event costs what it costs with one. Built on
/// the first hit test after the tree's geometry changed (`SceneSurface` drops it then), so its
/// cost is the commit's, not the event's.
struct HitIndex {
    struct Entry {
        /// Weak: the index must never keep a surface (or, for the root, itself) alive.
        weak var surface: SceneSurface?
        let origin: (x: Int32, y: Int32)
        let bounds: (left: Int64, top: Int64, right: Int64, bottom: Int64)
    }

    /// Top to bottom: the order the hit test tries them.
    private(set) var entries: [Entry] = []
    // The grid: `columns` × `rows` cells of `cell` pixels from `origin`; cell c lists the entries
    // overlapping it in `members[starts[c] ..< starts[c + 1]]`, ascending (top first). Entries
    // spanning more than `maximumCellsPerEntry` cells are in `large` instead, so memory stays
    // linear in the surface count however big the surfaces are.
    private var gridOrigin: (x: Int64, y: Int64) = (0, 0)
    private var cell: Int64 = 1
    private var columns = 0
    private var rows = 0
    private var starts: [Int32] = []
    private var members: [Int32] = []
    private var large: [Int32] = []

    static let maximumCellsPerEntry = 16
    static let gridSide = 64

    /// Walks the tree iteratively (a client controls its depth), in the order the recursive
    /// definition gives: a surface's stack from the top, each mapped subsurface's own tree in
    /// its place; an unmapped subsurface hides its subtree; an unmapped root hides only itself.
    init(root: SceneSurface) {
        var pending: [(surface: SceneSurface, origin: (x: Int32, y: Int32), next: Int)] = [
            (root, root.position, root.stack.count - 1)
        ]
        while let top = pending.last {
            guard top.next >= 0 else {
                pending.removeLast()
                continue
            }
            pending[pending.count - 1].next -= 1
            let member = top.surface.stack[top.next]
            if member === top.surface {
                let size = member.size
                if member.isMapped, size.width > 0, size.height > 0 {
                    let left = Int64(top.origin.x)
                    let up = Int64(top.origin.y)
                    entries.append(
                        Entry(
                            surface: member, origin: top.origin,
                            bounds: (left, up, left + Int64(size.width), up + Int64(size.height))))
                }
            } else if member.isMapped {
                let origin = (top.origin.x &+ member.offset.x, top.origin.y &+ member.offset.y)
                pending.append((member, origin, member.stack.count - 1))
            }
        }
        buildGrid()
    }

    private mutating func buildGrid() {
        guard let first = entries.first else { return }
        var box = first.bounds
        for entry in entries {
            box = (
                min(box.left, entry.bounds.left), min(box.top, entry.bounds.top),
                max(box.right, entry.bounds.right), max(box.bottom, entry.bounds.bottom)
            )
        }
        let side = Int64(Self.gridSide)
        cell = max(1, (max(box.right - box.left, box.bottom - box.top) + side - 1) / side)
        gridOrigin = (box.left, box.top)
        columns = Int((box.right - box.left + cell - 1) / cell) + 1
        rows = Int((box.bottom - box.top + cell - 1) / cell) + 1
        for (index, entry) in entries.enumerated() where cellCount(entry) > Self.maximumCellsPerEntry {
            large.append(Int32(index))
        }
        // Two passes (count, then fill) into one flat array.
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        forEachPlacement { cellIndex, _ in counts[cellIndex] += 1 }
        var starts = [Int32](repeating: 0, count: counts.count)
        var sum: Int32 = 0
        for index in counts.indices {
            starts[index] = sum
            sum += counts[index]
        }
        var members = [Int32](repeating: 0, count: Int(sum))
        var fill = starts
        forEachPlacement { cellIndex, entry in
            members[Int(fill[cellIndex])] = Int32(entry)
            fill[cellIndex] += 1
        }
        self.starts = starts
        self.members = members
    }

    private func cellCount(_ entry: Entry) -> Int {
        let (c0, r0) = cellOf(entry.bounds.left, entry.bounds.top)
        let (c1, r1) = cellOf(entry.bounds.right, entry.bounds.bottom)
        return (c1 - c0 + 1) * (r1 - r0 + 1)
    }

    /// Every (cell, entry) pair of the grid in entry order, large entries left out.
    private func forEachPlacement(_ body: (Int, Int) -> Void) {
        for (index, entry) in entries.enumerated() where cellCount(entry) <= Self.maximumCellsPerEntry {
            let (c0, r0) = cellOf(entry.bounds.left, entry.bounds.top)
            let (c1, r1) = cellOf(entry.bounds.right, entry.bounds.bottom)
            for row in r0...r1 {
                for column in c0...c1 { body(row * columns + column, index) }
            }
        }
    }

    private func cellOf(_ x: Int64, _ y: Int64) -> (Int, Int) {
        (
            Int(min(max(0, (x - gridOrigin.x) / cell), Int64(columns - 1))),
            Int(min(max(0, (y - gridOrigin.y) / cell), Int64(rows - 1)))
        )
    }

    /// The topmost surface taking input at an output position.
    func hit(_ point: Point) -> Hit? {
        guard !entries.isEmpty, point.x.isFinite, point.y.isFinite else { return nil }
        // Outside the grid no entry can contain the point (the grid covers every bound).
        let x = point.x.rounded(.down)
        let y = point.y.rounded(.down)
        guard x >= Double(gridOrigin.x), y >= Double(gridOrigin.y),
            x < Double(gridOrigin.x) + Double(columns) * Double(cell),
            y < Double(gridOrigin.y) + Double(rows) * Double(cell)
        else { return nil }
        let column = Int((Int64(x) - gridOrigin.x) / cell)
        let row = Int((Int64(y) - gridOrigin.y) / cell)
        let cellIndex = row * columns + column
        var inCell = Int(starts[cellIndex])
        let cellEnd = Int(starts[cellIndex + 1])
        var inLarge = 0
        // Merge the two ascending lists: the first entry that takes the point is the topmost.
        while inCell < cellEnd || inLarge < large.count {
            let index: Int
            if inLarge >= large.count || (inCell < cellEnd && members[inCell] < large[inLarge]) {
                index = Int(members[inCell])
                inCell += 1
            } else {
                index = Int(large[inLarge])
                inLarge += 1
            }
            let entry = entries[index]
            guard let surface = entry.surface else { continue }
            let local = Point(x: point.x - Double(entry.origin.x), y: point.y - Double(entry.origin.y))
            if surface.acceptsInput(localX: local.x, localY: local.y) { return Hit(surface: surface, local: local) }
        }
        return nil
    }

    /// Bytes held, for the memory-per-surface figure.
    var footprint: Int {
        entries.capacity * MemoryLayout<Entry>.stride
            + (starts.capacity + members.capacity + large.capacity) * MemoryLayout<Int32>.stride
    }
}
