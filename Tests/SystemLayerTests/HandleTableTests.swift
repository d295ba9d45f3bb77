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
}
