import Foundation
import QuakeModel
import QuakeStore

/// Pages through an FDSN event service one time window at a time, each window streamed into
/// the store, and resumes an interrupted fetch where it stopped.
///
/// - **Commits** take several windows: until the transaction holds four times the quakes the
///   store held (at least ``minimumGroup``), or has been open ``maximumGroupSeconds``, or a window
///   failed (committed before any wait, with what that window stored: real events of its range,
///   merged again when it is asked again, and counted once). A commit per window rewrote every
///   index page it touched and put the windows after the first into their indexes row by row;
///   one commit of many windows sorts them once, as `import` does (200,000 quakes from a local
///   service: 7.1 s of CPU → 4.3 s, beside 3.5 s for `import` of the same events).
///
/// - **Windows** stay under the service's limit adaptively: a window whose answer reaches the
///   limit (or is refused with HTTP 413, or 400 "exceeds … limit") is halved and asked again;
///   after each window the next one is sized to about half the limit. The smallest window is
///   ``minimumWindow`` (1 s): a refusal of that ends the fetch, as does an answer with more
///   events than `limit` asked for (a service that ignores it), each in one sentence that names
///   the answer, the window and what to try (issue 57).
/// - **Polite**: one request at a time, all through one download helper (`DownloadSession`), a
///   clear User-Agent; HTTP 429 and 503 wait for `Retry-After` (at most ``maximumRetryAfter``)
///   and ask again; 500/502/504, network errors and truncated bodies are retried a few times
///   with back-off, a download that timed out once; 204 is a window without events. A status
///   still failing after ``maximumAttempts`` retries ends the fetch, saying how many times.
/// - **Resumable**: the progress (query, range, the next window's start and size) is stored in
///   the store's `meta` table in the same transaction as each window's quakes, so after ctrl-c
///   or `kill -9` the same command goes on from the first uncommitted window and never asks
///   for a committed one again.
public final class FDSNFetch {
    /// Where a fetch is: stored as JSON in `meta` under `fetch.<hash of the query>`.
    public struct Record: Codable, Sendable, Equatable {
        public var identity: String
        public var start: Int64
        public var end: Int64
        /// The start of the next window (windows share their boundary instant: both ends are inclusive).
        public var cursor: Int64
        /// The next window's length, ms.
        public var window: Int64
        public var windows: Int
        public var quakes: Int
        public var done: Bool
    }

    /// What the progress bar shows.
    public struct Progress: Sendable {
        /// Share of the time range done, 0…1.
        public var fraction: Double
        public var windows: Int
        public var quakes: Int
        public var elapsed: TimeInterval
        public var quakesPerSecond: Double
        public var remaining: TimeInterval?
    }

    /// `fetch --json`'s object.
    public struct Summary: Codable, Sendable {
        public var service: String
        public var source: String
        public var start: String
        public var end: String
        /// Windows finished over every run of this fetch, and quakes read in them.
        public var windows: Int
        public var quakes: Int
        /// This run: requests made, and what its windows did to the store.
        public var requests: Int
        public var retries: Int
        public var inserted = 0
        /// Of `inserted`, the reports that joined a quake another agency reported (as `import`
        /// counts them); nil (left out of the JSON) when none did.
        public var joined: Int?
        /// Quakes stored before that ComCat's `ids` merged into another event (as `import`
        /// counts them); nil (left out of the JSON) when none were.
        public var merged: Int?
        public var updated = 0
        public var unchanged = 0
        public var skipped = 0
        /// Stored reports a record of status `deleted` withdrew (hidden, their versions kept;
        /// issue 53), as `import` counts them.
        public var withdrawn = 0
        public var seconds = 0.0
        /// Whether this run continued an interrupted fetch, and from when.
        public var resumed: Bool
        public var resumedFrom: String?
        /// What replacing the bundled sample removed and kept, when this run replaced it.
        public var sampleReplaced: SampleReplacement?
    }

