// libFuzzer entry for the feed readers: `feedPrefix` (generated per format by build.sh) followed
// by the fuzzer's bytes goes through the real FeedReader, sniffing included, to the end or the
// first error. A crash, a hang or an ASan report is a finding; a FeedError is a correct answer.
@testable import QuakeFeed
import QuakeModel
import QuakeStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = feedPrefix + Array(UnsafeBufferPointer(start: data, count: size))
    // A small chunk size makes the fuzzer cross buffer boundaries inside tokens.
    guard let reader = try? FeedReader(source: .bytes(bytes), name: "fuzz", chunkSize: 64) else { return 0 }
    while true {
        do {
            guard let record = try reader.next() else { break }
            precondition(!record.code.isEmpty, "a record without a code")
            precondition(QuakeRecord.supportedTimes.contains(record.time), "a record outside the supported times")
        } catch {
            _ = error.description
            break
        }
    }
    _ = reader.skipped.map(\.description)
    return 0
}
