#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuakeModel
import QuakeStore

/// Reads an earthquake catalogue — USGS GeoJSON, GeoJSONP and CSV, EMSC GeoJSON, FDSN text,
/// QuakeML (1.2 BED and BED-RT, 1.0), or gzip of any of them, in UTF-8 (with or without a byte order mark) or
/// UTF-16 with a byte order mark — one quake at a time.
///
/// The format is sniffed from the first bytes, never from the name. Memory stays bounded
/// (one `chunkSize` buffer plus one string of at most ``maximumStringLength`` bytes) whatever
/// the input size, so the store can import a 1 GB feed inside one transaction:
///
/// ```swift
/// let reader = try FeedReader(source: FeedSource(argument: path), name: path)
/// while let record = try reader.next() {
///     try upsert(record)
///     progress(reader.bytesRead, reader.totalBytes)
/// }
/// print("\(reader.skippedCount) skipped", reader.skipped)
/// ```
///
/// Mapping rules (details in `FeatureFields`):
///
/// - A feature is **usable** when it has a non-empty string `id`, a numeric `properties.time`
///   and numeric `geometry.coordinates[0]` (longitude) and `[1]` (latitude). A well-formed
///   feature that is not usable — or has a latitude outside −90…90, a longitude outside
///   −180…180, or a non-finite number such as `1e400` in `mag`, `depth`, `time` or
///   `updated` — is **skipped** and counted (``skipped``, ``skippedCount``), with its 0-based
///   index in `features` (CSV: its 1-based line) and a reason. Reading goes on.
/// - An **optional number written as a string** is read as the number (`"sig": "449"` in the
///   legacy feed); an **optional field of any other wrong type becomes nil**;
///   `place` null/missing → `""`; `updated` missing → `time`; `depth` missing → nil.
/// - **Duplicate codes** inside one file are all yielded, in file order; the store's upsert
///   de-duplicates them (the newer `updated` wins), so the reader keeps no memory per code.
/// - Structural problems are errors, not skips: `features` that is not an array, a syntax
///   error, a truncated file. Kept strings longer than ``maximumStringLength`` skip their
///   feature; skipped values may be any size (they are scanned, never stored); nesting
///   deeper than ``maximumNestingDepth`` is an error (skipping is iterative, so no stack
///   overflow either way).
/// - Times are milliseconds as the feeds write them; CSV times are ISO-8601.
///
/// Not `Sendable`: one reader belongs to one importing task.
public final class FeedReader {
    /// A sniffed input format.
    public enum Format: String, Sendable {
        case geoJSON, geoJSONP, csv, fdsnText, quakeML
    }

    /// Bytes read from the source per `read` call, and the size of the parse buffer.
    public static let defaultChunkSize = 256 * 1024
    /// The longest string value kept (`place`, `title`, `url`, CSV cells); longer skips the feature.
    public static let maximumStringLength = 64 * 1024
    /// The deepest nesting accepted in skipped values (unknown members); deeper is an error.
    public static let maximumNestingDepth = 512
    /// Compressed input may inflate to at most this many times its compressed size (plus
    /// ``inflationAllowance``); more is a decompression bomb and fails with
    /// ``FeedError/Code/decompressedTooLarge``. Real feeds compress 3–15×. Override with
    /// `QUAKETUI_MAX_INFLATION_RATIO=N`.
    public static var maximumInflationRatio: Int64 {
        ProcessInfo.processInfo.environment["QUAKETUI_MAX_INFLATION_RATIO"].flatMap { Int64($0) }.map { max(1, $0) } ?? 100
    }
    /// Inflated bytes always allowed whatever the ratio, so a small, very regular file is fine.
    public static let inflationAllowance: Int64 = 64 << 20
    /// How many skipped features ``skipped`` lists.
    public static let skippedListLimit = 10

