import CWaylandServer
import WaylandServer

/// The Swift object behind a resource argument of a request, if it is one of ours of type T.
func resolve<T: ResourceObject>(_ resource: OpaquePointer?, as type: T.Type = T.self) -> T? {
    guard let resource else { return nil }
    return ResourceObject.owner(of: resource, as: type)
}

extension Double {
    var fixed: wl_fixed_t { cwl_fixed_from_double(self) }
}
