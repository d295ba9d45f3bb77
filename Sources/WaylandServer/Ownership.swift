// OWNERSHIP MODEL of the libwayland-server bridge. This is the only file that uses
// `Unmanaged`: every pointer that crosses into C and comes back as a Swift object is
// made and unmade here.
//
// 1. A wl_resource owns its Swift object. `ResourceObject.attach` stores a +1 reference
//    in the resource's user data; libwayland's destroy callback (client request,
//    client disconnect, display shutdown) first tells the object (`resourceDestroyed`,
//    after which `resource` is nil so nothing is ever sent to a dead resource), then
//    drops that reference. Nobody else frees a resource's object.
// 2. A listener is owned by the Swift object that listens. `Listener` allocates the C
//    container (cwl_listener: wl_listener + context) and gives C an *unretained*
//    pointer to itself; it unlinks the container in `remove()` and at the latest in
//    `deinit`, so a signal never reaches a dead listener. Owners call `remove()` in
//    their own teardown (e.g. `resourceDestroyed`) to make the order explicit.
// 3. An event source is owned by its `EventSource` object, which C sees unretained;
//    `remove()`/`deinit` remove it from the loop. Idle sources are one-shot: C holds a
//    +1 reference until the idle fires or is removed.
// 4. A global is owned by its `Global` object (unretained in C, removed in deinit or
//    when the display dies, whichever comes first).
import CWaylandServer

// MARK: resources

extension ResourceObject {
    /// Hands `self` to `resource`: from now on the resource owns this object.
    func attach(to resource: OpaquePointer, implementation: UnsafeRawPointer?) {
        let context = Unmanaged.passRetained(self).toOpaque()
        wl_resource_set_implementation(resource, implementation, context, resourceDestroyTrampoline)
    }

    /// The Swift object owned by `resource`, if it was created through `ResourceObject`
    /// and is of type `T`. Only call it on resources of interfaces this process
    /// implements with `ResourceObject` (all of ours).
    public static func owner<T: ResourceObject>(of resource: OpaquePointer, as _: T.Type = T.self) -> T? {
        guard let context = wl_resource_get_user_data(resource) else { return nil }
        return Unmanaged<ResourceObject>.fromOpaque(context).takeUnretainedValue() as? T
    }
}

private let resourceDestroyTrampoline: @convention(c) (OpaquePointer?) -> Void = { resource in
    guard let resource, let context = wl_resource_get_user_data(resource) else { return }
    wl_resource_set_user_data(resource, nil)
    let unmanaged = Unmanaged<ResourceObject>.fromOpaque(context)
    unmanaged.takeUnretainedValue().didDestroyResource()
    unmanaged.release()
}

// MARK: listeners

extension Listener {
    var unretainedContext: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

let listenerTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
    context, data in
    guard let context else { return }
    Unmanaged<Listener>.fromOpaque(context).takeUnretainedValue().fire(data)
}

// MARK: event sources

extension EventSource {
    var unretainedContext: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    /// For one-shot idle sources: libwayland drops the source itself after it fires.
    func retainedContext() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }
    func releaseRetainedContext() { Unmanaged.passUnretained(self).release() }
}

let fdSourceTrampoline: @convention(c) (Int32, UInt32, UnsafeMutableRawPointer?) -> Int32 = { fd, mask, context in
    guard let context else { return 0 }
    Unmanaged<EventSource>.fromOpaque(context).takeUnretainedValue().fireFD(mask: mask)
    return 0
}

let timerSourceTrampoline: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
    guard let context else { return 0 }
    Unmanaged<EventSource>.fromOpaque(context).takeUnretainedValue().fireTimer()
    return 0
}

let signalSourceTrampoline: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Int32 = { signal, context in
    guard let context else { return 0 }
    Unmanaged<EventSource>.fromOpaque(context).takeUnretainedValue().fireTimer()
    return 0
}

let idleSourceTrampoline: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    // Balance the +1 of `retainedContext()`: libwayland has already dropped the source.
    Unmanaged<EventSource>.fromOpaque(context).takeRetainedValue().fireIdle()
}

// MARK: globals

extension Global {
    var unretainedContext: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

let globalBindTrampoline: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UInt32, UInt32) -> Void = {
    client, context, version, id in
    guard let client, let context else { return }
    Unmanaged<Global>.fromOpaque(context).takeUnretainedValue().bind(client: Client(client), version: version, id: id)
}
