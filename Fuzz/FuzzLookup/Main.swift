import FuzzSupport

// SwiftPM links an executable's entry point as `<target>_main`: hand over to libFuzzer's driver.
// `--trace` (libFuzzer ignores flags that start with `--`) prints each input's effects.
@_cdecl("FuzzLookup_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    tracing = (0..<Int(argc)).contains { argv[$0].map { String(cString: $0) } == "--trace" }
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzLookup(data!, size) }
}
