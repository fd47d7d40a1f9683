import QuakeModel
import Dispatch
import Foundation

/// The browser's results over the store, never making a key wait: a new request is applied at once when that is
/// quick, and otherwise answered first by a provisional window while the exact sections are
/// computed in the background.
///
/// How a `configure(_:around:)` goes:
/// 1. The exact controller tries the new request (and the selection's place in it) within a
///    small budget (`budget`), unless the caller says not to (`tryingExactly`: the browser's
///    update decides from its `ExactAttempts`). Done in time: exact at once, as always at small sizes.
/// 2. Over budget, it is stopped (its state stays as it was) and a `ProvisionalWindow` is read
///    instead: the rows around the selection in the new order, straight off the sort indexes.
///    Its sections say their counts are pending.
/// 3. The count's controller, on its own connection, configures the new request on the count's
///    `LatestReader` (one slot: a newer request interrupts it, `sqlite3_interrupt`; typing
///    `alaska` runs at most the last count to its end). Its answer is posted as a value
///    (`onCounted`, on the reader's queue: a `CountAnswer` with the counted results, the
///    anchor's offset and how long it took, or the failure); the owner hands it to `settle(_:)`
///    on its thread, where the exact controller takes the results in (`adopt`) and merges what
///    other processes committed meanwhile, so the result is exact. An order with its own table
///    (a distance sort) reads it where it was built: the table's file moves with the results
///    (`FetchedResultsController.tradeTables(with:)`).
/// 4. A distance sort that builds its table (0.7–0.9 s at 1,000,000 quakes: a load and a sort)
///    counts its bands first, in one pass of the same read: they are posted as an answer of
///    their own (`CountAnswer.bands`), which gives the window's sections their whole counts
///    (`QuakeSection.totalCount`, `countedTotal`) while the rows' order is still being built.
///    The source stays provisional until the order is done (keys that need the whole list's
///    sections wait for that).
///
/// A merge of more commits than the history lists (a `delete`'s, an import's) is counted again
/// the same way, a provisional window answering meanwhile, rather than reading every row on the
/// caller's thread. A listed merge over its own budget (`mergeBudget`) is counted again too, but
/// the exact results answer meanwhile, as of the commits before it (`catchUp`). Merges while a
/// count runs keep the exact controller exact (for its request) where the history lists the
/// changes, and re-read the provisional window.
///
/// Not thread-safe, like `FetchedResultsController`: use it from one thread; only `onCounted`
/// is called from elsewhere.
public final class ResultsEngine {
    /// How long a reconfiguration may run on the caller's thread before the provisional path
    /// answers (nil: always wait for the exact result, as tests of other things want).
    public var budget: Duration? = .milliseconds(6)
    /// Rows read above and below the selection for a provisional window (a screen and a margin).
    public var provisionalMargin = 80
    /// How long reading a provisional window may take (nil: no limit, as tests comparing
    /// windows want); past it the window holds what was found so far.
    public var windowLimit: Duration? = .milliseconds(12)
    /// How long merging other processes' commits may run on the caller's thread (nil: no limit,
    /// as with no `budget`); past it, or where a row's place would take a pass over every row,
    /// the results are counted again in the background instead (`merge(around:)`).
    public var mergeBudget: Duration? = .milliseconds(4)
    /// Tests: skip the exact attempt, so every reconfiguration takes the provisional path.
    var alwaysProvisional = false
    /// Tests: the exact controller's `digestCountedSection` (0: a row's place in any magnitude or
    /// depth section is counted by a pass over the digest, as in a section of a quarter of the
    /// store or more, which a merge within `mergeBudget` does not wait for).
    var digestCountedSection: Int {
        get { current.digestCountedSection }
        set { current.digestCountedSection = newValue }
    }
    /// Sections folded on screen, which a provisional window reads past (`setCollapsedSections`).
    private var collapsedSectionIDs: Set<String> = []