    /// The name used in errors (`name:line:column`).
    public let name: String
    public let format: Format
    /// Whether the input was gzip- or zlib-compressed.
    public let isCompressed: Bool
    /// The size of the source in bytes if known (a regular file, a stream that says so).
    public let totalBytes: Int64?
    /// Bytes read from the source so far (compressed bytes for gzip input), for progress.
    public var bytesRead: Int64 { readAhead?.progress.bytesRead ?? counter.count }
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// The first ``skippedListLimit`` skipped features, in order, with index and reason.
    public var skipped: [SkippedFeature] { (readAhead?.progress.skips ?? skips).list }
    /// How many features were skipped in all.
    public var skippedCount: Int { (readAhead?.progress.skips ?? skips).count }
    /// Whether the text was UTF-16 (turned into UTF-8 before parsing).
    public var isUTF16: Bool { decoder.encoding != .utf8 && decoder.encoding != nil }
    /// What the reader decided about the feed as a whole that the user should know, e.g.
    /// `times are in seconds (decided from its 1,200 features); converted to milliseconds`.
    /// Complete once ``next()`` has returned nil.
    public var notes: [String] {
        var notes = parser.notes
        if isUTF16 { notes.insert("the file is UTF-16 text", at: 0) }
        return notes
    }

    /// The other codes ComCat's features listed in their `ids`, and when the feed was generated:
    /// what ``FeedImporter`` merges with ``WriteTransaction/mergeComCatAliases(_:)``. Complete
    /// once ``next()`` has returned nil; empty for every format but ComCat's GeoJSON.
    public var comCatAliases: ComCatAliases { parser.comCatAliases }

    /// The optional fields this feed's format has no place for (a CSV has no `felt`): its records
    /// have them nil, which says nothing, so an update keeps what is stored for them
    /// (``WriteTransaction/keptFields``). Known once the header is read.
    public var absentFields: QuakeRecord.Fields { parser.absentFields }

    private let counter: CountingStream
    private let input: ByteInput
    private let parser: any RecordParser
    private let decoder: TextDecodingStream
    private var skips = SkipLog(limit: FeedReader.skippedListLimit)
    private var failure: FeedError?
    private var finished = false
    private(set) var readAhead: ReadAhead?
    /// The current read-ahead batch, reversed (next record last).
    private var batch: [QuakeRecord] = []

    /// Opens a file path; `-` reads standard input.
    /// - Throws: ``FeedError`` when the file cannot be opened or its first bytes are not a feed.
    public convenience init(path: String) throws(FeedError) {
        try self.init(source: FeedSource(argument: path), name: path == "-" ? "<stdin>" : path)
    }

    /// Opens `source` and sniffs its format.
    ///
    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - name: the name for error messages, usually the path or URL as the user typed it.
    ///   - chunkSize: bytes per read and parse buffer size (tests use tiny ones).
    /// - Throws: ``FeedError`` — `cannotOpen`, `readFailed`, `emptyInput`, `unknownFormat`,
    ///   `corruptCompressedData`, or `missingColumns` for a CSV header without the needed columns.
    ///   - agency: the agency whose service produced the input (`fetch` knows it); nil decides
    ///     it from the content (see ``FeedAgency``).
    public init(source: FeedSource, name: String, chunkSize: Int = FeedReader.defaultChunkSize,
                agency: String? = nil) throws(FeedError) {
        self.name = name
        let raw: any FeedByteStream
        switch source {
        case .path(let path):
            do {
                raw = try FileDescriptorStream.open(path: path)
            } catch {
                throw FeedError(code: .cannotOpen, name: name, message: "cannot open the file: \(error)",
                                hint: error.code == ENOENT ? "check the path" : nil, underlyingError: error)
            }
        case .standardInput: raw = FileDescriptorStream(fd: 0, ownsDescriptor: false)
        case .fileDescriptor(let fd): raw = FileDescriptorStream(fd: fd, ownsDescriptor: false)
        case .stream(let stream): raw = stream
        case .bytes(let bytes): raw = MemoryByteStream(bytes)
        }
        totalBytes = raw.totalBytes
        counter = CountingStream(raw, maximumRead: chunkSize)

        let magic: [UInt8]
        do {
            magic = try counter.peek(2)
        } catch {
            throw FeedError(code: .readFailed, name: name, line: 1, column: 1,
                            message: "read failed: \(error)", underlyingError: error)
        }
        var stream: any FeedByteStream = counter
        isCompressed = magic == [0x1F, 0x8B]
        if isCompressed {
            do {
                stream = try GzipInflater(upstream: counter, chunkSize: chunkSize,
                                          maximumRatio: Self.maximumInflationRatio, allowance: Self.inflationAllowance)
            } catch {
                throw FeedError(code: .corruptCompressedData, name: name, message: error.message, underlyingError: error)
            }
        }
        decoder = TextDecodingStream(stream, chunkSize: chunkSize)
        input = ByteInput(name: name, stream: decoder, chunkSize: chunkSize,
                          maximumStringLength: Self.maximumStringLength, maximumDepth: Self.maximumNestingDepth)
        (format, parser) = try Self.sniff(input, agency: agency)
    }

