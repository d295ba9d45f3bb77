import SystemLayer
import Testing

/// The handle tables of both C libraries: a handle is looked up, never followed.
@Suite struct HandleTableTests {
    @Test func aHandleFindsItsObjectOnlyInItsOwnTableAndOnlyUntilItIsForgotten() {
        var numbers = HandleNumbers(first: 0x5000)
        var contexts = HandleTable<String>()
        var devices = HandleTable<String>()
        let context = contexts.register("context", numbers: &numbers)
        let device = devices.register("device", numbers: &numbers)
        #expect(context != device)
        #expect(contexts[context] == "context" && devices[device] == "device")
        #expect(contexts[device] == nil && devices[context] == nil, "a handle of one kind is not another's")
        #expect(contexts[nil] == nil)
        #expect(contexts[OpaquePointer(bitPattern: 0x5001)] == nil, "a foreign number")
        contexts.forget(context)
        #expect(contexts[context] == nil, "stale")
        let next = contexts.register("again", numbers: &numbers)
        #expect(next != context && next != device, "numbers are never reused")
        devices.forgetAll { $0 == "device" }
        #expect(devices.all.isEmpty && contexts.all == ["again"])
    }

    @Test func zeroNumbersStillGiveHandlesThatAreNeverNull() {
        var numbers = HandleNumbers(first: 0, step: 0)
        let first = numbers.take()
        let second = numbers.take()
        #expect(UInt(bitPattern: first) != 0 && UInt(bitPattern: second) != 0 && first != second)
        // Wrapping past the top skips NULL too.
        var wrapping = HandleNumbers(first: UInt.max - 15, step: 16)
        _ = wrapping.take()
        #expect(UInt(bitPattern: wrapping.take()) != 0)
    }
}