    /// The exact results: what the screen shows when no count is pending.
    private let current: FetchedResultsController
    /// The background count: a one-slot reader whose resource is the count's own controller.
    /// Its answers carry the results it counted; the two controllers trade table files (both
    /// idle: `takeResource`, then `give`) so that a distance table is read where it is needed.
    private let counter: LatestReader<FetchedResultsController>
    /// What the count's queue reads: the owner's callback, and the zone a first count opens in.
    private let shared = LockedValue(Shared())

    /// What the count's queue and the owner share.
    private struct Shared {
        var onCounted: (@Sendable (CountAnswer) -> Void)?
        var timeZone = TimeZone(identifier: "UTC")!
        /// Answers posted while nobody listened (the first count, started while the engine is
        /// made, can end before its owner sets `onCounted`): handed over when it is set. Only
        /// the newest count's are kept.
        var unheard: [CountAnswer] = []
    }

    /// How many answers wait for `onCounted` (tests).
    var unheardAnswers: Int { shared.withLock { $0.unheard.count } }

    /// Posts `answer` to `onCounted`, or keeps it until one is set.
    private static func post(_ answer: CountAnswer, to shared: LockedValue<Shared>) {
        let listener = shared.withLock { shared -> (@Sendable (CountAnswer) -> Void)? in
            if shared.onCounted == nil {
                shared.unheard.removeAll { $0.generation != answer.generation }
                shared.unheard.append(answer)
            }
            return shared.onCounted
        }
        listener?(answer)
    }
    private var provisional: Pending?
    /// A merge over `mergeBudget`, counted again in the background (`catchUp(around:)`): the
    /// count's number and the quake it places. The exact controller answers meanwhile, as of the
    /// commits before it.
    private var catchingUp: (generation: Int, anchorCode: String?)?
    /// The history the exact controller's table had seen when it was lent to the count
    /// (`lendKeptTable`): it comes back after a failed count only as it was lent.
    private var lentTable: HistoryToken?

    private struct Pending {
        var request: SectionedFetchRequest
        var generation: Int
        var anchorCode: String?
        var window: ProvisionalWindow { didSet { updateSections() } }
        /// The anchor the background count places (`anchorCode` moves with a re-read window).
        let countedAnchor: String?
        /// The whole result's sections, counted before the rows' order (a distance sort).
        var counted: [QuakeSection]? { didSet { updateSections() } }
        /// A commit was merged since the count began: counts taken before it are not shown.
        var countsAreStale = false
        /// The window's sections, with the whole counts once they are known.
        private(set) var sections: [QuakeSection]

        init(request: SectionedFetchRequest, generation: Int, anchorCode: String?, window: ProvisionalWindow) {
            self.request = request
            self.generation = generation
            self.anchorCode = anchorCode
            self.window = window
            countedAnchor = anchorCode
            sections = window.sections
        }

        private mutating func updateSections() {
            sections = counted.map(window.sections(countedAs:)) ?? window.sections
        }
    }

    private var generation = 0

    /// Called on the count's queue with each answer of a background count (the browser posts it
    /// to its loop, which hands it to `settle(_:)`). Never called for a count a newer request
    /// or an exact answer replaced.
    public var onCounted: (@Sendable (CountAnswer) -> Void)? {
        get { shared.withLock { $0.onCounted } }
        set {
            // An answer that came before anyone listened, in order, before any later one.
            shared.withLock { shared in
                shared.onCounted = newValue
                guard let newValue else { return }
                for answer in shared.unheard { newValue(answer) }
                shared.unheard = []
            }
        }
    }