    /// The next usable record, or nil at the end of the input. Unusable features are skipped
    /// (see ``skipped``); after an error, every later call throws the same error.
    /// - Throws: ``FeedError`` for syntax errors, truncated input, read and gzip failures.
    public func next() throws(FeedError) -> QuakeRecord? {
        if let record = batch.popLast() {
            recordsRead += 1
            return record
        }
        if let failure { throw failure }
        if finished { return nil }
        if let readAhead {
            while true {
                switch readAhead.take() {
                case .batch(let records):
                    batch = records
                    if let record = batch.popLast() {
                        recordsRead += 1
                        return record
                    }
                case .end:
                    finished = true
                    return nil
                case .failure(let error):
                    failure = error
                    throw error
                }
            }
        }
        do {
            guard let record = try parser.next(skips: &skips) else {
                finished = true
                return nil
            }
            recordsRead += 1
            return record
        } catch {
            failure = error
            throw error
        }
    }

    /// Parses on a background thread from now on, up to `batches` × `batchSize` records
    /// ahead of ``next()``, so parsing overlaps with the caller's work (the store's inserts)
    /// on another core. Results, skips and errors are exactly those of the plain reader;
    /// ``bytesRead`` and ``skipped`` then describe the producer's progress, which runs ahead.
    /// Call it before the first ``next()``; later calls do nothing.
    ///
    /// Memory stays bounded by the queue. Deinitializing the reader stops the thread and
    /// waits for it (for a pipe, until its current `read` returns).
    public func startReadingAhead(batchSize: Int = 1024, batches: Int = 4) {
        guard readAhead == nil, recordsRead == 0, failure == nil, !finished else { return }
        readAhead = ReadAhead(parser: parser, counter: counter, skips: skips, batchSize: batchSize,
                              maximumQueued: batches)
    }

    /// Whether ``startReadingAhead(batchSize:batches:)`` took effect: parsing runs on its own thread.
    public var isReadingAhead: Bool { readAhead != nil }

    deinit {
        readAhead?.cancel()
    }

    /// Reads every remaining record into an array (for small inputs and tests).
    public func readAll() throws(FeedError) -> [QuakeRecord] {
        var records: [QuakeRecord] = []
        while let record = try next() { records.append(record) }
        return records
    }

    // MARK: - Sniffing

