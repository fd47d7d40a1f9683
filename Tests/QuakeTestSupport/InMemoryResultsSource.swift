import Foundation
import QuakeModel
import QuakeStore

/// A `ResultsSource` over quakes held in memory, for `BrowserModel`'s tests: no SQLite, every
/// call answers at once, and `failure` makes the next calls throw (changing nothing), so a
/// test can check that a failed action leaves the model's state as it was.
///
/// It sorts and sections like the store (days in the request's time zone, magnitude buckets,
/// regions; ties broken by insertion order) without claiming the store's exact tie-breaks:
/// store behaviour is tested against the store.
///
/// ```swift
/// let source = InMemoryResultsSource([.fixture("a"), .fixture("b")])
/// let model = try BrowserModel(state: AppState(sceneID: "t"), source: source)
/// source.upsert(.fixture("c"))          // "another process" commits
/// try model.send(.storeChanged)         // merged, like a history merge
/// ```
public final class InMemoryResultsSource: ResultsSource {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public private(set) var request: SectionedFetchRequest
    public private(set) var sections: [QuakeSection] = []
    public private(set) var count = 0
    public var rowsMaterialized: Int { 0 }
    /// When set, every throwing call throws it and changes nothing.
    public var failure: Failure?
    /// When set, the next throwing call throws it and changes nothing (a transient read error).
    public var failureOnce: Failure?
    /// How many times `configure` was applied (fetches the model asked for).
    public private(set) var configureCount = 0
    /// When set, `configure(_:around:)` answers like a store over budget (`ResultsEngine`):
    /// a provisional window of the rows up to `provisionalMargin` either side of the anchor, its
    /// sections counting only those rows, until the test finishes the count (`finishCount`) and
    /// the model takes it (`settle`, on `Action.resultsSettled`).
    public var provisionalMargin: Int?
    /// The number of the newest request (one per `configure`).
    public private(set) var generation = 0
    public var isProvisional: Bool { pending != nil }

    /// The request being counted, its anchor, and how its count ended (nil: still running).
    private var pending: (generation: Int, anchor: String?, outcome: Result<Void, Failure>?)?
    /// The last request answered exactly: where a failed count puts the source back.
    private var exactRequest: SectionedFetchRequest

    private var stored: [String: StoredQuake] = [:]
    private var nextID: Int64 = 1
    private var results: [StoredQuake] = []
    private var starts: [Int] = []
    private var pendingChanges: Set<String> = []
    private var vanished: [String: StoredQuake] = [:]
    private var recentlyDeleted: [String: StoredQuake] = [:]

    public init(_ records: [QuakeRecord] = [], request: SectionedFetchRequest = SectionedFetchRequest()) {
        self.request = request
        exactRequest = request
        for record in records { insertOrReplace(record, notes: nil) }
        refetch()
    }

    // MARK: Changes "from another process" (seen by the next merge)

    public func upsert(_ record: QuakeRecord, notes: String? = nil) {
        insertOrReplace(record, notes: notes ?? stored[record.code]?.notes)
        pendingChanges.insert(record.code)
    }

    public func delete(code: String) {
        if let gone = stored.removeValue(forKey: code) { recentlyDeleted[code] = gone }
        pendingChanges.insert(code)
    }

    public func setNotes(_ notes: String?, code: String) {
        stored[code]?.notes = notes
        pendingChanges.insert(code)
    }

    // MARK: ResultsSource

    public func configure(_ request: SectionedFetchRequest) throws {
        try configure(request, around: nil)
    }

    public func configure(_ request: SectionedFetchRequest, around code: String?) throws {
        try check()
        self.request = request
        configureCount += 1
        generation += 1
        if provisionalMargin != nil {
            // A newer request supersedes the one being counted: that count never settles.
            pending = (generation, code, nil)
        } else {
            pending = nil
            exactRequest = request
        }
        refetch()
    }

    // MARK: Counts (provisional mode)

