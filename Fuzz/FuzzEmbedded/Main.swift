import FuzzSupport

// SwiftPM links an executable's entry point as `<target>_main`, so libFuzzer's own main is not
// used: this one prepares the one-time state and hands over to libFuzzer's driver.
@_cdecl("FuzzEmbedded_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    prepare()  // before the first input, so leak detection sees only per-input memory
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzEmbedded(data!, size) }
}
