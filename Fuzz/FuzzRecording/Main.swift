// SwiftPM links an executable's entry point as `<target>_main`, so libFuzzer's own main is not
// used: this one hands the arguments to libFuzzer's driver with the target's callback.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("FuzzRecording_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    prepare()  // one-time state before the first input, so leak detection sees only per-input memory
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzRecording)
}
