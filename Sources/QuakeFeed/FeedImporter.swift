import Foundation
import QuakeModel
import QuakeStore

/// What one import did: SPEC §6's summary and `quaketui import --json`'s object.
public struct ImportSummary: Codable, Sendable, Equatable {
    /// Reports stored that were not stored before: new quakes, and reports that joined a quake
    /// another agency reported (`joined`).
    public var inserted = 0
    /// Of `inserted`, the reports that joined a quake another agency reported (stored before, or
    /// in the same file): the same earthquake, not a new one (issue 53).
    public var joined = 0
    /// Quakes stored before that this import found to be another event's under ComCat's `ids`
    /// (a code ComCat merged into another event): merged into that event, their notes with it.
    public var merged = 0
    public var updated = 0
    public var unchanged = 0
    public var skipped = 0
    /// Stored reports its agency deleted (status `deleted`): hidden, their versions kept (issue 53).
    public var withdrawn = 0
    /// Stored USGS reports inside a refreshed summary feed's window that it no longer lists,
    /// marked `withdrawn` (`SummaryFeedWindow`, issue 53).
    public var absent = 0
    public var seconds = 0.0
    /// The first few skipped features: `feature 12 (line 14): no id`, `line 3: no Time`.
    public var skippedReasons: [String] = []
    /// The format read: `geoJSON`, `geoJSONP`, `csv`, `fdsnText` or `quakeML` (nil: not recorded).
    public var format: String?
    /// What the reader decided about the feed as a whole, e.g. that its times are in seconds.
    public var notes: [String] = []
    /// What replacing the bundled sample removed and kept, when this import replaced it.
    public var sampleReplaced: SampleReplacement?

    /// Usable quakes read (not counting skipped ones).
    public var imported: Int { inserted + updated + unchanged + withdrawn }

    /// The quakes the import added: its new reports but those that joined another agency's.
    public var newQuakes: Int { inserted - joined }

    /// `joined`, `merged`, `withdrawn` and `absent` are in the JSON only when not zero: `import --json`'s
    /// object is as it was for every import of one agency's reports that withdrew nothing.
    fileprivate enum CodingKeys: String, CodingKey {
        case inserted, joined, merged, updated, unchanged, skipped, withdrawn, absent, seconds, skippedReasons, format, notes, sampleReplaced
    }

    /// `imported 9,412 quakes (9,100 new, 300 updated, 12 unchanged, 2 skipped) in 0.41 s`; `new`
    /// counts the quakes added, and reports that joined a quake another agency reported are said
    /// apart (`; 2 joined quakes another agency reported`).
    public var sentence: String {
        "imported \(CountFormat.quakes(imported)) (\(CountFormat.grouped(newQuakes)) new, \(CountFormat.grouped(updated)) updated, "
            + "\(CountFormat.grouped(unchanged)) unchanged, \(CountFormat.grouped(skipped)) skipped\(joinedClause)\(Self.mergedClause(merged: merged))\(withdrawnClause)) "
            + "in \(String(format: "%.2f", seconds)) s"
    }

    private var joinedClause: String { Self.joinedClause(joined: joined) }

    /// `; 2 joined quakes another agency reported` when reports joined another agency's quakes
    /// (else nothing); `fetch`'s sentence says the same.
    public static func joinedClause(joined: Int) -> String {
        joined == 0 ? "" : "; \(CountFormat.grouped(joined)) joined \(joined == 1 ? "a quake" : "quakes") another agency reported"
    }

    /// `; 1 stored quake merged into the event ComCat lists it under` when ComCat's `ids` merged
    /// stored quakes into another event (else nothing); `fetch`'s sentence says the same.
    public static func mergedClause(merged: Int) -> String {
        merged == 0 ? "" : "; \(CountFormat.count(merged, "stored quake")) merged into "
            + (merged == 1 ? "the event ComCat lists it under" : "the events ComCat lists them under")
    }

    private var withdrawnClause: String { Self.withdrawnClause(withdrawn: withdrawn, absent: absent) }

