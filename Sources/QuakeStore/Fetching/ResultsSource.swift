import QuakeModel
/// What the browser's update needs of a live, sectioned result set: the section index, rows by
/// flat offset, where a quake sorts, and merges of other processes' commits.
///
/// `FetchedResultsController` is the real one (SQLite, lazy); tests give `BrowserModel` an
/// in-memory fake (`InMemoryResultsSource` in QuakeTestSupport), so the model's update is tested
/// without a store and compared as whole states.
///
/// ```swift
/// let source: any ResultsSource = try FetchedResultsController(container: container, request: request)
/// let visible = try source.rows(in: 0..<40)
/// ```
///
/// Every throwing method leaves the source as it was when it throws: a failed `configure`
/// keeps the previous request and sections (the model relies on this to leave its state alone).
public protocol ResultsSource: AnyObject {
    /// The request the sections and rows answer.
    var request: SectionedFetchRequest { get }
    var sections: [QuakeSection] { get }
    /// Rows in all sections.
    var count: Int { get }
    /// Rows read from storage so far (the laziness counter; 0 for sources that hold their rows).
    var rowsMaterialized: Int { get }

    /// Applies a new predicate, sort and time zone together and refetches the section index.
    func configure(_ request: SectionedFetchRequest) throws
    /// `configure`, knowing which quake the selection is anchored on, so a source that answers
    /// with a provisional window (`ResultsEngine`) reads the rows around it.
    func configure(_ request: SectionedFetchRequest, around code: String?) throws
    /// Whether the sections are a provisional window's (their counts are pending).
    var isProvisional: Bool { get }
    /// The sections the screen shows folded: a source that answers with provisional windows
    /// reads past them (one row each, for the header), so that the sections beyond show.
    func setCollapsedSections(_ ids: Set<String>) throws
    /// Rows in the whole result, once counted: `count` when exact, nil while a provisional
    /// window's counts are pending, and the whole count while a provisional window has its
    /// counts but not yet its order (a distance sort: its sections carry `totalCount`).
    var countedTotal: Int? { get }
    /// Takes the exact results of a pending configuration once they are ready; whether the
    /// results changed. Throws the pending configuration's failure (the source is then back
    /// on its previous request).
    func settle() throws -> Bool
    /// The rows at flat offsets `range` (clamped to `count`).
    func rows(in range: Range<Int>) throws -> [QuakeRow]
    /// The section and row within it of a flat offset in `0..<count`.
    func indexPath(forOffset offset: Int) -> (section: Int, row: Int)
    /// The flat offset of the first row of a section.
    func offset(ofSection section: Int) -> Int
    /// The flat offset of the quake with `code`, or nil when it is not in the results.
    func offset(ofCode code: String) throws -> Int?
    /// Where a selection anchored on `code` lands: its own offset if it still matches, else its
    /// nearest neighbour, else nil for no rows.
    func anchor(code: String) throws -> Int?
    /// `n` / `N`: of the quakes `codes`, those in the results, the next from `place` going
    /// `forward` (or back), wrapping around; nil when the results hold none of them.
    func next(among codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong?
    /// One quake with everything stored about it (detail view, notes editor).
    func quake(code: String) throws -> StoredQuake?
    /// The event types stored quakes have (`earthquake`, `quarry blast` …), lower case, sorted:
    /// what `:type` accepts. Reads every row: for a command, never for a key.
    func eventTypes() throws -> [String]
    /// Merges what was committed since the last fetch or merge; nil when nothing changed the results.
    func merge() throws -> ResultChanges?
    func close()
}

extension ResultsSource {
    public func configure(_ request: SectionedFetchRequest, around code: String?) throws { try configure(request) }
    public var isProvisional: Bool { false }
    public func setCollapsedSections(_ ids: Set<String>) throws {}
    public var countedTotal: Int? { isProvisional ? nil : count }
    public func settle() throws -> Bool { false }
    public func next(among codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong? {
        try locatingEach(codes, from: place, forward: forward)
    }
}

extension FetchedResultsController: ResultsSource {}

extension QuakeSection {
    /// A section of a results source other than the store (a test fake): `id` is also its key.
    public init(id: String, title: String, count: Int) {
        self.init(id: id, title: title, count: count, key: .region(id))
    }
}


extension ResultsSource {
    /// The next of `codes` in the results from `place` (`ResultsSource.next(among:from:forward:)`),
    /// found by locating each: for sources that hold their rows, and orders ranked row by row.
    public func locatingEach(_ codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong? {
        let offsets = try codes.compactMap { try offset(ofCode: $0) }.sorted()
        let (before, after): ((Int) -> Bool, (Int) -> Bool) = switch place {
        case .row(let offset, _): ({ $0 < offset }, { $0 > offset })
        case .header(_, let start): ({ $0 < start }, { $0 >= start })
        case .top: ({ _ in false }, { _ in true })
        }
        return FoundAmong.pick(offsets, forward: forward, before: before, after: after).map {
            FoundAmong(offset: offsets[$0], position: $0 + 1, count: offsets.count)
        }
    }
}

extension ResultsSource {
    /// What the source holds now, as a value (no rows: those are read for the screen).
    public func snapshot(generation: Int) -> ResultsSnapshot {
        var snapshot = ResultsSnapshot(request: request)
        snapshot.sections = sections
        snapshot.sectionStarts = sections.indices.map(offset(ofSection:))
        snapshot.count = count
        snapshot.countedTotal = countedTotal
        snapshot.isProvisional = isProvisional
        snapshot.generation = generation
        return snapshot
    }
}
