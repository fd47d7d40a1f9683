import Foundation

/// The three orders the list offers; each brings its own sections.
public enum QuakeSortOrder: String, CaseIterable, Sendable, Codable {
    /// Newest first by default; sections by day.
    case time
    /// Largest first by default; sections by whole magnitude (`M 6+`, `M 5`, …, `unknown`).
    case magnitude
    /// A→Z by default; sections by region, newest first inside a region.
    case region

    /// Newest / largest first for time and magnitude, A→Z for region (SPEC §4.1).
    public var defaultAscending: Bool { self == .region }

    /// The order `s` switches to.
    public var next: QuakeSortOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// Which quakes match: `place CONTAINS[cd] searchText`, `magnitude >= minimumMagnitude`, and
/// every row filter.
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

    /// The folded, trimmed search text, or nil when there is nothing to search for.
    var foldedSearch: String? {
        let folded = TextFolding.fold(searchText.trimmingCharacters(in: .whitespacesAndNewlines))
        return folded.isEmpty ? nil : folded
    }

    /// Evaluates what a row's keys can say (magnitude and search text), exactly as the SQL does;
    /// the row filters need the match set (`ResultMatches`).
    func matches(_ keys: RowKeys) -> Bool {
        if let minimum = minimumMagnitude {
            guard let magnitude = keys.magnitude, magnitude >= minimum else { return false }
        }
        return matchesSearch(keys)
    }

    /// The search text alone on a row's keys.
    func matchesSearch(_ keys: RowKeys) -> Bool {
        guard let folded = foldedSearch else { return true }
        return keys.placeKey.utf8.contains(subsequence: folded.utf8)
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

    public init(predicate: QuakePredicate = QuakePredicate(), sortDescriptor: QuakeSortDescriptor = QuakeSortDescriptor(.time),
                timeZone: TimeZone = .current) {
        self.predicate = predicate
        self.sortDescriptor = sortDescriptor
        self.timeZone = timeZone
    }

    public var sectionIdentifier: SectionIdentifier {
        switch sortDescriptor.order {
        case .time: .day(timeZone)
        case .magnitude: .magnitude
        case .region: .region
        }
    }

    public var fetchRequest: FetchRequest { FetchRequest(predicate: predicate, sortDescriptor: sortDescriptor) }
}

extension Sequence where Element: Equatable {
    /// Whether `subsequence` occurs contiguously in this sequence (byte-wise substring search).
    func contains<S: Collection>(subsequence: S) -> Bool where S.Element == Element {
        let needle = Array(subsequence)
        guard !needle.isEmpty else { return true }
        let haystack = Array(self)
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }
}
