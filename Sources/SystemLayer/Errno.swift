import CSystemLayer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of an errno value (`strerror`), for error messages.
public func errnoText(_ code: Int32 = errno) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// errno values that code outside the layer reports itself (a library call that returned NULL).
public enum ErrnoCode {
    /// ENOMEM: what libwayland's constructors mean when they return NULL.
    public static let outOfMemory: Int32 = ENOMEM
}

#if hasFeature(Embedded)
    /// errno, as the Glibc module spells it in the full build (the Embedded build has no Glibc
    /// module, and errno is a C macro Swift cannot import).
    public var errno: Int32 {
        get { system_layer_errno() }
        set { system_layer_set_errno(newValue) }
    }
#endif
