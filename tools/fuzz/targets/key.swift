// libFuzzer entry for the terminal key decoder: the bytes that followed an ESC (as text, as the
// terminal reader passes them on), and each scalar on its own; then the whole input through
// `InputDecoder` as one read and again split at every point not right after an ESC (issue 28)
// nor right after an end-of-paste marker that a later one follows (issue 57: the decoder's
// documented limit): both must give the same keys, never more pending than was fed.
@testable import QuakeTUI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKey(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = Key.decodeEscapeSequence(text)
    if text.hasPrefix("[<") { _ = Key.decodeSGRMouse(String(text.dropFirst())) }
    _ = Key.decodeSGRMouse(text)
    for scalar in text.unicodeScalars.prefix(64) { _ = Key.decode(scalar: scalar) }

    // The same bytes as the terminal reads them (UTF-8 decoded by the decoder): never a trap.
    var bytes = InputDecoder()
    bytes.feed(bytes: UnsafeBufferPointer(start: data, count: min(size, 512)))
    _ = bytes.decode() + bytes.flush()

    let scalars = Array(text.unicodeScalars.prefix(512))
    var whole = InputDecoder()
    whole.feed(scalars)
    let expected = whole.decode() + whole.flush()
    for split in 1..<max(1, scalars.count)
    where scalars[split - 1] != "\u{1B}" && !InputDecoder.splitsEndMarkers(scalars, at: split) {
        var decoder = InputDecoder()
        decoder.feed(scalars[..<split])
        var keys = decoder.decode()
        decoder.feed(scalars[split...])
        keys += decoder.decode() + decoder.flush()
        if keys != expected { fatalError("split at \(split) of \(scalars.map(\.value)): \(keys) != \(expected)") }
    }
    return 0
}