    public static let initialWindow: Int64 = 30 * 86_400_000
    /// The smallest window asked for, in ms: a service that refuses this one (HTTP 413) refuses the
    /// query, not its size, and the fetch ends.
    public static let minimumWindow: Int64 = 1000
    public static let maximumRetryAfter: TimeInterval = 120
    static let maximumAttempts = 8

    private let query: FDSNQuery
    private let container: PersistentContainer
    private let userAgent: String
    private let sleep: (TimeInterval) -> Void
    private let note: (String) -> Void
    /// What replacing the bundled sample removed and kept, once a window replaced it.
    private var sampleReplaced: SampleReplacement?
    /// The smallest windows in a row that came back full (`limit` events in a second).
    private var fullSmallestWindows = 0
    /// How many full smallest windows in a row end the fetch: no real catalogue holds `limit`
    /// events a second for seconds on end, so the service pages nothing (it fills every answer).
    static let fullSmallestWindowsAtMost = 3
    /// One download helper for every window (60 s stall limit: a service may think long before
    /// it answers a large window).
    private let downloads = DownloadSession(timeout: 60)

    /// - Parameters:
    ///   - note: told about waits and retries, one sentence each.
    public init(query: FDSNQuery, container: PersistentContainer, userAgent: String,
                sleep: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                note: @escaping (String) -> Void = { _ in }) {
        self.query = query
        self.container = container
        self.userAgent = userAgent
        self.sleep = sleep
        self.note = note
    }

    /// The `meta` key of a fetch.
    public static func key(identity: String) -> String {
        "fetch." + String(fnv1a(identity.utf8), radix: 16)
    }