    /// Opens on `request` within `budget` (else provisionally, from the top); the first
    /// connection opens on the plain time order, from the `SectionSnapshot` a launch before kept
    /// when it fits (`keepSnapshot()` writes the next one), else from the store's kept counts.
    /// The background controller is opened on first use, on its queue.
    public init(container: PersistentContainer, request: SectionedFetchRequest = SectionedFetchRequest(),
                budget: Duration? = .milliseconds(6)) throws {
        self.budget = budget
        if budget == nil { mergeBudget = nil }
        directory = container.directory
        let plain = SectionedFetchRequest(timeZone: request.timeZone)
        if budget == nil {
            current = try FetchedResultsController(container: container, request: request)
        } else {
            let kept = SectionSnapshot.load(from: directory)
            current = try FetchedResultsController(container: container, request: plain, resuming: kept)
            // Kept anew when counted, or when commits were merged into it (the next launch merges less).
            snapshotToKeep = try? current.snapshot()
            startedFromSnapshot = current.resumedFromSnapshot
            if startedFromSnapshot, snapshotToKeep?.token == kept?.token { snapshotToKeep = nil }
        }
        // Opened for the first count, on its queue, on the plain time order in the job's zone
        // (the kept counts answer it at once), so that even that count can be interrupted.
        counter = LatestReader(label: "quaketui.results.count", open: { [shared] in
            try FetchedResultsController(container: container,
                                         request: SectionedFetchRequest(timeZone: shared.withLock { $0.timeZone }))
        }, interrupt: { $0.interrupt() }, close: { $0.close() })
        do {
            if current.request != request.normalized { try configure(request, around: nil) }
        } catch {
            close()
            throw error
        }
    }

    public func close() {
        counter.close()
        current.close()
    }

    /// Where the store is, for its `SectionSnapshot`.
    private let directory: URL
    /// The plain list's sections as this launch counted them, to keep for the next.
    private var snapshotToKeep: SectionSnapshot?
    /// Whether the plain list this engine opened on came from a snapshot (for tests).
    private(set) var startedFromSnapshot = false

    /// Writes the plain list's sections for the next launch, if this one counted them or merged
    /// commits into them: after the first frame, which the write would only delay. Best effort.
    public func keepSnapshot() {
        snapshotToKeep?.write(to: directory)
        snapshotToKeep = nil
    }

    // MARK: The results

    public var request: SectionedFetchRequest { provisional?.request ?? current.request }
    public var sections: [QuakeSection] { provisional?.sections ?? current.sections }
    public var count: Int { provisional?.window.count ?? current.count }
    /// Rows in the whole result: nil while they are being counted; known during a provisional
    /// window whose counts arrived before its order.
    public var countedTotal: Int? {
        guard let pending = provisional else { return current.count }
        return pending.counted?.reduce(0) { $0 + $1.count }
    }
    public var rowsMaterialized: Int { current.rowsMaterialized + (provisional?.window.count ?? 0) }
    /// Whether a count is still running: the sections are a provisional window's.
    public var isProvisional: Bool { provisional != nil }
    /// The number of the background count the results wait for: a provisional window's, or a
    /// merge's over its budget (`catchUp`); nil: none.
    public var pendingCount: Int? { provisional?.generation ?? catchingUp?.generation }

    public func configure(_ request: SectionedFetchRequest, tryingExactly: Bool = true) throws {
        try configure(request, around: nil, tryingExactly: tryingExactly)
    }

    /// Applies `request`, the quake `code` to anchor on: exactly at once when it is tried
    /// (`tryingExactly`) and fits the budget, else with a provisional window and a count in the
    /// background. The snapshot says which (`isProvisional`); the caller remembers it.
    public func configure(_ request: SectionedFetchRequest, around code: String?, tryingExactly: Bool = true) throws {
        let request = request.normalized
        generation += 1
        catchingUp = nil
        let limit = budget.map(Self.nanoseconds)
        do {
            // Building a big distance table (a load and a sort, 0.7–0.9 s at 1M quakes) never
            // fits: trying only added the budget to the window's time, 20 ms for the key at 1M.
            // A kept one is tried like any request, as its shape's last answer says (the build
            // skipped counts as over the budget; so do 20–30 ms of band counts at 1M).
            let buildsLargeTable = try limit != nil && current.rebuildsLargeDistanceTable(for: request)
            let skip = buildsLargeTable || !tryingExactly
            if alwaysProvisional || skip, limit != nil {
                throw SQLiteError(extendedCode: SQLiteError.interrupted, message: "interrupted")
            }
            anchored = (code, try current.configure(request, anchoring: code, withinNanoseconds: limit))
            provisional = nil
            lentTable = nil
            counter.cancel()
            return
        } catch let error as SQLiteError where error.isInterrupted && limit != nil {
            // Over budget: the controller kept its previous state; answer with a window.
        }
        let window = try provisionalWindow(for: request, around: code)
        provisional = Pending(request: request, generation: generation, anchorCode: code, window: window)
        anchored = nil
        count(request, anchorCode: code, generation: generation)
    }

