#if canImport(Glibc)
import Glibc
#endif
import QuakeModel

extension FeedError {
    /// The kind of this failure, for the status line's few words: the one `quaketui-http` named
    /// for a download (timed out, offline, refused, …), the status of an HTTP error, a missing
    /// file, or a bad feed for input that is not one (a parse error, an HTML page, a bomb). Nil
    /// when none fits (a disk that failed to read, a helper that could not start): the status
    /// line then gives no reason, and the sentence says it.
    ///
    /// The one place that decides it: nothing reads the kind back out of the sentence.
    public var kind: FailureKind? {
        switch underlyingError {
        case let status as HTTPByteStream.HTTPStatusError: return .http(status.status)
        case let failure as HTTPHelperProcess.Failure: return failure.kind
        case let failure as HTTPByteStream.DownloadFailure: return failure.kind
        case let system as SystemError: return system.code == ENOENT ? .noSuchFile : nil
        default: break
        }
        switch code {
        case .cannotOpen, .readFailed: return nil
        case .emptyInput, .unknownFormat, .syntax, .unexpectedEnd, .invalidString, .invalidNumber, .nestingTooDeep,
             .notFeatureCollection, .missingColumns, .corruptCompressedData, .noUsableRecords, .decompressedTooLarge,
             .ambiguousCode:
            return .badFeed
        }
    }
}