    /// `; 1 deleted by its agency, hidden` when a record withdrew a stored report, and `; 2 no
    /// longer in the feed, marked withdrawn` (else nothing: SPEC §6's sentence as it was); the
    /// same words end `fetch`'s sentence.
    public static func withdrawnClause(withdrawn: Int, absent: Int = 0) -> String {
        (withdrawn == 0 ? "" : "; \(CountFormat.grouped(withdrawn)) deleted by \(withdrawn == 1 ? "its agency" : "their agencies"), hidden")
            + (absent == 0 ? "" : "; \(CountFormat.grouped(absent)) no longer in the feed, marked withdrawn")
    }
}

extension ImportSummary {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        inserted = try c.decode(Int.self, forKey: .inserted)
        joined = try c.decodeIfPresent(Int.self, forKey: .joined) ?? 0
        merged = try c.decodeIfPresent(Int.self, forKey: .merged) ?? 0
        updated = try c.decode(Int.self, forKey: .updated)
        unchanged = try c.decode(Int.self, forKey: .unchanged)
        skipped = try c.decode(Int.self, forKey: .skipped)
        withdrawn = try c.decodeIfPresent(Int.self, forKey: .withdrawn) ?? 0
        absent = try c.decodeIfPresent(Int.self, forKey: .absent) ?? 0
        seconds = try c.decode(Double.self, forKey: .seconds)
        skippedReasons = try c.decode([String].self, forKey: .skippedReasons)
        format = try c.decodeIfPresent(String.self, forKey: .format)
        notes = try c.decode([String].self, forKey: .notes)
        sampleReplaced = try c.decodeIfPresent(SampleReplacement.self, forKey: .sampleReplaced)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(inserted, forKey: .inserted)
        if joined != 0 { try c.encode(joined, forKey: .joined) }
        if merged != 0 { try c.encode(merged, forKey: .merged) }
        try c.encode(updated, forKey: .updated)
        try c.encode(unchanged, forKey: .unchanged)
        try c.encode(skipped, forKey: .skipped)
        if withdrawn != 0 { try c.encode(withdrawn, forKey: .withdrawn) }
        if absent != 0 { try c.encode(absent, forKey: .absent) }
        try c.encode(seconds, forKey: .seconds)
        try c.encode(skippedReasons, forKey: .skippedReasons)
        try c.encodeIfPresent(format, forKey: .format)
        try c.encode(notes, forKey: .notes)
        try c.encodeIfPresent(sampleReplaced, forKey: .sampleReplaced)
    }
}

/// Progress of a running import, reported every few thousand quakes.
public struct ImportProgress: Sendable {
    public var bytesRead: Int64
    public var totalBytes: Int64?
    public var quakes: Int
    public var elapsed: TimeInterval

    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }
    public var quakesPerSecond: Double { elapsed > 0 ? Double(quakes) / elapsed : 0 }
    public var remaining: TimeInterval? {
        guard let fraction, fraction > 0.02 else { return nil }
        return elapsed * (1 - fraction) / fraction
    }
}

/// Imports a feed into the store: one reader, one write transaction, one history entry.
///
/// All or nothing: a syntax error, an I/O error, a cancellation or a kill rolls the whole
/// import back, so the store is exactly as before.
///
/// ```swift
/// let importer = try FeedImporter(container: container, author: "import")
/// let summary = try importer.run(try FeedReader(path: "all_month.geojson")) { progress in … }
/// ```
public final class FeedImporter: @unchecked Sendable {
    // @unchecked: `cancelled` is only touched under `lock`; the context is itself thread-safe.
    private let context: BackgroundContext
    private let lock = NSLock()
    private var cancelled = false

    public init(container: PersistentContainer, author: String = "import") throws(StoreError) {
        context = try container.newBackgroundContext(author: author)
    }

    deinit { context.close() }

