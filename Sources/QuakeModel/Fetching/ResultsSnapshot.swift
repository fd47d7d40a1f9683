/// What the results engine holds, as a value: the request it answers, its sections and where each
/// starts, its counts, and the rows read so far. The browser's update reads this, never the
/// engine: the runtime asks the engine and hands the update a new snapshot (issue 27).
///
/// ```swift
/// var snapshot = results.snapshot(generation: 1)
/// snapshot.rows = LoadedRows(start: 0, rows: try results.rows(in: 0..<40))
/// snapshot.row(at: 3)?.code
/// ```
public struct ResultsSnapshot: Equatable, Sendable {
    /// The request the sections and rows answer.
    public var request: SectionedFetchRequest
    public var sections: [QuakeSection]
    /// The flat offset of each section's first row.
    public var sectionStarts: [Int]
    /// Rows in all sections.
    public var count: Int
    /// Rows in the whole result once counted (`ResultsEngine.countedTotal`): nil while a
    /// provisional window's counts are pending.
    public var countedTotal: Int?
    /// Whether the sections are a provisional window's (their counts are pending).
    public var isProvisional: Bool
    /// The engine's number for the background count these results wait for (the request's
    /// generation there): a provisional window's, or, for exact results as of the commits
    /// before a merge that was over its budget, the count catching up with it; nil when none.
    /// A count's answer names it (`SettledResults`).
    public var pendingCount: Int?
    /// Whether these are exact results as of the commits before a merge that was over its
    /// budget, while the count catching up with it runs (`pendingCount`, not provisional).
    public var isCatchingUp: Bool { pendingCount != nil && !isProvisional }
    /// Counts up with every snapshot the runtime takes: rows read for an older one are dropped.
    public var generation: Int
    /// The rows read for this snapshot so far (those on screen, and a margin).
    public var rows: LoadedRows

    /// No results yet, for `request`.
    public init(request: SectionedFetchRequest) {
        self.request = request
        sections = []
        sectionStarts = []
        count = 0
        countedTotal = 0
        isProvisional = false
        pendingCount = nil
        generation = 0
        rows = LoadedRows()
    }

    /// A snapshot with `sections` in order (tests; the engine's is `ResultsEngine.snapshot(generation:)`).
    public init(request: SectionedFetchRequest, sections: [QuakeSection], isProvisional: Bool = false,
                countedTotal: Int? = nil, pendingCount: Int? = nil, generation: Int = 0) {
        self.init(request: request)
        self.sections = sections
        var start = 0
        sectionStarts = sections.map { section in
            defer { start += section.count }
            return start
        }
        count = start
        self.isProvisional = isProvisional
        self.countedTotal = countedTotal ?? (isProvisional ? nil : start)
        self.pendingCount = pendingCount
        self.generation = generation
    }

    /// The section and row within it of a flat offset in `0..<count`.
    public func indexPath(forOffset offset: Int) -> (section: Int, row: Int) {
        var low = 0, high = sectionStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return (low, offset - sectionStarts[low])
    }

    /// The flat offset of the first row of a section.
    public func offset(ofSection section: Int) -> Int { sectionStarts[section] }

    /// The index of the section with `id` (nil: none, or no id).
    public func sectionIndex(id: String?) -> Int? {
        id.flatMap { id in sections.firstIndex { $0.id == id } }
    }

    /// The row at a flat offset, if it was read for this snapshot.
    public func row(at offset: Int) -> QuakeRow? { rows.row(at: offset) }

    /// Equal when they hold the same results: the same request, sections and counts. The
    /// generations only tag which reads and which count answer them, and the rows are the part read so far,
    /// which depends on where the screen has been (compare the screens drawn from them).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.request == rhs.request && lhs.sections == rhs.sections && lhs.sectionStarts == rhs.sectionStarts
            && lhs.count == rhs.count && lhs.countedTotal == rhs.countedTotal && lhs.isProvisional == rhs.isProvisional
    }
}

/// Rows read from a results source, by flat offset (the runs on screen, and a margin).
public struct LoadedRows: Equatable, Sendable {
    public private(set) var byOffset: [Int: QuakeRow] = [:]

    public init() {}

    /// `rows` at consecutive offsets from `start`.
    public init(start: Int, rows: [QuakeRow]) {
        add(start: start, rows: rows)
    }

    public mutating func add(start: Int, rows: [QuakeRow]) {
        for (index, row) in rows.enumerated() { byOffset[start + index] = row }
    }

    /// The rows of `other` added (they replace none of ours but at the same offsets).
    public mutating func add(_ other: LoadedRows) {
        byOffset.merge(other.byOffset) { _, new in new }
    }

    /// Only the rows at offsets in `runs` kept.
    public mutating func keep(_ runs: [Range<Int>]) {
        byOffset = byOffset.filter { offset, _ in runs.contains { $0.contains(offset) } }
    }

    public func row(at offset: Int) -> QuakeRow? { byOffset[offset] }

    /// Whether every offset of `range` was read.
    public func covers(_ range: Range<Int>) -> Bool { range.allSatisfy { byOffset[$0] != nil } }
}