    /// Starts counting `request` on the count's reader (interrupting an older count), posting
    /// its answers to `onCounted`: a distance sort's band counts as soon as they are counted,
    /// unless a newer job replaced this one, then the exact results or the failure.
    private func count(_ request: SectionedFetchRequest, anchorCode: String?, generation: Int) {
        lendKeptTable(for: request)
        shared.withLock { $0.timeZone = request.timeZone }
        let shared = shared
        counter.submit(generation: generation, { controller, running in
            let started = ContinuousClock.now
            let offset = try controller.configure(request, anchoring: anchorCode, withinNanoseconds: nil,
                                                  isCancelled: running.isReplaced) { sections in
                guard !running.isReplaced() else { return }
                Self.post(.bands(generation: generation, sections: sections), to: shared)
            }
            return (try controller.counted(), offset, ContinuousClock.now - started)
        }, done: { generation, result in
            let answer: CountAnswer = switch result {
            case .success(let (results, offset, duration)):
                .counted(generation: generation, results: results, anchorOffset: offset, duration: duration)
            case .failure(let error): .failed(generation: generation, error)
            }
            Self.post(answer, to: shared)
        })
    }

    /// A distance sort chosen again is counted on the table the exact controller kept: built
    /// anew it would take 9 s to the whole order at 5M, against 0.1 s from the kept one. So when
    /// the exact controller holds the table `request` reads and the count's controller (idle)
    /// would build it, they trade tables before the count. The exact results may then lack the
    /// table they read (`lacksItsTable`): they are not merged while the count runs, and a
    /// failed count gives it back (`settle`).
    private func lendKeptTable(for request: SectionedFetchRequest) {
        guard FetchedResultsController.readsTable(request), !current.rebuildsDistances(for: request),
              let counting = counter.takeResource() else { return }
        defer { counter.give(counting) }
        guard counting.rebuildsDistances(for: request), (try? current.tradeTables(with: counting)) == true else { return }
        lentTable = current.lacksItsTable ? counting.tableToken : nil
    }

    /// Moves the table the counted results read from the count's controller (idle: its answer
    /// came, and no newer count was asked for) to the exact one. False when it cannot (a table
    /// that cannot move, `SortTableFile.path`).
    private func takeCountedTable() throws -> Bool {
        guard let counting = counter.takeResource() else { return false }
        defer { counter.give(counting) }
        return try current.tradeTables(with: counting)
    }

    /// After a failed count, the table the exact results lent it, if it is as it was lent (a
    /// newer count may have caught it up, or built over it); false when the exact results still
    /// lack it.
    private func takeLentTableBack() throws -> Bool {
        defer { lentTable = nil }
        guard current.lacksItsTable else { return true }
        guard let lent = lentTable, let counting = counter.takeResource() else { return false }
        defer { counter.give(counting) }
        guard counting.tableToken == lent, !counting.rebuildsDistances(for: current.request) else { return false }
        return try current.tradeTables(with: counting)
    }

    /// The exact offset the last synchronous configure found for its anchor (nil: none cached).
    private var anchored: (code: String?, offset: Int?)?

    /// A background count's answer, posted by `onCounted` for `settle(_:)`, numbered by the
    /// count it answers (`pendingCount`).
    public enum CountAnswer: Sendable {
        /// A distance sort's whole sections, counted before its rows' order.
        case bands(generation: Int, sections: [QuakeSection])
        /// The exact results, counted on the count's controller: the anchor's offset in them and
        /// how long the count took.
        case counted(generation: Int, results: FetchedResultsController.Counted, anchorOffset: Int?, duration: Duration)
        /// The count failed.
        case failed(generation: Int, any Error)

