import FuzzSupport

// SwiftPM links an executable's entry point as `<target>_main`: hand over to libFuzzer's driver.
@_cdecl("FuzzClientCore_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzClientCore(data!, size) }
}