    private static func sniff(_ input: ByteInput, agency: String?) throws(FeedError) -> (Format, any RecordParser) {
        // A UTF-8 byte order mark.
        if try input.ensure(), input.buffer[input.pos] == 0xEF {
            let start = input.offset
            for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
                guard try input.ensure(), input.buffer[input.pos] == expected else {
                    throw input.error(.unknownFormat, "the input starts with byte 0xEF but not with a UTF-8 byte order mark",
                                      at: start, hint: formatHint)
                }
                input.pos += 1
            }
            input.lineStart = input.offset
        }
        guard try input.skipWhitespace() else {
            throw input.error(.emptyInput, "the input is empty",
                              hint: "expected an earthquake catalogue (GeoJSON, CSV, FDSN text or QuakeML) — download it again")
        }
        let first = input.buffer[input.pos]
        switch first {
        case UInt8(ascii: "{"):
            return (.geoJSON, GeoJSONParser(input: input, isJSONP: false, agency: agency))
        case UInt8(ascii: "\""):
            return (.csv, try CSVParser(input: input, firstName: nil, agency: agency))
        case UInt8(ascii: "<"):
            return (.quakeML, QuakeMLParser(input: input, agency: agency))
        case UInt8(ascii: "#"):
            return (.fdsnText, FDSNTextParser(input: input, agency: agency))
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            let start = input.offset
            var name: [UInt8] = []
            while try input.ensure(), isIdentifierByte(input.buffer[input.pos]), name.count <= 256 {
                name.append(input.buffer[input.pos])
                input.pos += 1
            }
            if try input.ensure(), input.buffer[input.pos] == UInt8(ascii: "|") {
                // FDSN text without its header line: rewind is impossible, so hand the id over.
                return (.fdsnText, FDSNTextParser(input: input, agency: agency, firstCell: name))
            }
            if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
                throw input.error(.unknownFormat,
                                  "the input starts with '\(String(decoding: name.prefix(40), as: UTF8.self))', which is not how a catalogue starts",
                                  at: start, hint: formatHint)
            }
            if try input.ensure(), input.buffer[input.pos] == UInt8(ascii: ",") {
                return (.csv, try CSVParser(input: input, firstName: name, agency: agency))
            }
            if try input.skipWhitespace(), input.buffer[input.pos] == UInt8(ascii: "(") {
                return (.geoJSONP, GeoJSONParser(input: input, isJSONP: true, agency: agency))
            }
            let word = String(decoding: name.prefix(40), as: UTF8.self)
            if word == "Error", let page = try errorPage(input) {
                // What `curl -o` saves from a failed FDSN query: say so, in fetch's words.
                throw input.error(.unknownFormat,
                                  "the input is an FDSN service's error page, not a catalogue: the service answered "
                                  + HTTPByteStream.answer(page),
                                  at: start, hint: "correct the query the page names and download it again, or let 'quaketui fetch' ask the service")
            }
            throw input.error(.unknownFormat,
                              "the input starts with '\(word)' but is neither a JSONP callback nor a CSV header",
                              at: start, hint: formatHint)
        default:
            throw input.error(.unknownFormat,
                              "the input starts with \(describeByte(first)), which is not how GeoJSON, CSV, FDSN text or QuakeML starts",
                              hint: formatHint)
        }
    }

    /// The rest of an input that began with `Error` (read past it), as the HTTP error it is when
    /// it is an FDSN error document (FDSN Web Service Specifications 1.2, "Error documents":
    /// `Error 400: Bad Request`, a blank line, the explanation); nil when it is not one.
    private static func errorPage(_ input: ByteInput) throws(FeedError) -> HTTPByteStream.HTTPStatusError? {
        var rest: [UInt8] = []
        while rest.count < 8192, try input.ensure() {
            rest.append(input.buffer[input.pos])
            input.pos += 1
        }
        let text = String(decoding: rest, as: UTF8.self)
        let head = text.drop { $0 == " " }
        guard head.count >= 4, let status = Int(head.prefix(3)), (400...599).contains(status),
              head.dropFirst(3).first == ":" else { return nil }
        return HTTPByteStream.HTTPStatusError(status: status, body: "Error " + head)
    }

    static let formatHint =
        "expected a USGS GeoJSON or GeoJSONP feed, a USGS CSV file, EMSC or GeoNet GeoJSON, FDSN text, QuakeML 1.2, SeisComP SC3ML, or one of those gzip-compressed"
}

@inline(__always) private func isIdentifierByte(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
         UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."):
        return true
    default:
        return false
    }
}

@available(*, unavailable)
extension FeedReader: Sendable {}
