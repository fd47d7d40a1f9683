import Foundation
import QuakeStore

/// Pages through an FDSN event service one time window at a time, each window streamed into
/// its own atomic import, and resumes an interrupted fetch where it stopped.
///
/// - **Windows** stay under the service's limit adaptively: a window whose answer reaches the
///   limit (or is refused with HTTP 413, or 400 "exceeds … limit") is halved and asked again;
///   after each window the next one is sized to about half the limit.
/// - **Polite**: one request at a time, a clear User-Agent; HTTP 429 and 503 wait for
///   `Retry-After` (at most ``maximumRetryAfter``) and ask again; 500/502/504, network errors
///   and truncated bodies are retried a few times with back-off, a download that timed out
///   once; 204 is a window without events.
/// - **Resumable**: the progress (query, range, the next window's start and size) is stored in
///   the store's `meta` table in the same transaction as each window's quakes, so after ctrl-c
///   or `kill -9` the same command goes on from the first unfinished window and never asks
///   for a finished one again.
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
        public var updated = 0
        public var unchanged = 0
        public var skipped = 0
        public var seconds = 0.0
        /// Whether this run continued an interrupted fetch, and from when.
        public var resumed: Bool
        public var resumedFrom: String?
        /// What replacing the bundled sample removed and kept, when this run replaced it.
        public var sampleReplaced: SampleReplacement?
    }

    public static let initialWindow: Int64 = 30 * 86_400_000
    public static let minimumWindow: Int64 = 1000
    public static let maximumRetryAfter: TimeInterval = 120
    static let maximumAttempts = 8

    private let query: FDSNQuery
    private let container: PersistentContainer
    private let userAgent: String
    private let sleep: (TimeInterval) -> Void
    private let note: (String) -> Void

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
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in identity.utf8 { h = (h ^ UInt64(b)) &* 0x0100_0000_01b3 }
        return "fetch." + String(h, radix: 16)
    }

    /// The stored progress of the fetch `identity`, if any.
    public static func record(identity: String, in container: PersistentContainer) throws -> Record? {
        let text = try container.viewContext.read { try $0.metaValue(key(identity: identity)) }
        return text.flatMap { try? JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
    }

    private struct LimitReached: Error {}

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
        var attempts = 0
        while !state.done {
            let windowEnd = min(state.end, state.cursor + max(Self.minimumWindow, state.window))
            let url = query.url(from: state.cursor, to: windowEnd, limit: query.limit)
            summary.requests += 1
            var next = state
            next.cursor = windowEnd
            next.windows += 1
            next.done = windowEnd >= state.end
            let outcome = attempt(url: url, from: state.cursor, to: windowEnd, next: next, key: key) {
                report(cursor: state.cursor, extra: $0)
            }
            var counts = UpsertCounts()
            var skipped = 0
            switch outcome {
            case .stored(let stored, let result):
                next = stored
                counts = UpsertCounts(inserted: result.inserted, updated: result.updated, unchanged: result.unchanged)
                skipped = result.skipped
                if let replaced = result.sampleReplaced { summary.sampleReplaced = replaced }
            case .limitReached:
                state.window = max(Self.minimumWindow, (windowEnd - state.cursor) / 2)
                note("the window from \(FDSNQuery.format(state.cursor))Z reached the service's limit of \(query.limit) events; halving it")
                continue
            case .failed(let error):
                let feedError = error as? FeedError
                if let status = feedError?.underlyingError as? HTTPByteStream.HTTPStatusError {
                    if status.status == 413 || (status.status == 400 && Self.mentionsLimit(status.body)) {
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
                    throw FDSNFetchError(HTTPByteStream.describe(status, url: url) + "; the windows fetched so far are kept — run the same command again to continue")
                }
                // A dropped connection or a truncated body: nothing of this window was stored.
                // A timeout is asked again once: a glitch gets its second chance, and a server
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
                throw Self.keeping(state, error)
            }
            attempts = 0
            state = next
            quakesThisRun += counts.inserted + counts.updated + counts.unchanged + skipped
            summary.inserted += counts.inserted
            summary.updated += counts.updated
            summary.unchanged += counts.unchanged
            summary.skipped += skipped
            summary.windows = state.windows
            summary.quakes = state.quakes
            report(cursor: state.cursor, extra: 0)
        }
        summary.seconds = Date().timeIntervalSince(began)
        return summary
    }

    private enum Outcome {
        case stored(Record, ImportSummary)
        case limitReached
        case failed(any Error)
    }

    /// Asks for one window and imports it with the progress `next` (completed with its counts
    /// and the next window's size) in the same transaction.
    private func attempt(url: URL, from start: Int64, to windowEnd: Int64, next: Record, key: String,
                         progress: (Int) -> Void) -> Outcome {
        var next = next
        let stream: HTTPByteStream
        do {
            stream = try HTTPByteStream(url: url, timeout: 60, userAgent: userAgent)
        } catch {
            return .failed(error)
        }
        defer { if stream.statusCode == 204 { stream.close() } }
        let opened = Result { () throws(FeedError) -> FeedReader? in
            stream.statusCode == 204 ? nil : try FeedReader(source: .stream(stream), name: url.absoluteString, agency: query.agency)
        }
        let reader: FeedReader
        var empty = false
        switch opened {
        case .success(let value?):
            reader = value
        case .success(nil):
            empty = true
            reader = try! FeedReader(source: .bytes(Array("#\n".utf8)), name: "")
        case .failure(let error):
            guard error.code == .emptyInput else { return .failed(error) }
            empty = true
            reader = try! FeedReader(source: .bytes(Array("#\n".utf8)), name: "")
        }
        if empty {
            // 204, or an empty body: a window without events.
            next.window = min(max(windowEnd - start, Self.minimumWindow) * 4, Self.maximumWindow)
            do {
                try commit(next, key: key)
            } catch {
                return .failed(error)
            }
            return .stored(next, ImportSummary())
        }
        let windowLength = windowEnd - start
        let limit = query.limit
        do {
            let importer = try FeedImporter(container: container, author: "fetch")
            let result = try importer.run(reader, replacingSample: true, beforeCommit: { tx in
                let read = tx.counts.inserted + tx.counts.updated + tx.counts.unchanged + reader.skippedCount
                if read >= limit {
                    if windowLength > Self.minimumWindow { throw LimitReached() }
                    self.note("more than \(limit) events within one second at \(FDSNQuery.format(windowEnd))Z; the service may have left some out")
                }
                next.quakes += read
                // Aim the next window at half the limit, from this window's density.
                let factor = min(4, max(0.25, Double(limit) / 2 / Double(max(read, 1))))
                next.window = max(Self.minimumWindow, min(Self.maximumWindow, Int64(Double(max(windowLength, Self.minimumWindow)) * factor)))
                try tx.connection.setMetaValue(Self.encode(next), for: key)
            }) { progress($0.quakes) }
            return .stored(next, result)
        } catch is LimitReached {
            return .limitReached
        } catch {
            return .failed(error)
        }
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

    /// Stores the progress alone (a window without events).
    private func commit(_ record: Record, key: String) throws {
        let context = try container.newBackgroundContext(author: "fetch")
        defer { context.close() }
        try context.performAndWait { tx in try tx.connection.setMetaValue(Self.encode(record), for: key) }
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

    private static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(t)) s" : String(format: "%.1f s", t)
    }
}

/// A fetch that could not go on, as one sentence.
public struct FDSNFetchError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
