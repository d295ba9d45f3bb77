/// A reference back to an owner, which clears it in its one teardown (`invalidate()` from its
/// `deinit`): the objects it outlives (protocol resources, idle callbacks) find nil instead of a
/// freed object. Stands in for a weak reference, which Embedded Swift does not have; shared by
/// every holder, so one call reaches them all.
public final class Backlink<Target: AnyObject> {
    // Unretained: a strong reference would keep the owner alive, and `invalidate()` runs
    // before the owner is freed, so it is never read dangling.
    public private(set) unowned(unsafe) var target: Target?

    public init(_ target: Target) { self.target = target }

    /// The owner is going: every holder sees nil from now on.
    public func invalidate() { target = nil }
}
