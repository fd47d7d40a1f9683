import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 27: one sort strategy per order. For every order and direction, over seeded random
/// rows (unknown magnitudes and depths, days in a zone of 45-minute offset, places in a few
/// regions, points around the globe), the section the strategy gives a row — its key, and the
/// id and title a window labels it with — is the section the fetched results put it in.
@Suite struct SortStrategyTests {
    static let zone = TimeZone(identifier: "Asia/Kathmandu")!
    static let home = GeoPoint(latitude: 35.68, longitude: 139.69)
    static let places = ["12 km W of Anchorage, Alaska", "Fiji region", "5 km S of Ica, Peru", "near Höfn, Iceland",
                         "Tōkyō, Japan", "Off the coast of Oregon"]

    static func records(count: Int, seed: UInt64) -> [QuakeRecord] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            var record = QuakeRecord.fixture("s\(i)", magnitude: random.next(12) == 0 ? nil : Double(random.next(90)) / 10 - 1,
                                             place: places[random.next(places.count)],
                                             time: 1_700_000_000_000 + Int64(random.next(10 * 24 * 60)) * 60_000)
            record.depth = random.next(10) == 0 ? nil : Double(random.next(14_000)) / 20 - 5
            record.latitude = Double(random.next(17_800)) / 100 - 89
            record.longitude = Double(random.next(36_000)) / 100 - 180
            return record
        }
    }

    @Test(arguments: QuakeSortOrder.allCases, [true, false])
    func aRowsSectionIsTheOneTheStrategyGivesIt(order: QuakeSortOrder, ascending: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(Self.records(count: 400, seed: 27))
        let reference = DistanceReference(origin: Self.home, unit: .km)
        let request = SectionedFetchRequest(sortDescriptor: QuakeSortDescriptor(order, ascending: ascending),
                                            timeZone: Self.zone, distanceReference: reference)
        let controller = try FetchedResultsController(container: store.container, request: request)
        defer { controller.close() }
        #expect(controller.count == 400)
        let rows = try controller.rows(in: 0..<controller.count)
        let strategy = request.strategy
        let days = DayCalendar(timeZone: Self.zone)
        var checked = 0
        // A table's orders rank by their table's key: the distance, or ten times the intensity.
        let measure: DistanceSort.Measure? = switch order {
        case .distance: .epicentral
        case .intensity: .intensity
        default: nil
        }
        for (offset, row) in rows.enumerated() {
            let section = controller.sections[controller.indexPath(forOffset: offset).section]
            let (keys, km) = try store.read { db in
                let key = (measure ?? .epicentral).sql(Self.home)
                let statement = try db.prepare("SELECT \(RowKeys.columns), \(key) FROM quake WHERE code = ?")
                try statement.bind(row.code, at: 1)
                _ = try statement.step()
                return (RowKeys(statement), statement.double(at: RowKeys.columnCount))
            }
            #expect(strategy.sectionKey(of: keys, km: measure == nil ? nil : km, days: days) == section.key, "\(row.code)")
            let label = measure.map { DistanceSort.band(of: km, in: reference, measure: $0) }
                ?? strategy.section(of: keys, days: days, regionTitle: section.title)
            #expect(label.key == section.key && label.id == section.id && label.title == section.title, "\(row.code)")
            checked += 1
        }
        #expect(checked == 400)
        // The sections are in the strategy's order.
        for (a, b) in zip(controller.sections, controller.sections.dropFirst()) {
            #expect(strategy.sectionPrecedes(a.key, b.key), "\(a.id) before \(b.id)")
        }
    }
}
