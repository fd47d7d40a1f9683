// libFuzzer entry for the terminal key decoder: the bytes that followed an ESC (as text, as the
// terminal reader passes them on), and each scalar on its own.
@testable import QuakeTUI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKey(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = Key.decodeEscapeSequence(text)
    if text.hasPrefix("[<") { _ = Key.decodeSGRMouse(String(text.dropFirst())) }
    _ = Key.decodeSGRMouse(text)
    for scalar in text.unicodeScalars.prefix(64) { _ = Key.decode(scalar: scalar) }
    return 0
}
