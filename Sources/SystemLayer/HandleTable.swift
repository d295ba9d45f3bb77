/// The handles a C API gives out: numbers dressed as pointers, never dereferenced and never
/// reused, so a NULL, stale or foreign handle is looked up and reported instead of followed.
/// One `HandleNumbers` per library numbers every kind of handle it gives out, so a handle of
/// one kind is never found in another kind's table; the tables own their objects. Not locked:
/// a library keeps its numbers and tables together behind one lock.
public struct HandleNumbers: Sendable {
    private var next: UInt
    private let step: UInt

    /// Numbers from `first` on, `step` apart: even and spaced, never a small integer or NULL by
    /// accident (choose `first` apart from another library's).
    /// `first` and `step` of 0 are taken as 16 (handles are never NULL).
    public init(first: UInt, step: UInt = 16) {
        (next, self.step) = (first == 0 ? 16 : first, step == 0 ? 16 : step)
    }

    /// The next handle.
    public mutating func take() -> OpaquePointer {
        // Never wraps in practice (2^60 handles at one a nanosecond take 36 years); if it did,
        // 0 is skipped, so a handle is never NULL.
        let number = next == 0 ? step : next
        next = number &+ step
        return unsafeBitCast(number, to: OpaquePointer.self)
    }
}

/// The objects of one kind of handle, by handle.
public struct HandleTable<Object> {
    private var objects: [UInt: Object] = [:]

    public init() {}

    /// The object of `handle`; nil for NULL or a handle this table does not hold.
    public subscript(handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        return objects[UInt(bitPattern: handle)]
    }

    /// A new handle from `numbers` for `object`.
    public mutating func register(_ object: Object, numbers: inout HandleNumbers) -> OpaquePointer {
        let handle = numbers.take()
        objects[UInt(bitPattern: handle)] = object
        return handle
    }

    public mutating func forget(_ handle: OpaquePointer) {
        objects[UInt(bitPattern: handle)] = nil
    }

    /// Forgets every handle whose object matches.
    public mutating func forgetAll(where matches: (Object) -> Bool) {
        objects = objects.filter { !matches($0.value) }
    }

    /// Every object held, in no particular order.
    public var all: [Object] { Array(objects.values) }
}

extension HandleTable: Sendable where Object: Sendable {}
