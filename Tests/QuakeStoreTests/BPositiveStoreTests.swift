import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// b-positive read from a store (issue 54): the statistics' pass over the digest, sorted by time,
/// gives what the magnitudes of the matching records in time order give, computed here from the
/// records.
@Suite struct BPositiveStoreTests {
    @Test func theStoresBPositiveEqualsTheRecordsInTimeOrder() throws {
        let store = try TestStore()
        defer { store.remove() }
        let records = StatisticsAgreementTests.records(count: 3_000, spanDays: 30, seed: 54)
        try store.upsert(records)
        let cases: [(QuakePredicate, (QuakeRecord) -> Bool)] = [
            (QuakePredicate(), { _ in true }),
            (QuakePredicate(minimumMagnitude: 2.5), { ($0.magnitude ?? -.infinity) >= 2.5 }),
        ]
        try store.read { db in
            for (predicate, keep) in cases {
                let estimate = try db.catalogueSummary(of: SectionedFetchRequest(predicate: predicate, timeZone: TimeZone(identifier: "UTC")!)).1
                let ordered = records.enumerated().filter { keep($0.element) }
                    .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                    .compactMap(\.element.magnitude).map(IndependentMagnitudeMethods.tenth)
                let expected = try #require(IndependentMagnitudeMethods.bPositive(ordered))
                let value = try #require(estimate.value)
                #expect(abs(value.b - expected) < 1e-9, "\(predicate)")
            }
        }
    }
}
