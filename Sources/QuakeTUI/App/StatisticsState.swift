import QuakeModel

/// The statistics view (`=`, issue 32): whether it is open, and the statistics of the list as
/// last computed in the background (`Effect.computeStatistics` → `Action.statisticsComputed`).
///
/// Every request carries a generation; an answer for any other than the newest is stale and
/// dropped, so answers arriving late or out of order never show an older list's numbers.
public struct StatisticsState: Equatable, Sendable {
    /// `StatsView.isPresented`: the view is open (scene state).
    public var isPresented = false
    /// The generation of the newest request (0: none asked yet).
    public var generation = 0
    /// The request the newest computation is for (sort and distance reference aside: they do
    /// not change which quakes the list holds); nil while the view has never asked.
    public var request: SectionedFetchRequest?
    /// The statistics of `request` once computed; nil until then (the view draws `…`).
    public var result: CatalogueStatistics?
    /// A computation for `generation` is running: the view shows `result` (of the same list,
    /// before the store changed) marked `…`.
    public var isPending = false
    /// How much of the pending computation's declustering is done (0…1), as last reported;
    /// nil when none was reported (nothing to decluster, or not yet).
    public var progress: Double?
    /// Why the last computation failed, shown in the view; nil when it did not.
    public var failure: String?
    /// How the view estimates `Mc` (`:mc METHOD`): every method reads the counts per bin the
    /// computation already holds, so a change redraws at once and asks for nothing.
    public var method: CompletenessMethod = .maxc
    /// The background alone (`:decluster gk`), nil for the whole list: a change asks for new
    /// statistics, as a new list does.
    public var declustering: Declustering?
    /// The declustering `result` is of (nil: the whole list).
    public var resultDeclustering: Declustering?

    public init() {}

    /// The request whose statistics the view shows for a list's `request`: the same quakes,
    /// in an order that does not matter, before declustering (the statistics decluster the same
    /// list themselves, `declustering`, and count what they remove).
    static func statisticsRequest(_ request: SectionedFetchRequest) -> SectionedFetchRequest {
        DeclusterState.listKey(request)
    }
}