    /// The stored progress of the fetch `identity`, if any.
    public static func record(identity: String, in container: PersistentContainer) throws -> Record? {
        let text = try container.viewContext.read { try $0.metaValue(key(identity: identity)) }
        return text.flatMap { try? JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
    }

    /// Runs the fetch to its end (or resumes it).
    /// - Parameter identity: ``FDSNQuery/identity(startText:endText:)``: the same text resumes.
    /// - Throws: `FDSNFetchError` with one sentence (HTTP errors with the service's own
    ///   explanation), `FeedError` or `StoreError`. Finished windows stay stored.
    public func run(identity: String, progress: (Progress) -> Void = { _ in }) throws -> Summary {
        let began = Date()
        let key = Self.key(identity: identity)
        var state: Record
        var resumed = false
        if let saved = try Self.record(identity: identity, in: container), !saved.done, saved.identity == identity {
            state = saved
            resumed = true
        } else {
            state = Record(identity: identity, start: query.start, end: query.end, cursor: query.start,
                           window: Self.initialWindow, windows: 0, quakes: 0, done: false)
        }
        var summary = Summary(service: query.baseURL, source: query.agency, start: FDSNQuery.format(state.start) + "Z",
                              end: FDSNQuery.format(state.end) + "Z", windows: state.windows, quakes: state.quakes,
                              requests: 0, retries: 0, resumed: resumed,
                              resumedFrom: resumed ? FDSNQuery.format(state.cursor) + "Z" : nil)
        let span = Double(max(1, state.end - state.start))
        let fractionAtStart = Double(state.cursor - state.start) / span
        var quakesThisRun = 0
        func report(cursor: Int64, extra: Int) {
            let elapsed = Date().timeIntervalSince(began)
            let fraction = min(1, Double(cursor - state.start) / span)
            let done = fraction - fractionAtStart
            progress(Progress(fraction: fraction, windows: state.windows, quakes: state.quakes + extra, elapsed: elapsed,
                              quakesPerSecond: elapsed > 0 ? Double(quakesThisRun + extra) / elapsed : 0,
                              remaining: done > 0.001 ? elapsed * (1 - fraction) / done : nil))
        }
        report(cursor: state.cursor, extra: 0)
        let context = try container.newBackgroundContext(author: "fetch")
        defer { context.close() }
        var attempts = 0
        // A window that did not finish keeps what it stored; asked again, those quakes come back
        // unchanged, so they are counted as what they were the first time, and once.
        var askedAgain = 0
        func keep(_ partial: UpsertCounts) {
            summary.inserted += partial.inserted
            summary.updated += partial.updated
            summary.withdrawn += partial.withdrawn
            askedAgain += partial.inserted + partial.updated + partial.withdrawn
        }
        // What the store holds (the state as of the last commit), for an error's "kept" sentence.
        var committed = state
        while !state.done {
            // One transaction takes windows until it holds four times what the store held (a store
            // that grows geometrically is rebuilt a bounded number of times), `maximumGroupSeconds`
            // passed, another writer waits for the lock, or a window failed (committed before any wait).
            var failure: (error: any Error, url: URL, windowEnd: Int64)?
            do {
                var transaction: WriteTransaction?
                try context.performAndWait(importing: true) { tx in
                    transaction = tx
                    let groupBegan = Date()
                    // max(id) bounds the row count from above in O(log n), as an import's does.
                    let rowsBefore = Int(try tx.connection.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0)
                    let target = max(Self.minimumGroup, 4 * rowsBefore)
                    var groupQuakes = 0, groupInserted = 0
                    // Rows that will outnumber the store go in without their indexes, rebuilt once at
                    // the commit, as one large import does: when this run's pace says the group will
                    // get there in time, from the start, else once it has.
                    let elapsed = groupBegan.timeIntervalSince(began)
                    let pace = elapsed > 0 ? Double(quakesThisRun) / elapsed : 0
                    if quakesThisRun > 0, pace * Self.maximumGroupSeconds >= Double(rowsBefore) { try tx.deferIndexes() }
                    while !state.done {
                        if !tx.areIndexesDeferred, groupInserted >= max(1_000, rowsBefore) { try tx.deferIndexes() }
                        let windowEnd = min(state.end, state.cursor + max(Self.minimumWindow, state.window))
                        let url = query.url(from: state.cursor, to: windowEnd, limit: query.limit)
                        summary.requests += 1
                        var next = state
                        next.cursor = windowEnd
                        next.windows += 1
                        next.done = windowEnd >= state.end
                        let cursor = state.cursor
                        let outcome = try window(tx, url: url, from: state.cursor, to: windowEnd, next: next, key: key) {
                            report(cursor: cursor, extra: $0)
                        }
                        switch outcome {
                        case .stored(let stored, let counts, let skipped):
                            attempts = 0
                            state = stored
                            let read = Self.stored(counts) + skipped
                            groupQuakes += read
                            groupInserted += counts.inserted
                            quakesThisRun += read
                            summary.inserted += counts.inserted
                            summary.updated += counts.updated
                            summary.unchanged += counts.unchanged
                            summary.skipped += skipped
                            summary.withdrawn += counts.withdrawn
                            summary.windows = state.windows
                            summary.quakes = state.quakes
                            report(cursor: state.cursor, extra: 0)
                        case .limitReached(let partial):
                            keep(partial)
                            state.window = max(Self.minimumWindow, (windowEnd - state.cursor) / 2)
                            note("the window from \(FDSNQuery.format(state.cursor))Z reached the service's limit of \(query.limit) events; halving it")
                            continue
                        case .failed(let error, let partial):
                            keep(partial)
                            failure = (error, url, windowEnd)
                        }
                        // Another writer waiting (a notes save, a delete) gets the lock after this
                        // window, not after the group's 5 s (issue 57).
                        if failure != nil || groupQuakes >= target || Date().timeIntervalSince(groupBegan) >= Self.maximumGroupSeconds
                            || context.isWriterWaiting { break }
                    }
                    try tx.restoreDeferredIndexes()
                }
                // Association has decided as the group committed.
                if let joined = transaction?.joinedCount, joined > 0 { summary.joined = (summary.joined ?? 0) + joined }
                if let merged = transaction?.mergedCount, merged > 0 { summary.merged = (summary.merged ?? 0) + merged }
                committed = state
            } catch {
                throw Self.keeping(committed, error)
            }
            guard let (error, url, windowEnd) = failure else { continue }
            // The windows before the failed one are committed, with what it stored before failing.
            let feedError = error as? FeedError
            if let status = feedError?.underlyingError as? HTTPByteStream.HTTPStatusError {
                if status.status == 413 || (status.status == 400 && Self.mentionsLimit(status.body)) {
                    // At the smallest window a refusal is of the query, not of its size: halving
                    // further is the same request again (it asked for one second 20 times a second).
                    guard windowEnd - state.cursor > Self.minimumWindow else {
                        throw FDSNFetchError("The service answered \(Self.answer(status)) even for the smallest window, "
                            + "\(Self.seconds(Double(Self.minimumWindow) / 1000)) (from \(FDSNQuery.format(state.cursor))Z), so no window "
                            + "is small enough for it; the windows fetched so far are kept: try a narrower query (a higher "
                            + "--min-magnitude, a smaller region) or another --service")
                    }
                    state.window = max(Self.minimumWindow, (windowEnd - state.cursor) / 2)
                    note("HTTP \(status.status): the window from \(FDSNQuery.format(state.cursor))Z is too large for the service; halving it")
                    continue
                }
                if [429, 500, 502, 503, 504].contains(status.status), attempts < Self.maximumAttempts {
                    attempts += 1
                    summary.retries += 1
                    let wait = min(Self.maximumRetryAfter, status.retryAfter ?? Double(1 << min(attempts, 6)))
                    note("HTTP \(status.status) from the service; asking again in \(Self.seconds(wait))\(status.retryAfter != nil ? " as it asked (Retry-After)" : "")")
                    sleep(wait)
                    continue
                }
                if [429, 500, 502, 503, 504].contains(status.status) {
                    let because = status.explanation.map { ": \($0.hasSuffix(".") ? String($0.dropLast()) : $0)" } ?? ""
                    throw FDSNFetchError("The service answered \(Self.answer(status)) \(attempts + 1) times in a row for the window "
                        + "from \(FDSNQuery.format(state.cursor))Z to \(FDSNQuery.format(windowEnd))Z (\(url.absoluteString))\(because); "
                        + "the windows fetched so far are kept: run the same command again later to continue")
                }
                throw FDSNFetchError(HTTPByteStream.describe(status, url: url) + "; the windows fetched so far are kept — run the same command again to continue")
            }
            // A dropped connection or a truncated body: the window is asked for again (what it
            // stored before it broke comes back unchanged). A timeout is asked again once: a glitch gets its second chance, and a server
            // that trickles costs two deadlines, not eight.
            if let feedError, [.cannotOpen, .readFailed, .unexpectedEnd, .syntax, .corruptCompressedData].contains(feedError.code),
               attempts < (HTTPByteStream.isTimeout(feedError) ? 1 : feedError.code == .cannotOpen ? 3 : Self.maximumAttempts) {
                attempts += 1
                summary.retries += 1
                let wait = Double(1 << min(attempts - 1, 5))
                note("\(feedError.message); asking for the window again in \(Self.seconds(wait))")
                sleep(wait)
                continue
            }
            // A download that broke every time says so, and that what came before is kept, as
            // the services' own refusals do.
            if let feedError, state.windows > 0 {
                var said = feedError.description
                while said.hasSuffix(".") { said.removeLast() }
                throw FDSNFetchError(said + " (the window from \(FDSNQuery.format(state.cursor))Z asked for \(attempts + 1) "
                    + "\(attempts == 0 ? "time" : "times")); the windows fetched so far are kept: run the same command again to continue")
            }
            throw Self.keeping(state, error)
        }
        summary.unchanged = max(0, summary.unchanged - askedAgain)
        summary.seconds = Date().timeIntervalSince(began)
        summary.sampleReplaced = sampleReplaced
        return summary
    }

    /// A transaction takes windows until it holds this many quakes, or four times the store's
    /// rows before it, whichever is more (or until ``maximumGroupSeconds``, which usually comes
    /// first): a store that grows fivefold between rebuilds of its indexes rebuilds them, in all,
    /// about 1.25 times its final size.
    static let minimumGroup = 1_000_000
    /// …or until it has been open this long (at a window's end): browsers see the quakes and
    /// may write their notes at least this often. `QUAKETUI_FETCH_COMMIT_SECONDS` replaces it
    /// (measurements under valgrind, which runs 50 times slower than the clock assumes).
    static let maximumGroupSeconds: TimeInterval =
        ProcessInfo.processInfo.environment["QUAKETUI_FETCH_COMMIT_SECONDS"].flatMap { TimeInterval($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 5

    /// What a window did; `partial`: what a window that did not finish stored all the same.
    private enum Outcome {
        case stored(Record, UpsertCounts, skipped: Int)
        case limitReached(partial: UpsertCounts)
        case failed(any Error, partial: UpsertCounts)
    }

    /// Asks for one window and upserts it in `tx`, with the progress `next` (completed with its
    /// counts and the next window's size) when it finishes.
    /// - Throws: a store error, which rolls back the whole transaction; the feed's are outcomes.
    private func window(_ tx: WriteTransaction, url: URL, from start: Int64, to windowEnd: Int64, next: Record, key: String,
                        progress: (Int) -> Void) throws -> Outcome {
        var next = next
        let stream: HTTPByteStream
        do {
            stream = try HTTPByteStream(url: url, userAgent: userAgent, session: downloads)
        } catch {
            return .failed(error, partial: UpsertCounts())
        }
        defer { if stream.statusCode == 204 { stream.close() } }
        let opened = Result { () throws(FeedError) -> FeedReader? in
            stream.statusCode == 204 ? nil : try FeedReader(source: .stream(stream), name: url.absoluteString, agency: query.agency)
        }
        let reader: FeedReader
        switch opened {
        case .success(let value?):
            reader = value
        case .success(nil):
            return try emptyWindow(tx, from: start, to: windowEnd, next: next, key: key)
        case .failure(let error):
            guard error.code == .emptyInput else { return .failed(error, partial: UpsertCounts()) }
            return try emptyWindow(tx, from: start, to: windowEnd, next: next, key: key)
        }
        let windowLength = windowEnd - start
        let limit = query.limit
        let before = tx.counts
        func windowCounts() -> UpsertCounts {
            let now = tx.counts
            return UpsertCounts(inserted: now.inserted - before.inserted, updated: now.updated - before.updated,
                                unchanged: now.unchanged - before.unchanged, withdrawn: now.withdrawn - before.withdrawn)
        }
        // Parse on the second core while this thread steps the inserts, as an import does.
        reader.startReadingAhead()
        tx.keptFields = reader.absentFields
        defer { tx.keptFields = [] }
        do {
            _ = try tx.upsert(from: { try reader.next() }, keepingPartialInput: true, progress: { _ in
                progress(Self.stored(windowCounts()))
            })
        } catch let error as FeedError {
            // Part of the window is stored: real events of its range, merged again when the
            // window is asked again. (A savepoint per window, to take them back, made every
            // statement walk SQLite's in-memory sub-journal: 60 s of CPU for 200,000 quakes.)
            if let replaced = try SampleCatalogue.removeSample(in: tx) { sampleReplaced = replaced }
            return .failed(error, partial: windowCounts())
        }
        // One earthquake ComCat published under two codes, then merged, is one quake.
        try tx.mergeComCatAliases(reader.comCatAliases)
        let counts = windowCounts()
        let stored = Self.stored(counts)
        // A window whose every record was skipped is not a success that stored nothing.
        if stored == 0, reader.skippedCount > 0 {
            return .failed(FeedError.everyRecordSkipped(name: reader.name, count: reader.skippedCount, first: reader.skipped),
                           partial: counts)
        }
        let read = stored + reader.skippedCount
        if read > limit {
            // More than asked for: the service ignores `limit`, so no window can be sized by it
            // (halving would walk the span one second per request: 172,800 requests for two days).
            return .failed(FDSNFetchError("The service sent \(read.formatted()) events for the window from "
                + "\(FDSNQuery.format(start))Z to \(FDSNQuery.format(windowEnd))Z where at most \(limit.formatted()) were asked for "
                + "(limit=\(limit)): it ignores limit, so the fetch cannot size its windows; the windows fetched so far are kept: "
                + "import the service's answer for the whole span with quaketui import URL, or use another --service"),
                           partial: counts)
        }
        if read >= limit {
            // Its events stay stored (they are the range's), and its halves are asked for.
            if windowLength > Self.minimumWindow { return .limitReached(partial: counts) }
            fullSmallestWindows += 1
            // A service that fills every answer, whatever the window, would be walked a second a
            // request without end (172,800 requests for two days).
            if fullSmallestWindows >= Self.fullSmallestWindowsAtMost {
                return .failed(FDSNFetchError("The service sent a full page (\(limit.formatted()) events, limit=\(limit)) for "
                    + "\(fullSmallestWindows) windows of one second in a row, the last from \(FDSNQuery.format(start))Z: no window is "
                    + "small enough to page it (no catalogue holds that many quakes a second for long), so the fetch stops; the "
                    + "windows fetched so far are kept: try a narrower query (a higher --min-magnitude, a smaller region) or another --service"),
                               partial: counts)
            }
            note("more than \(limit) events within one second at \(FDSNQuery.format(windowEnd))Z; the service may have left some out")
        } else {
            fullSmallestWindows = 0
        }
        if let replaced = try SampleCatalogue.removeSample(in: tx) { sampleReplaced = replaced }
        next.quakes += read
        // Aim the next window at half the limit, from this window's density.
        let factor = min(4, max(0.25, Double(limit) / 2 / Double(max(read, 1))))
        next.window = max(Self.minimumWindow, min(Self.maximumWindow, Int64(Double(max(windowLength, Self.minimumWindow)) * factor)))
        try tx.connection.setMetaValue(Self.encode(next), for: key)
        return .stored(next, counts, skipped: reader.skippedCount)
    }

    /// The records of a window the store took: new, updated, unchanged, and those that withdrew
    /// a stored report (a record of status `deleted` is read, not skipped).
    static func stored(_ counts: UpsertCounts) -> Int {
        counts.inserted + counts.updated + counts.unchanged + counts.withdrawn
    }

    /// A 204, or an empty body: a window without events; the next one is larger.
    private func emptyWindow(_ tx: WriteTransaction, from start: Int64, to windowEnd: Int64, next: Record, key: String) throws -> Outcome {
        var next = next
        next.window = min(max(windowEnd - start, Self.minimumWindow) * 4, Self.maximumWindow)
        try tx.connection.setMetaValue(Self.encode(next), for: key)
        return .stored(next, UpsertCounts(), skipped: 0)
    }

    static let maximumWindow: Int64 = 3650 * 86_400_000

    /// A store error after windows were stored says they are kept, not "nothing was changed"
    /// (which is true of the failed window only): the same command continues from them.
    static func keeping(_ state: Record, _ error: any Error) -> any Error {
        guard state.windows > 0, var store = error as? StoreError else { return error }
        store.kept = "The window being fetched was not stored; the \(state.windows == 1 ? "window" : "\(state.windows.formatted()) windows") "
            + "before it (\(state.quakes.formatted()) quakes) \(state.windows == 1 ? "is" : "are") kept"
        return store
    }

    private static func encode(_ record: Record) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(record)) ?? Data(), as: UTF8.self)
    }

    private static func mentionsLimit(_ body: String) -> Bool {
        let lower = body.lowercased()
        return lower.contains("limit") || lower.contains("too many") || lower.contains("too large")
    }

    /// The status and its reason phrase: "HTTP 413 (Content Too Large)".
    private static func answer(_ status: HTTPByteStream.HTTPStatusError) -> String {
        "HTTP \(status.status)" + (HTTPByteStream.reasons[status.status].map { " (\($0))" } ?? "")
    }

    private static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(t)) s" : String(format: "%.1f s", t)
    }
}

/// A fetch that could not go on, as one sentence.
public struct FDSNFetchError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
