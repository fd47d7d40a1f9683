import QuakeModel

/// The list declustered (`:decluster gk`, issue 54): the method asked for, and the background it
/// keeps as last computed in the background (`Effect.declusterList` → `Action.listDeclustered`).
///
/// The list declusters its own quakes — the search, `:` filters, near-home and minimum magnitude
/// first, then the method over what they keep — as `list --decluster` and the statistics (`=`)
/// do. The request carries the kept ids (`RowFilter.declustered`) only once they are of the
/// list shown (`appliedSet(for:)`); until then the list is the whole list, labelled
/// `declustering…`.
public struct DeclusterState: Equatable, Sendable {
    /// `ContentView.declustering`: the method, nil for the whole list (scene state).
    public var method: Declustering?
    /// The generation of the newest computation (0: none asked yet).
    public var generation = 0
    /// The list (sort aside, `listKey(_:)`) the newest computation is of; nil while none is asked.
    public var request: SectionedFetchRequest?
    /// The method the newest computation is by.
    public var requestMethod: Declustering?
    /// A computation for `generation` is running.
    public var isPending = false
    /// How much of it is done (0…1), as last reported.
    public var progress: Double?
    /// The background last computed, and the list it is of.
    public var result: DeclusteredSet?
    public var resultRequest: SectionedFetchRequest?
    /// Why the last computation failed; nil when it did not.
    public var failure: String?

    public init() {}

    /// The list a declustering is of: the quakes `request` holds, whatever their order, without
    /// a declustering already applied.
    static func listKey(_ request: SectionedFetchRequest) -> SectionedFetchRequest {
        var predicate = request.predicate
        predicate.rowFilters.removeAll { if case .declustered = $0 { true } else { false } }
        return SectionedFetchRequest(predicate: predicate, timeZone: request.timeZone)
    }

    /// The kept ids to filter the list of `base` (a request without them) by: the result, when
    /// it is of that list by the method asked; nil otherwise (the list shows every quake).
    func appliedSet(for base: SectionedFetchRequest) -> DeclusteredSet? {
        guard let method, let result, result.method == method, resultRequest == Self.listKey(base) else { return nil }
        return result
    }

    /// The method's short name, for the header (its `title` has the year too).
    static func name(_ method: Declustering) -> String { method == .gk ? "Gardner–Knopoff" : "Reasenberg" }

    /// The header's label: `declustered (Gardner–Knopoff): 8,412 of 12,569` (marked `…` while it
    /// is being redone after the store changed), `declustering 43 %` (or `declustering…`) while
    /// the list is not declustered yet; nil when off.
    func label(for base: SectionedFetchRequest) -> String? {
        guard let method else { return nil }
        if let applied = appliedSet(for: base) {
            let counts = "declustered (\(Self.name(method))): \(CountFormat.grouped(applied.keptCount)) of \(CountFormat.grouped(applied.declusteredCount))"
            return isPending ? counts + " …" : counts
        }
        if failure != nil, !isPending { return "not declustered (\(Self.name(method)) failed)" }
        return progress.map { "declustering \(Int(($0 * 100).rounded(.down))) %" } ?? "declustering…"
    }
}
