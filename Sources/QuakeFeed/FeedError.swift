#if canImport(Glibc)
import Glibc
#endif
import QuakeModel
import QuakeStore

/// The one error type of `QuakeFeed`: what went wrong, where (`name:line:column`) and what to do.
///
/// Every failure of a ``FeedReader`` — a file that cannot be opened or read, an empty or
/// unrecognised input, a JSON or CSV syntax error, a truncated download, a corrupt gzip
/// stream — is reported as a `FeedError` whose ``description`` is one full sentence:
///
/// ```
/// all_month.geojson:4597:187: unexpected end of input inside a string; the file looks truncated — download it again.
/// ```
///
/// Lines and columns are 1-based; the column counts **bytes** from the start of the line (as
/// compilers do), so a line with multi-byte UTF-8 characters reports a byte column. For
/// gzip input the position is in the decompressed text. `line` is 0 when no position applies
/// (the file could not be opened).
public struct FeedError: Error, CustomStringConvertible {
    /// The class of failure.
    public enum Code: Sendable, Equatable {
        /// The source could not be opened (missing file, permission denied, a directory).
        case cannotOpen
        /// Reading the source failed part-way (`read(2)` failed, the byte stream threw).
        case readFailed
        /// The input holds nothing but whitespace (or nothing at all).
        case emptyInput
        /// The first bytes are not GeoJSON, GeoJSONP, USGS CSV or gzip (binary garbage, HTML, …).
        case unknownFormat
        /// A byte that the grammar does not allow here (JSON or CSV).
        case syntax
        /// The input ended in the middle of a value: a truncated download.
        case unexpectedEnd
        /// A malformed string: a bad escape, a lone UTF-16 surrogate, a raw control character.
        case invalidString
        /// A malformed or absurdly long number literal.
        case invalidNumber
        /// Nested arrays/objects deeper than ``FeedReader/maximumNestingDepth``.
        case nestingTooDeep
        /// Well-formed JSON that is not a GeoJSON FeatureCollection (no `features` array).
        case notFeatureCollection
        /// A CSV header without the columns a quake needs (`time`, `latitude`, `longitude`, `id`).
        case missingColumns
        /// The gzip/zlib stream is damaged or ends early.
        case corruptCompressedData
        /// Every record was well-formed but unusable, so nothing would be imported.
        case noUsableRecords
        /// Compressed input that inflates to more than ``FeedReader/maximumInflationRatio`` times
        /// its size (plus ``FeedReader/inflationAllowance``): a decompression bomb, not a feed.
        case decompressedTooLarge
        /// Two different events of one file (different origins) would get the same code, so
        /// importing would merge them: the file is refused, naming the code and both lines.
        case ambiguousCode
    }

    public var code: Code
    /// The input's name as the user gave it (a path, `<stdin>`, a URL).
    public var name: String
    /// 1-based line, or 0 when there is no position.
    public var line: Int
    /// 1-based byte column in `line`.
    public var column: Int
    /// 0-based byte offset of the position in the (decompressed) input.
    public var offset: Int64
    /// What happened and what was expected, e.g. `expected ',' or '}' after a value, found 'x'`.
    public var message: String
    /// What the user can do about it, e.g. `the file looks truncated — download it again`.
    public var hint: String?
    /// The system or zlib error behind this one, if any.
    public var underlyingError: (any Error)?

    public init(code: Code, name: String, line: Int = 0, column: Int = 0, offset: Int64 = 0,
                message: String, hint: String? = nil, underlyingError: (any Error)? = nil) {
        self.code = code
        self.name = name
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
        self.hint = hint
        self.underlyingError = underlyingError
    }

    public var description: String {
        var text = line > 0 ? "\(name):\(line):\(column): \(message)" : "\(name): \(message)"
        if let hint { text += "; \(hint)" }
        if !text.hasSuffix(".") { text += "." }
        return text
    }
}

extension FeedError {
    /// The error for an input whose every record was skipped: it names the first reasons.
    static func everyRecordSkipped(name: String, count: Int, first: [SkippedFeature]) -> FeedError {
        let reasons = first.prefix(3).map(\.description).joined(separator: "; ")
        return FeedError(code: .noUsableRecords, name: name,
                         message: "all \(CountFormat.count(count, "record"))\(count == 1 ? " was" : " were") skipped, so nothing was imported (\(reasons)\(count > 3 ? "; …" : ""))",
                         hint: "check that this is an earthquake catalogue in a supported format; the store is unchanged")
    }
}

/// A system error number with its `strerror` text, used as ``FeedError/underlyingError``.
public struct SystemError: Error, CustomStringConvertible, Equatable {
    /// The `errno` value.
    public var code: Int32
    public var description: String

    public init(code: Int32) {
        self.code = code
        self.description = String(cString: strerror(code))
    }
}