        /// Whether this is the exact results' answer (not the band counts before them, nor a failure).
        public var isCounted: Bool {
            if case .counted = self { true } else { false }
        }

        public var generation: Int {
            switch self {
            case .bands(let generation, _), .counted(let generation, _, _, _), .failed(let generation, _): generation
            }
        }
    }

    /// What `settle(_:)` took in.
    public struct Settlement: Equatable, Sendable {
        /// Whether the exact count took no longer than the budget (a request of its shape may be
        /// tried exactly next time: `ExactAttempts`); nil for a distance sort's band counts, its
        /// order still pending.
        public var withinBudget: Bool?
    }

    /// Takes in `answer` if it answers the pending request: the exact controller adopts the
    /// counted results and merges what was committed since they were read. Returns what changed (nil: nothing,
    /// for an answer to a count replaced since).
    ///
    /// A distance sort's band counts come first, as an answer of their own: the source then
    /// stays provisional, with the whole counts on the window's sections.
    /// - Throws: the background count's failure; the source is then back on the request it had
    ///   before the pending one (exact), and the caller should put its state back too.
    public func settle(_ answer: CountAnswer) throws -> Settlement? {
        if let catchingUp, answer.generation == catchingUp.generation { return try settleCatchUp(answer, around: catchingUp.anchorCode) }
        guard var pending = provisional, answer.generation == pending.generation else { return nil }
        switch answer {
        case .bands(_, let sections):
            guard !pending.countsAreStale else { return nil }
            pending.counted = sections
            provisional = pending
            return Settlement(withinBudget: nil)
        case .failed(_, let error):
            provisional = nil
            // The results before the pending request stand: with their table (lent to the count:
            // taken back, or where it was built over since, counted again) and what was committed.
            if try takeLentTableBack() {
                _ = try? current.merge()
            } else {
                try recount(current.request, around: pending.anchorCode)
            }
            throw error
        case .counted(_, let results, let offset, let duration):
            provisional = nil
            let settlement = Settlement(withinBudget: budget.map { duration <= $0 } ?? true)
            lentTable = nil
            // The table they read is the count's, as it counted them (a table that cannot move,
            // `SortTableFile.path`, is built again here, at once).
            if try FetchedResultsController.readsTable(pending.request) && !takeCountedTable() {
                try current.configure(pending.request)
            } else {
                try current.adopt(results)
            }
            anchored = (pending.countedAnchor, offset)
            // Committed since the count began: merged, unless there is more than the history
            // lists (a stream of commits outran the count): counted again, still provisional.
            guard try current.isPlain || current.pendingMerge() != .reload else {
                anchored = nil
                try recount(pending.request, around: pending.anchorCode)
                return Settlement(withinBudget: nil)
            }
            switch try mergeWithinBudget() {
            case .merged(let changes): if changes != nil { anchored = nil }
            case .overBudget:
                anchored = nil
                _ = try countAgainAfterMerge(around: pending.anchorCode)
                return Settlement(withinBudget: nil)
            }
            return settlement
        }
    }

    /// Takes in the count of a merge that was over budget (`catchUp(around:)`): the exact
    /// controller adopts it and merges what was committed since, within the budget again (else
    /// counted once more). A failed count leaves the merge to the caller's thread, unbounded, as
    /// a failed count's does; only if that fails too is the count's failure thrown (the results
    /// then are as they were).
    private func settleCatchUp(_ answer: CountAnswer, around code: String?) throws -> Settlement? {
        switch answer {
        case .bands: return nil
        case .failed(_, let failure):
            catchingUp = nil
            do { _ = try current.merge() } catch { throw failure }
            anchored = nil
            return Settlement(withinBudget: nil)
        case .counted(_, let results, let offset, _):
            catchingUp = nil
            try current.adopt(results)
            anchored = (code, offset)
            switch try mergeWithinBudget() {
            case .merged(let changes): if changes != nil { anchored = nil }
            case .overBudget:
                anchored = nil
                _ = try countAgainAfterMerge(around: code)
            }
            return Settlement(withinBudget: nil)
        }
    }