    /// The background count of request `generation` (default: the newest) is done; a count of
    /// a request superseded since is dropped, as the store's engine drops it.
    public func finishCount(generation: Int? = nil, failing failure: Failure? = nil) {
        guard let pending, pending.generation == (generation ?? self.generation) else { return }
        self.pending?.outcome = failure.map { .failure($0) } ?? .success(())
    }

    public func settle() throws -> Bool {
        guard let pending, let outcome = pending.outcome else { return false }
        self.pending = nil
        if case .failure(let failure) = outcome {
            // Back on the request answered exactly before, as `ResultsEngine` does.
            request = exactRequest
            refetch()
            throw failure
        }
        exactRequest = request
        refetch()
        return true
    }

    public func rows(in range: Range<Int>) throws -> [QuakeRow] {
        try check()
        return results[range.clamped(to: 0..<count)].map(Self.row)
    }

    public func indexPath(forOffset offset: Int) -> (section: Int, row: Int) {
        precondition(offset >= 0 && offset < count, "offset \(offset) out of 0..<\(count)")
        let section = starts.lastIndex { $0 <= offset }!
        return (section, offset - starts[section])
    }

    public func offset(ofSection section: Int) -> Int { starts[section] }

    public func offset(ofCode code: String) throws -> Int? {
        try check()
        return results.firstIndex { $0.record.code == code }
    }

    public func anchor(code: String) throws -> Int? {
        try check()
        guard count > 0 else { return nil }
        if let own = results.firstIndex(where: { $0.record.code == code }) { return own }
        guard let quake = stored[code] ?? vanished[code] else { return nil }
        return min(results.firstIndex { precedes(quake, $0) } ?? count, count - 1)
    }

    public func quake(code: String) throws -> StoredQuake? {
        try check()
        return stored[code]
    }

    public func eventTypes() throws -> [String] {
        try check()
        return Set(stored.values.compactMap { $0.record.type?.lowercased() }).sorted()
    }

    public func merge() throws -> ResultChanges? {
        try check()
        guard !pendingChanges.isEmpty else { return nil }
        let codes = pendingChanges
        vanished = recentlyDeleted
        recentlyDeleted = [:]
        pendingChanges = []
        let before = results
        refetch()
        return before == results ? nil : ResultChanges(reloaded: true, codes: codes)
    }

    public func close() {}

    // MARK: Fetching

    private func check() throws {
        if let failure { throw failure }
        if let once = failureOnce {
            failureOnce = nil
            throw once
        }
    }

    private func insertOrReplace(_ record: QuakeRecord, notes: String?) {
        let id = stored[record.code]?.id ?? nextID
        if stored[record.code] == nil { nextID += 1 }
        stored[record.code] = StoredQuake(id: id, record: record, notes: notes)
    }

    private func refetch() {
        results = stored.values.filter(matches).sorted(by: precedes)
        if let pending, let margin = provisionalMargin, !results.isEmpty {
            // The provisional window: the rows around the anchor (or its nearest neighbour).
            let anchor = pending.anchor.flatMap { code in stored[code].map { quake in
                results.firstIndex { $0.record.code == code } ?? min(results.firstIndex { precedes(quake, $0) } ?? results.count, results.count - 1)
            } } ?? 0
            results = Array(results[max(0, anchor - margin)..<min(results.count, anchor + margin + 1)])
        }
        sections = []
        starts = []
        for (index, quake) in results.enumerated() {
            let (id, title) = section(of: quake)
            if sections.last?.id == id {
                let last = sections.removeLast()
                sections.append(QuakeSection(id: id, title: title, count: last.count + 1))
            } else {
                starts.append(index)
                sections.append(QuakeSection(id: id, title: title, count: 1))
            }
        }
        count = results.count
    }

    /// The store's predicate (`SectionedFetchRequest.matches`: the request's `QueryPlan`).
    private func matches(_ quake: StoredQuake) -> Bool { request.matches(quake.record) }

    private func regionKey(_ quake: StoredQuake) -> String { TextFolding.fold(quake.record.region) }

