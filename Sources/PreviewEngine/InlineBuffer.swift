/// Up to `capacity` values stored inline, in order: it never allocates, and nothing in it traps
/// inside a host's process (a value past the capacity is dropped and counted, an index outside
/// the slots reads nothing). `Actions` and `TransitionLog` are its two uses.
struct InlineBuffer<let capacity: Int, Element: Sendable>: Sendable {
    private var slots: InlineArray<capacity, Element>
    private(set) var count = 0
    /// Values that did not fit.
    private(set) var dropped = 0

    /// Every slot holds `filler` until written (values are plain: nothing to release when one
    /// is overwritten).
    static var slotCount: Int { capacity }

    init(filler: Element) {
        slots = InlineArray(repeating: filler)
    }

    /// The value in slot `index` (nil outside `0..<count`).
    func at(_ index: Int) -> Element? {
        index >= 0 && index < count && index < capacity ? slots[index] : nil
    }

    /// Appends `value`; returns false (and counts it) when the buffer is full.
    @discardableResult
    mutating func append(_ value: Element) -> Bool {
        guard count < capacity else {
            dropped += 1
            return false
        }
        slots[count] = value
        count += 1
        return true
    }

    /// Puts `value` in front; when full, the last value makes room (counted in `dropped`).
    mutating func prepend(_ value: Element) {
        guard capacity > 0 else {
            dropped += 1
            return
        }
        if count == capacity {
            count -= 1
            dropped += 1
        }
        var index = count
        while index > 0 {
            slots[index] = slots[index - 1]
            index -= 1
        }
        slots[0] = value
        count += 1
    }

    /// Empties it, keeping its storage as it is (nothing is written).
    mutating func removeAll() {
        count = 0
        dropped = 0
    }

    /// Adds `other`'s drops to this one's (a merge of two buffers).
    mutating func countDropped(_ more: Int) { dropped += more }
}
