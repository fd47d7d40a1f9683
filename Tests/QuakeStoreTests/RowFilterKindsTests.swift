import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The `:` command line's row filters (time window, event type, alert level, felt): each stays
/// exact through merges that move rows in and out of it, checked against a fresh fetch and an
/// independent evaluation of the stored records.
@Suite struct RowFilterKindsTests {
    static let levels = ["green", "yellow", "orange", "red"]
    static let base: Int64 = 1_700_000_000_000

    static let cases: [(RowFilter, @Sendable (QuakeRecord) -> Bool)] = [
        (.time(from: base + 86_400_000, until: base + 2 * 86_400_000), { $0.time >= base + 86_400_000 && $0.time < base + 2 * 86_400_000 }),
        (.time(from: base + 86_400_000, until: nil), { $0.time >= base + 86_400_000 }),
        (.eventType("earthquake", excluded: false), { $0.type?.lowercased() == "earthquake" }),
        (.eventType("quarry blast", excluded: true), { $0.type?.lowercased() != "quarry blast" }),
        (.alert(atLeast: "orange"), { $0.alert.map { levels.firstIndex(of: $0).map { $0 >= 2 } ?? false } ?? false }),
        (.felt, { ($0.felt ?? 0) > 0 }),
    ]

    @Test(arguments: 0..<6)
    func eachFilterStaysExactThroughMerges(index: Int) throws {
        let (filter, expected) = Self.cases[index]
        let store = try TestStore()
        defer { store.remove() }
        var random = SeededGenerator(seed: UInt64(20 + index))
        let types: [String?] = [nil, "earthquake", "Earthquake", "quarry blast", "explosion"]
        let alerts: [String?] = [nil, "green", "yellow", "orange", "red"]
        var version: Int64 = 0
        var stored: [String: QuakeRecord] = [:]
        func anyRecord(_ code: String) -> QuakeRecord {
            version += 1
            var record = QuakeRecord.fixture(code, magnitude: Double(random.next(70)) / 10, place: "Place \(random.next(9))",
                                             time: Self.base + Int64(random.next(3 * 86_400)) * 1000, updated: Self.base + version)
            record.type = types[random.next(types.count)]
            record.alert = alerts[random.next(alerts.count)]
            record.felt = random.next(3) == 0 ? nil : random.next(4)
            stored[code] = record
            return record
        }
        try store.upsert((0..<150).map { anyRecord("k\($0)") })
        let request = SectionedFetchRequest(predicate: QuakePredicate(rowFilters: [filter]), sortDescriptor: .init(.time),
                                            timeZone: TimeZone(identifier: "UTC")!)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        for round in 0..<10 {
            let codes = Set(try controller.rows(in: 0..<controller.count).map(\.code))
            #expect(codes == Set(stored.values.filter(expected).map(\.code)), "\(filter), round \(round)")
            let fresh = try FetchedResultsController(container: store.container, request: request)
            #expect(fresh.sections == controller.sections, "\(filter), round \(round)")
            fresh.close()
            try store.upsert((0..<(1 + random.next(8))).map { _ in anyRecord("k\(random.next(170))") })
            _ = try controller.merge()
        }
    }
}