    /// The store's orders: time, then id; magnitude (unknown lowest), then time and id; region,
    /// then newest first in both directions.
    private func precedes(_ a: StoredQuake, _ b: StoredQuake) -> Bool {
        let ascending = request.sortDescriptor.ascending
        let byTime = ascending ? (a.record.time, a.id) < (b.record.time, b.id) : (a.record.time, a.id) > (b.record.time, b.id)
        switch request.sortDescriptor.order {
        case .time: return byTime
        case .magnitude:
            let am = a.record.magnitude ?? -.infinity, bm = b.record.magnitude ?? -.infinity
            if am != bm { return ascending ? am < bm : am > bm }
            return byTime
        case .region:
            let ak = regionKey(a), bk = regionKey(b)
            if ak != bk { return ascending ? ak.utf8.lexicographicallyPrecedes(bk.utf8) : bk.utf8.lexicographicallyPrecedes(ak.utf8) }
            return (a.record.time, a.id) > (b.record.time, b.id)
        case .depth:
            let ad = a.record.depth ?? -.infinity, bd = b.record.depth ?? -.infinity
            if ad != bd { return ascending ? ad < bd : ad > bd }
            return byTime
        case .distance:
            let ak = km(a), bk = km(b)
            return ascending ? (ak, a.id) < (bk, b.id) : (ak, a.id) > (bk, b.id)
        }
    }

    /// Great-circle distance from the request's reference (a distance sort without one is
    /// applied by the store as a time sort; the fake puts every row at 0 km then).
    private func km(_ quake: StoredQuake) -> Double {
        guard let origin = request.distanceReference?.origin else { return 0 }
        return origin.distance(to: GeoPoint(latitude: quake.record.latitude, longitude: quake.record.longitude))
    }

    /// A day's section id and title: made once (a formatter per row made walks slow).
    private let dayID = InMemoryResultsSource.formatter("yyyy-MM-dd")
    private let dayTitle = InMemoryResultsSource.formatter("EEEE, d MMMM yyyy")

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        return formatter
    }

    private func section(of quake: StoredQuake) -> (id: String, title: String) {
        switch request.sortDescriptor.order {
        case .time:
            if dayID.timeZone != request.timeZone {
                dayID.timeZone = request.timeZone
                dayTitle.timeZone = request.timeZone
            }
            let date = Date(timeIntervalSince1970: Double(quake.record.time) / 1000)
            return (dayID.string(from: date), dayTitle.string(from: date))
        case .magnitude:
            let title = switch quake.record.magnitude.map({ Int(max(0, min(6, $0.rounded(.down)))) }) {
            case nil: "unknown"
            case 0?: "M <1"
            case 6?: "M 6+"
            case let k?: "M \(k)"
            }
            return (title, title)
        case .region: return (regionKey(quake), quake.record.region)
        case .depth:
            guard let depth = quake.record.depth else { return ("depth-unknown", "depth unknown") }
            let from = DepthBins.from(depth)
            return ("depth-\(Int(from))", "\(Int(from))–\(Int(DepthBins.to(from))) km deep")
        case .distance:
            // The store's bands (DistanceReference): < 100, 100–300, 300–1,000, 1,000–3,000, ≥ 3,000.
            let unit = request.distanceReference?.unit ?? .km
            let value = km(quake) / unit.kilometres
            let bounds = DistanceReference.bandBounds
            let index = bounds.firstIndex { value < $0 } ?? bounds.count
            let names = ["< 100", "100–300", "300–1,000", "1,000–3,000", "≥ 3,000"]
            return ("distance-\(index)", "\(names[index]) \(unit.rawValue)")
        }
    }

    private static func row(_ quake: StoredQuake) -> QuakeRow {
        let r = quake.record
        return QuakeRow(code: r.code, magnitude: r.magnitude, place: r.place, time: r.time, depth: r.depth,
                        latitude: r.latitude, longitude: r.longitude, hasNotes: quake.notes != nil, source: r.source ?? "usgs",
                        tsunami: (r.tsunami ?? 0) != 0, alert: r.alert, type: r.type)
    }
}
