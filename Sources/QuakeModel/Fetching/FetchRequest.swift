import Foundation

/// The orders the list offers; each brings its own sections.
public enum QuakeSortOrder: String, CaseIterable, Sendable, Codable {
    /// Newest first by default; sections by day.
    case time
    /// Largest first by default; sections by whole magnitude (`M 6+`, `M 5`, …, `unknown`).
    case magnitude
    /// A→Z by default; sections by region, newest first inside a region.
    case region
    /// Shallowest first by default; sections by depth band (`DepthBins`: 10 km bands to 100 km,
    /// then 100 km bands; `unknown depth`, which sorts as the smallest, as NULL does in SQLite),
    /// by depth inside a band, then time.
    case depth
    /// Nearest first by default; sections by distance band (`< 100 km`, …, `≥ 3,000 km`) from
    /// the request's `distanceReference` (home), by distance inside a band too. Without a
    /// reference the controller falls back to `time`.
    case distance

    /// Newest / largest first for time and magnitude, A→Z for region, shallowest first for
    /// depth, nearest first for distance (SPEC §4.1).
    public var defaultAscending: Bool { self == .region || self == .depth || self == .distance }

    /// The order `s` switches to: time, magnitude, region, depth, then distance only with a home.
    public func next(hasHome: Bool) -> QuakeSortOrder {
        let cycle = hasHome ? Self.allCases : Self.allCases.filter { $0 != .distance }
        guard let index = cycle.firstIndex(of: self) else { return .time }
        return cycle[(index + 1) % cycle.count]
    }

    /// The order `s` switches to without a home (`next(hasHome: false)`).
    public var next: QuakeSortOrder { next(hasHome: false) }
}

/// Which quakes match: `place CONTAINS[cd] searchText`, `magnitude >= minimumMagnitude`, and
/// every row filter. What it says is compiled once per request into a `QueryPlan`.
public struct QuakePredicate: Hashable, Sendable {
    /// Literal text; quotes, `*`, `%`, `AND`, `(` are never syntax. Empty: no search.
    public var searchText: String
    public var minimumMagnitude: Double?
    /// Filters on columns history does not keep (see `RowFilter`), kept exact through the match set.
    public var rowFilters: [RowFilter]

    public init(searchText: String = "", minimumMagnitude: Double? = nil, rowFilters: [RowFilter] = []) {
        self.searchText = searchText
        self.minimumMagnitude = minimumMagnitude
        self.rowFilters = rowFilters
    }
}

/// Sorting: one of the orders and a direction.
public struct QuakeSortDescriptor: Hashable, Sendable {
    public var order: QuakeSortOrder
    public var ascending: Bool

    public init(_ order: QuakeSortOrder, ascending: Bool? = nil) {
        self.order = order
        self.ascending = ascending ?? order.defaultAscending
    }
}

/// How rows are grouped; always derived from the sort order so sections stay contiguous.
public enum SectionIdentifier: Hashable, Sendable {
    case day(TimeZone)
    case magnitude
    case region
    /// Depth bands (`DepthBins`).
    case depth
    /// Distance bands from a reference point.
    case distance(DistanceReference)
}

/// A flat fetch: predicate and sort descriptor.
public struct FetchRequest: Hashable, Sendable {
    public var predicate: QuakePredicate
    public var sortDescriptor: QuakeSortDescriptor

    public init(predicate: QuakePredicate = QuakePredicate(), sortDescriptor: QuakeSortDescriptor = QuakeSortDescriptor(.time)) {
        self.predicate = predicate
        self.sortDescriptor = sortDescriptor
    }
}

/// A sectioned fetch, like SwiftUI's `SectionedFetchRequest(sectionIdentifier:sortDescriptors:predicate:)`.
/// Changing `sortDescriptor` changes the section identifier with it, in one assignment.
///
/// ```swift
/// var request = SectionedFetchRequest(sortDescriptor: .init(.magnitude))
/// request.predicate.searchText = "alaska"
/// try controller.configure(request)
/// ```
public struct SectionedFetchRequest: Hashable, Sendable {
    public var predicate: QuakePredicate
    public var sortDescriptor: QuakeSortDescriptor
    /// The zone in which day sections start and end (app storage `timeZone`).
    public var timeZone: TimeZone
    /// Where a `distance` sort measures from and its band unit (nil: no home, no distance sort).
    public var distanceReference: DistanceReference?

    public init(predicate: QuakePredicate = QuakePredicate(), sortDescriptor: QuakeSortDescriptor = QuakeSortDescriptor(.time),
                timeZone: TimeZone = .current, distanceReference: DistanceReference? = nil) {
        self.predicate = predicate
        self.sortDescriptor = sortDescriptor
        self.timeZone = timeZone
        self.distanceReference = distanceReference
    }

    public var fetchRequest: FetchRequest { FetchRequest(predicate: predicate, sortDescriptor: sortDescriptor) }
}