    public func rows(in range: Range<Int>) throws -> [QuakeRow] {
        guard let window = provisional?.window else { return try current.rows(in: range) }
        let range = range.clamped(to: 0..<window.count)
        return Array(window.rows[range])
    }

    public func indexPath(forOffset offset: Int) -> (section: Int, row: Int) {
        provisional?.window.indexPath(forOffset: offset) ?? current.indexPath(forOffset: offset)
    }

    public func offset(ofSection section: Int) -> Int {
        provisional?.window.sectionStarts[section] ?? current.offset(ofSection: section)
    }

    public func offset(ofCode code: String) throws -> Int? {
        guard let window = provisional?.window else { return try current.offset(ofCode: code) }
        return window.rows.firstIndex { $0.code == code }
    }

    public func next(among codes: [String], from place: ListPlace, forward: Bool) throws -> FoundAmong? {
        if let window = provisional?.window {
            let offsets = codes.compactMap { code in window.rows.firstIndex { $0.code == code } }
            return FoundAmong.among(offsets: offsets, from: place, forward: forward)
        }
        return try current.next(among: codes, from: place, forward: forward)
    }

    /// Provisionally, a code the window does not hold re-reads the window around it (a
    /// restored selection, a quake shown from another pane): call `sections` again after this.
    public func anchor(code: String) throws -> Int? {
        if var pending = provisional {
            if pending.anchorCode == code { return pending.window.anchorOffset }
            if let offset = pending.window.rows.firstIndex(where: { $0.code == code }) { return offset }
            pending.window = try provisionalWindow(for: pending.request, around: code)
            pending.anchorCode = code
            provisional = pending
            return pending.window.anchorOffset
        }
        if let anchored, anchored.code == code {
            self.anchored = nil
            return anchored.offset
        }
        return try current.anchor(code: code)
    }

    /// What the engine holds now, as a value for the update (no rows: those are read for the
    /// screen), numbered `generation` by the runtime.
    public func snapshot(generation: Int) -> ResultsSnapshot {
        var snapshot = ResultsSnapshot(request: request)
        snapshot.sections = sections
        snapshot.sectionStarts = sections.indices.map(offset(ofSection:))
        snapshot.count = count
        snapshot.countedTotal = countedTotal
        snapshot.isProvisional = isProvisional
        snapshot.pendingCount = pendingCount
        snapshot.generation = generation
        return snapshot
    }

    public func quake(code: String) throws -> StoredQuake? { try current.quake(code: code) }

    /// The code of the event row `code` names: itself, or the event it is a report of or was
    /// merged into (`Connection.eventCode(naming:)`).
    public func eventCode(naming code: String) throws -> String? { try current.eventCode(naming: code) }

    /// How many distance tables the two controllers have built, with no count running (tests).
    var tableBuilds: Int {
        guard let spare = counter.takeResource() else { return current.tableBuilds }
        defer { counter.give(spare) }
        return current.tableBuilds + spare.tableBuilds
    }

    public func storedValues(_ values: StoredValues) throws -> [String] { try current.storedValues(values) }

