import Foundation
import QuakeModel
@testable import QuakeStore
import Testing

/// When the results engine tries a request exactly and when it goes to its window at once: by
/// the last answer of the request's shape, not by the request before it.
@Suite struct ExactAttemptsTests {
    static func request(_ order: QuakeSortOrder, search: String = "", minimum: Double? = nil,
                        filters: [RowFilter] = []) -> SectionedFetchRequest {
        var predicate = QuakePredicate(searchText: search, minimumMagnitude: minimum)
        predicate.rowFilters = filters
        return SectionedFetchRequest(predicate: predicate, sortDescriptor: QuakeSortDescriptor(order),
                                     timeZone: TimeZone(identifier: "UTC")!).normalized
    }

    static let tokyo = GeoPoint(latitude: 35.68, longitude: 139.69)

    @Test func everythingIsTriedUntilSomethingIsSlow() {
        let attempts = ExactAttempts()
        for order in QuakeSortOrder.allCases { #expect(attempts.tries(Self.request(order))) }
        #expect(attempts.tries(Self.request(.time, search: "a")))
    }

    /// The sequence `s` walks at 1M quakes: magnitude and depth counts take longer than the
    /// budget, region's fits. Region fitting must not make the next depth sort try again.
    @Test func aSortGoesByItsOwnOrdersLastAnswer() {
        var attempts = ExactAttempts()
        attempts.record(Self.request(.depth), withinBudget: false)
        attempts.record(Self.request(.region), withinBudget: true)
        #expect(!attempts.tries(Self.request(.depth)))
        #expect(attempts.tries(Self.request(.magnitude)))
        #expect(attempts.tries(Self.request(.region)))
    }

    /// `~` after a plain list that fitted: near home's own last answer decides.
    @Test func aFilterGoesByItsKindsLastAnswerWhateverItsValues() {
        var attempts = ExactAttempts()
        attempts.record(Self.request(.time, filters: [.near(Self.tokyo, radiusKm: 100)]), withinBudget: false)
        attempts.record(Self.request(.time), withinBudget: true)
        #expect(!attempts.tries(Self.request(.time, filters: [.near(Self.tokyo, radiusKm: 300)])))
        #expect(attempts.tries(Self.request(.time)))
        #expect(attempts.tries(Self.request(.time, filters: [.felt])))
    }

    /// Typing: each letter goes by the letters before it (one shape), and clearing the search
    /// goes by the plain list's own last answer.
    @Test func aSearchGoesByTheLastSearchOfItsShape() {
        var attempts = ExactAttempts()
        attempts.record(Self.request(.time, search: "a"), withinBudget: false)
        #expect(!attempts.tries(Self.request(.time, search: "al")))
        #expect(attempts.tries(Self.request(.time)))
        #expect(attempts.tries(Self.request(.time, search: "al", minimum: 2.5)))
        attempts.record(Self.request(.time, search: "ala"), withinBudget: true)
        #expect(attempts.tries(Self.request(.time, search: "alas")))
    }
}