    /// Reads every record from `reader` and upserts it in one transaction, parsing ahead on a
    /// second thread (``FeedReader/startReadingAhead(batchSize:batches:)``) if the reader has
    /// not been read from yet.
    ///
    /// - Parameters:
    ///   - transform: adjusts each record before it is stored (the bundled sample shifts times).
    ///   - replacingSample: removes the bundled sample in the same transaction, if the store holds
    ///     it (SPEC §6: real data replaces the sample); the summary says what went and what stayed.
    ///   - beforeCommit: runs in the transaction after the last record (e.g. to mark or clear the sample).
    ///   - window: the feed is a USGS summary feed covering this window (a refresh): stored USGS
    ///     reports inside it that the feed no longer lists are marked `withdrawn`, at `now`.
    ///   - progress: called on the importing thread about every 4,096 quakes and at the end.
    /// - Throws: `FeedError` (nothing stored) or `StoreError` (nothing stored).
    public func run(
        _ reader: FeedReader,
        transform: ((inout QuakeRecord) -> Void)? = nil,
        replacingSample: Bool = false,
        beforeCommit: ((WriteTransaction) throws -> Void)? = nil,
        window: SummaryFeedWindow? = nil,
        now: Date = Date(),
        progress: (ImportProgress) -> Void = { _ in }
    ) throws -> ImportSummary {
        // What a summary feed lists, to tell which stored reports of its window it no longer does.
        var listed: Set<String> = []
        var newest: Int64?
        let start = Date()
        // Parse on the second core while this thread binds and steps INSERTs (SPEC §9: JSON
        // parsing nearly free). Results, skips and errors are exactly those of the plain reader.
        reader.startReadingAhead()
        func report(_ quakes: Int) {
            progress(ImportProgress(bytesRead: reader.bytesRead, totalBytes: reader.totalBytes, quakes: quakes,
                                    elapsed: Date().timeIntervalSince(start)))
        }
        // The write lock is taken once the first record is read, not before: a server that
        // sends its head and then trickles (or nothing) keeps no other writer waiting (issue 57).
        let first = try reader.next()
        var tookFirst = false
        if self.isCancelled { throw StoreError(.cancelled, path: self.context.storePathForErrors) }
        var absent = 0
        // Read once association has decided, as the transaction commits.
        var transaction: WriteTransaction?
        let (counts, replaced) = try context.performAndWait(importing: true) { tx -> (UpsertCounts, SampleReplacement?) in
            transaction = tx
            tx.keptFields = reader.absentFields  // known once the first record is read
            _ = try tx.upsert(from: { () throws -> QuakeRecord? in
                if self.isCancelled { throw StoreError(.cancelled, path: self.context.storePathForErrors) }
                let next = tookFirst ? try reader.next() : first
                tookFirst = true
                guard var record = next else { return nil }
                transform?(&record)
                if window != nil {
                    listed.insert(record.code)
                    newest = max(newest ?? record.time, record.time)
                }
                return record
            }, progress: { counts in report(counts.inserted + counts.updated + counts.unchanged) })
            // One earthquake ComCat published under two codes, then merged, is one quake.
            try tx.mergeComCatAliases(reader.comCatAliases)
            let counts = tx.counts
            // A file whose every record was skipped is not a success that stored nothing.
            if counts.inserted + counts.updated + counts.unchanged + counts.withdrawn == 0, reader.skippedCount > 0 {
                throw FeedError.everyRecordSkipped(name: reader.name, count: reader.skippedCount, first: reader.skipped)
            }
            let replaced = replacingSample ? try SampleCatalogue.removeSample(in: tx) : nil
            if let window, let newest {
                // From the window's old end (with a margin) to the newest report listed: what
                // lies after that, the feed may not have held yet.
                let from = Int64(((now.timeIntervalSince1970 - window.duration + SummaryFeedWindow.edgeMargin) * 1000).rounded(.up))
                absent = try tx.markAbsent(agency: "usgs", listed: listed, from: from, through: newest,
                                           minimumMagnitude: window.minimumMagnitude)
            }
            try beforeCommit?(tx)
            return (counts, replaced)
        }
        var summary = ImportSummary(inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged,
                                    skipped: reader.skippedCount, withdrawn: counts.withdrawn, absent: absent, seconds: Date().timeIntervalSince(start),
                                    skippedReasons: reader.skipped.map(\.description),
                                    format: reader.format.rawValue, notes: reader.notes, sampleReplaced: replaced)
        summary.joined = transaction?.joinedCount ?? 0
        summary.merged = transaction?.mergedCount ?? 0
        summary.seconds = Date().timeIntervalSince(start)
        report(summary.imported)
        return summary
    }

    /// Stops a running import from another thread; it rolls back and throws `StoreError.cancelled`.
    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
        context.cancel()
    }

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}
