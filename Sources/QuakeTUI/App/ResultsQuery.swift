import QuakeModel

/// What the update asks of the results source (`Effect.queryResults`); the runtime answers with
/// `Action.resultsAnswered`, a new `ResultsSnapshot` and the offsets asked for.
public struct ResultsQuery: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        /// Apply a new request (sort, search, filters, settings).
        case configure(SectionedFetchRequest)
        /// Take in what other processes (and this one) committed since the last fetch or merge.
        case merge
        /// Only find quakes (`locate`) in the results as they are.
        case locate
        /// `n` / `N`: the next (or previous) of `among` in the results from `from`, wrapping.
        case next(among: [String], from: ListPlace, forward: Bool)
        /// After a failure: the results of `request`, the source put back on it first if a
        /// failed step left it elsewhere.
        case resume(SectionedFetchRequest)

        /// Whether the answer may hold rows changed under a copy read before (a merge, a resume
        /// after a failure): the detail's quake is read again (and after a settled count).
        var rereadsResults: Bool {
            switch self {
            case .merge, .resume: true
            case .configure, .locate, .next: false
            }
        }
    }

    /// What the update does with the answer.
    public enum Purpose: Equatable, Sendable {
        /// The selection stays on its quake (or its nearest neighbour), on list line `line`.
        case keepSelection(line: Int)
        /// As `keepSelection`, then the status line names the `:` filters and how many pass.
        case applyFilters(line: Int)
        /// `quaketui open CODE` or handoff; `lifted` names the search and filters cleared to show
        /// it, and the selection keeps list line `line` in the results without them.
        case show(code: String, lifted: [String], line: Int)
        /// `n` / `N`: the cursor to the new quake found (`ResultsAnswer.found`).
        case jumpToNew
    }

    public var step: Step
    /// The selected quake: where it lands now (its offset, or its nearest neighbour's) comes back.
    public var anchor: String?
    /// Quakes whose exact offsets come back (absent from the answer: not in the results).
    public var locate: [String] = []
    /// The sections shown folded: a provisional window reads past them.
    public var collapsed: Set<String>
    public var purpose: Purpose
    /// Whether the engine tries a new request exactly within its budget before answering with a
    /// provisional window (a `configure` or `resume` step): the update's `ExactAttempts` decide.
    public var triesExactly: Bool

    public init(step: Step, anchor: String?, locate: [String] = [], collapsed: Set<String>, purpose: Purpose,
                triesExactly: Bool = true) {
        self.step = step
        self.anchor = anchor
        self.locate = locate
        self.collapsed = collapsed
        self.purpose = purpose
        self.triesExactly = triesExactly
    }
}

/// The runtime's answer to a `ResultsQuery`.
public struct ResultsAnswer: Equatable, Sendable {
    public var query: ResultsQuery
    /// The results after the step.
    public var snapshot: ResultsSnapshot
    /// Whether a merge changed anything (a configure or locate: always true).
    public var changed: Bool
    /// Where `query.anchor` lands: its offset, or its nearest neighbour's; nil for no rows.
    public var anchor: Int?
    /// The offsets of the quakes of `query.locate` that are in the results.
    public var located: [String: Int]
    /// What a `next` step found (nil: none of those quakes is in the results).
    public var found: FoundAmong?

    public init(query: ResultsQuery, snapshot: ResultsSnapshot, changed: Bool = true, anchor: Int? = nil,
                located: [String: Int] = [:], found: FoundAmong? = nil) {
        self.query = query
        self.snapshot = snapshot
        self.changed = changed
        self.anchor = anchor
        self.located = located
        self.found = found
    }
}

/// The background count's answer for provisional results (`Action.resultsSettled`), as a value:
/// the results once counted — exact, or for a distance sort that builds its table, the window
/// with its sections' whole counts while the order is built (still provisional, the same count
/// pending) — numbered by the count it answers, and where the selected quake lands in them. The
/// update takes it only for the count its results wait for (`ResultsSnapshot.pendingCount`).
public struct SettledResults: Equatable, Sendable {
    /// The count this answers: the `pendingCount` of the provisional results it replaces.
    public var count: Int
    /// The results after the count (no rows: those on screen are read for it).
    public var snapshot: ResultsSnapshot
    /// The quake selected when the answer was taken, and where it lands in `snapshot` (its
    /// offset, or its nearest neighbour's; nil for no rows).
    public var anchorCode: String?
    public var anchor: Int?
    /// Whether the exact count took no longer than the engine's budget: the update's
    /// `ExactAttempts` try a request of its shape at once next time, or not. nil for a distance
    /// sort's band counts (its order still pending).
    public var withinBudget: Bool?

    public init(count: Int, snapshot: ResultsSnapshot, anchorCode: String?, anchor: Int?, withinBudget: Bool? = nil) {
        self.count = count
        self.snapshot = snapshot
        self.anchorCode = anchorCode
        self.anchor = anchor
        self.withinBudget = withinBudget
    }
}