    /// Merges what other processes committed. Commits the history lists are merged change by
    /// change at once when that fits `mergeBudget`, and so is a reload of the plain list, which
    /// reads the counts the store keeps. Anything longer (a reload of thousands of rows under a
    /// search, a filter or another order; a row's place in a depth band holding half of
    /// 5,000,000 quakes) would hold the caller's thread, so the results are counted again in the
    /// background instead, a provisional window around the quake `code` answering meanwhile.
    public func merge(around code: String? = nil) throws -> ResultChanges? {
        anchored = nil
        // The plain list merges whatever was committed at once: its reload reads the counts the
        // store keeps (a month into 1M: ~15 ms), so the history need not be read twice.
        if provisional == nil, current.isPlain { return try current.merge() }
        // A count catching up with an earlier commit merges this one too when it settles.
        if provisional == nil, catchingUp != nil { return nil }
        let pendingMerge = try current.pendingMerge()
        guard var pending = provisional else {
            switch pendingMerge {
            case .none: return nil
            case .byChanges:
                if case .merged(let changes) = try mergeWithinBudget() { return changes }
                return try countAgainAfterMerge(around: code)
            case .reload:
                try recount(current.request, around: code)
                return ResultChanges(reloaded: true)
            }
        }
        // The exact controller (of the request before the pending one) catches up change by
        // change, unless it lent its table to the count or that is over budget (it stays on its
        // token, merged later); past that it takes the count's results when they come, and
        // merges since they were read.
        var codes: Set<String> = []
        switch pendingMerge {
        case .none: return nil
        case .byChanges where !current.lacksItsTable:
            if case .merged(let changes) = try mergeWithinBudget() { codes = changes?.codes ?? [] }
        case .byChanges, .reload: break
        }
        // Something was committed: the window is read again (the exact count started before
        // it and catches up by a merge when it settles; counts taken before it wait for that).
        pending.window = try provisionalWindow(for: pending.request, around: pending.anchorCode)
        pending.counted = nil
        pending.countsAreStale = true
        provisional = pending
        return ResultChanges(reloaded: true, codes: codes)
    }

    private enum BudgetedMerge {
        case merged(ResultChanges?)
        /// Stopped at `mergeBudget`: the exact controller kept its sections and token.
        case overBudget
    }

    /// The exact controller's `merge()`, stopped at `mergeBudget`.
    private func mergeWithinBudget() throws -> BudgetedMerge {
        do {
            return .merged(try current.merge(withinNanoseconds: mergeBudget.map(Self.nanoseconds)))
        } catch let error as SQLiteError where error.isInterrupted && mergeBudget != nil {
            return .overBudget
        }
    }

    /// After a merge over its budget: the exact controller's request counted again in the
    /// background, the results answering as they stand meanwhile (`catchUp`), unless its order
    /// reads a table, which the count would have to borrow: then a provisional window answers
    /// (`recount`). What changed for the caller: nothing yet, or a reload.
    private func countAgainAfterMerge(around code: String?) throws -> ResultChanges {
        guard !FetchedResultsController.readsTable(current.request) else {
            try recount(current.request, around: code)
            return ResultChanges(reloaded: true)
        }
        catchUp(around: code)
        return ResultChanges()
    }

    /// Counts the exact controller's request again in the background, placing the quake `code`,
    /// while the controller answers as it stands: a merge over its budget. The answer comes as a
    /// count's does (`pendingCount`, `settle(_:)`).
    private func catchUp(around code: String?) {
        generation += 1
        catchingUp = (generation, code)
        count(current.request, anchorCode: code, generation: generation)
    }

    /// Counts `request` again in the background, with a provisional window around `code` (from
    /// the top when nil) meanwhile, as a reconfiguration over budget does.
    private func recount(_ request: SectionedFetchRequest, around code: String?) throws {
        generation += 1
        catchingUp = nil
        let window = try provisionalWindow(for: request, around: code)
        provisional = Pending(request: request, generation: generation, anchorCode: code, window: window)
        count(request, anchorCode: code, generation: generation)
    }

    /// A provisional window reads past the sections folded on screen (one row each, for the
    /// header); a window already drawn is read again when they change.
    public func setCollapsedSections(_ ids: Set<String>) throws {
        guard ids != collapsedSectionIDs else { return }
        collapsedSectionIDs = ids
        guard var pending = provisional else { return }
        pending.window = try provisionalWindow(for: pending.request, around: pending.anchorCode)
        provisional = pending
    }

    /// The provisional window of `request` around the quake `code` (or from the top), read on the
    /// exact controller's connection within `windowLimit`.
    func provisionalWindow(for request: SectionedFetchRequest, around code: String?) throws -> ProvisionalWindow {
        try ProvisionalWindow(reading: request, around: code, on: current.context, margin: provisionalMargin,
                              limit: windowLimit.map(Self.nanoseconds), collapsed: collapsedSectionIDs)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
