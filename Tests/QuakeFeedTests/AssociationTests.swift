import Foundation
import QuakeFeed
import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 53, point 1: several agencies' reports of one earthquake are one event (16 s, 100 km,
/// nearest first, never two reports of one agency), whatever the order they come in.
/// Fixtures are FDSN text as the FDSN event web service specification writes it (`#EventID|Time|…`).
@Suite struct AssociationTests {
    static let header = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"

    /// EMSC: a mainshock and an aftershock 10 s and 15 km (0.135° of latitude) after it.
    static let emsc = header + """
        20240101_0000101|2024-01-01T07:10:09.50|37.500|137.200|10.0|EMSC||||mb|5.1|EMSC|NEAR WEST COAST OF HONSHU, JAPAN|earthquake
        20240101_0000102|2024-01-01T07:10:19.50|37.635|137.200|10.0|EMSC||||mb|4.6|EMSC|NEAR WEST COAST OF HONSHU, JAPAN|earthquake

        """

    /// GEOFON: the same pair, each a little off EMSC's solution.
    static let geofon = header + """
        gfz2024aaaa|2024-01-01T07:10:10.10|37.510|137.190|12.0|||GFZ|gfz2024aaaa|Mw|5.3||Near West Coast of Honshu, Japan|earthquake
        gfz2024aaab|2024-01-01T07:10:20.20|37.640|137.210|11.0|||GFZ|gfz2024aaab|mb|4.7||Near West Coast of Honshu, Japan|earthquake

        """

    static func records(_ text: String) throws -> [QuakeRecord] {
        try FeedReader(source: .bytes(Array(text.utf8)), name: "fixture.txt").readAll()
    }

    /// Each event: its code, its agencies and its reports' codes (sorted). Checks on the way that
    /// `agencies(ofEvent:)` (the count `watch` prints, read from the event's row) is the number of
    /// agencies of its reports, by any report's code.
    static func events(_ store: TestStore) throws -> [String: [String]] {
        try store.read { db in
            var events: [String: [String]] = [:]
            let rows = try db.prepare("SELECT code FROM quake")
            while try rows.step() {
                let code = rows.text(at: 0)
                let reports = try db.reports(ofEvent: code)
                events[code] = reports.map(\.code).sorted()
                for report in reports {
                    #expect(try db.agencies(ofEvent: report.code) == Set(reports.map(Association.agency(of:))).count, "\(report.code)")
                }
            }
            #expect(try db.agencies(ofEvent: "emsc:nosuch") == 0)
            return events
        }
    }

    @Test func anAftershockOfOneAgencyIsAnEventOfItsOwn() throws {
        let store = try TestStore(try Self.records(Self.emsc))
        defer { store.remove() }
        #expect(try Self.events(store) == [
            "emsc:20240101_0000101": ["emsc:20240101_0000101"], "emsc:20240101_0000102": ["emsc:20240101_0000102"],
        ])
    }

    @Test(arguments: [false, true])
    func eachReportOfASecondAgencyJoinsItsOwnEvent(geofonFirst: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        let files = geofonFirst ? [Self.geofon, Self.emsc] : [Self.emsc, Self.geofon]
        for file in files { try store.upsert(try Self.records(file)) }
        // EMSC is preferred to GEOFON (the default order); the event keeps its preferred code.
        #expect(try Self.events(store) == [
            "emsc:20240101_0000101": ["emsc:20240101_0000101", "geofon:gfz2024aaaa"],
            "emsc:20240101_0000102": ["emsc:20240101_0000102", "geofon:gfz2024aaab"],
        ])
        #expect(try store.read { try $0.quakeCount() } == 2)
        #expect(try store.read { try $0.quake(code: "geofon:gfz2024aaab")?.record.code } == "emsc:20240101_0000102")
    }

    /// One import of both agencies into an empty store (one `upsert(from:)`, as `import` runs it):
    /// the store holds two agencies by its end, so association runs though the store was empty.
    @Test func twoAgenciesInOneImportIntoAnEmptyStoreJoin() throws {
        let store = try TestStore()
        defer { store.remove() }
        var records = try Self.records(Self.emsc) + Self.records(Self.geofon)
        records.sort { $0.time < $1.time }
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        var iterator = records.makeIterator()
        _ = try context.performAndWait { tx in try tx.upsert(from: { iterator.next() }) }
        #expect(try Self.events(store) == [
            "emsc:20240101_0000101": ["emsc:20240101_0000101", "geofon:gfz2024aaaa"],
            "emsc:20240101_0000102": ["emsc:20240101_0000102", "geofon:gfz2024aaab"],
        ])
    }

    /// In an import large enough to stage reports, into a store that holds a third agency's
    /// report elsewhere (so each new report's neighbourhood is looked at): a report with nothing
    /// of another agency near it is written as a row and left out of association's walk, and the
    /// other agency's report of the same earthquake that comes after it in the same import still
    /// joins it; in either order, as a fresh import of both does.
    @Test(arguments: [false, true])
    func aReportWithNothingNearIsJoinedByOneThatComesLater(geofonFirst: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        var isc = QuakeRecord.fixture("isc:600000001", time: 1_600_000_000_000)
        isc.source = "isc"
        try store.upsert([isc])
        // 64 reports of a fourth agency a day apart, far from the pair: the import stages after them.
        let filler = (0..<64).map { i -> QuakeRecord in
            var r = QuakeRecord.fixture("us\(i)", time: 1_650_000_000_000 + Int64(i) * 86_400_000)
            r.source = "usgs"
            return r
        }
        let emsc = try Self.records(Self.emsc)[0], geofon = try Self.records(Self.geofon)[0]
        let records = filler + (geofonFirst ? [geofon, emsc] : [emsc, geofon])
        let context = try store.container.newBackgroundContext(author: "test")
        defer { context.close() }
        var iterator = records.makeIterator()
        _ = try context.performAndWait { tx in try tx.upsert(from: { iterator.next() }) }
        let events = try Self.events(store)
        #expect(events.count == 1 + 64 + 1)
        #expect(events["emsc:20240101_0000101"] == ["emsc:20240101_0000101", "geofon:gfz2024aaaa"])
        #expect(events["isc:600000001"] == ["isc:600000001"])
    }

    /// A status is ASCII: any case of `deleted` withdraws, nothing longer or shorter does.
    @Test func aDeletedStatusIsReadInAnyCase() {
        for status in ["deleted", "Deleted", "DELETED", "dElEtEd"] { #expect(WriteTransaction.isDeleted(status), "\(status)") }
        for status in ["delete", "deleted ", "deleteds", "reviewed", "", "d\u{e9}leted"] { #expect(!WriteTransaction.isDeleted(status), "\(status)") }
    }

    @Test func aRevisionThatMovesOutOfItsWindowLeavesItsEvent() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(try Self.records(Self.emsc) + Self.records(Self.geofon))
        // GEOFON revises its aftershock a minute later (a later `updated` wins).
        var moved = try Self.records(Self.geofon)[1]
        moved.time += 60_000
        moved.updated += 120_000
        try store.upsert([moved])
        #expect(try Self.events(store) == [
            "emsc:20240101_0000101": ["emsc:20240101_0000101", "geofon:gfz2024aaaa"],
            "emsc:20240101_0000102": ["emsc:20240101_0000102"],
            "geofon:gfz2024aaab": ["geofon:gfz2024aaab"],
        ])
        #expect(try store.read { try $0.quake(code: "geofon:gfz2024aaab")?.record.time } == moved.time)
        // Moved back, it joins again.
        moved.time -= 60_000
        moved.updated += 1
        try store.upsert([moved])
        #expect(try Self.events(store)["emsc:20240101_0000102"] == ["emsc:20240101_0000102", "geofon:gfz2024aaab"])
    }

    @Test func deletingThePreferredReportLeavesTheOtherWithTheNotes() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(try Self.records(Self.emsc) + Self.records(Self.geofon))
        try store.setNotes("felt in Wajima", code: "geofon:gfz2024aaab")   // any report's code names the event
        try store.delete(code: "emsc:20240101_0000102")
        let events = try Self.events(store)
        #expect(events["geofon:gfz2024aaab"] == ["geofon:gfz2024aaab"])
        #expect(events["emsc:20240101_0000102"] == nil)
        let event = try store.read { try $0.quake(code: "geofon:gfz2024aaab") }
        #expect(event?.notes == "felt in Wajima")
        #expect(event?.record.magnitude == 4.7)
        // The mainshock's other report (its preferred one is its row).
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM report").int64 } == 1)
    }

    @Test func notesStayWithTheEventWhoseReportsChange() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(try Self.records(Self.geofon))
        try store.setNotes("first report", code: "geofon:gfz2024aaaa")
        // EMSC's report joins and becomes preferred: the event takes its code, and its notes.
        try store.upsert(try Self.records(Self.emsc))
        #expect(try store.read { try $0.quake(code: "emsc:20240101_0000101")?.notes } == "first report")
        // A reviewed USGS solution joins and is preferred; the notes stay.
        let usgs = QuakeRecord(code: "us7000lmno", magnitude: 5.4, magType: "Mww", place: "Noto Peninsula, Japan",
                               time: try Self.records(Self.emsc)[0].time + 2_000, updated: 1, latitude: 37.52,
                               longitude: 137.21, depth: 10, status: "reviewed", source: "usgs")
        try store.upsert([usgs])
        let event = try store.read { try $0.quake(code: "geofon:gfz2024aaaa") }
        #expect(event?.record.code == "us7000lmno")
        #expect(event?.notes == "first report")
        #expect(try store.read { try $0.reports(ofEvent: "us7000lmno").map(\.code) }
                == ["us7000lmno", "emsc:20240101_0000101", "geofon:gfz2024aaaa"])
        #expect(try store.read { try $0.scalar("SELECT agencies FROM quake WHERE code = 'us7000lmno'").int64 } == 3)
        // The USGS solution deleted: back to EMSC's code, notes still there.
        try store.delete(code: "us7000lmno")
        #expect(try store.read { try $0.quake(code: "emsc:20240101_0000101")?.notes } == "first report")
    }

    /// A point `km` north of (lat, lon) whose haversine distance is at most `km` (the last bit matters).
    static func north(of lat: Double, by km: Double) -> Double {
        var d = km / (GeoPoint.earthRadius * .pi / 180)
        while GeoPoint(latitude: lat, longitude: 0).distance(to: GeoPoint(latitude: lat + d, longitude: 0)) > km { d = d.nextDown }
        return lat + d
    }

    @Test(arguments: [(16_000 as Int64, 100.0, true), (16_001, 50.0, false), (8_000, 100.001, false), (16_000, 0.0, true)])
    func bothLimitsAreInclusive(dt: Int64, km: Double, joins: Bool) throws {
        let a = QuakeRecord(code: "emsc:a", magnitude: 5, place: "Somewhere", time: 1_700_000_000_000, updated: 0,
                            latitude: 10, longitude: 0, source: "emsc")
        let b = QuakeRecord(code: "isc:b", magnitude: 5, place: "Somewhere", time: a.time + dt, updated: 0,
                            latitude: Self.north(of: 10, by: km), longitude: 0, source: "isc")
        let store = try TestStore([a, b])
        defer { store.remove() }
        #expect(try store.read { try $0.quakeCount() } == (joins ? 1 : 2))
    }

    @Test func twoReportsOfOneAgencyNeverShareAnEvent() throws {
        let a = QuakeRecord(code: "emsc:a", place: "X", time: 0, updated: 0, latitude: 0, longitude: 0, source: "emsc")
        var b = a
        b.code = "emsc:b"
        let store = try TestStore([a, b])
        defer { store.remove() }
        #expect(try store.read { try $0.quakeCount() } == 2)
    }

    @Test func thePreferredSolutionIsReviewedThenByAgencyThenMoment() {
        let p = AgencyPreference.standard
        let auto = QuakeRecord(code: "us1", magType: "mb", place: "", time: 0, updated: 0, latitude: 0, longitude: 0, status: "automatic", source: "usgs")
        let reviewed = QuakeRecord(code: "emsc:1", magType: "mb", place: "", time: 0, updated: 0, latitude: 0, longitude: 0, status: "reviewed", source: "emsc")
        #expect(p.precedes(reviewed, auto))
        var usgsReviewed = auto
        usgsReviewed.status = "reviewed"
        #expect(p.precedes(usgsReviewed, reviewed))
        let x = QuakeRecord(code: "x:1", magType: "Mww", place: "", time: 0, updated: 0, latitude: 0, longitude: 0, source: "x")
        let y = QuakeRecord(code: "a:1", magType: "ml", place: "", time: 0, updated: 0, latitude: 0, longitude: 0, source: "a")
        #expect(p.precedes(x, y))  // neither listed: the moment magnitude first
        #expect(AgencyPreference(parsing: "emsc, USGS")?.agencies == ["emsc", "usgs"])
        #expect(AgencyPreference(parsing: "emsc,emsc") == nil)
    }

    @Test func anotherPreferenceChoosesAnotherSolutionAtTheNextWrite() throws {
        let store = try TestStore()
        defer { store.remove() }
        try store.upsert(try Self.records(Self.emsc) + Self.records(Self.geofon))
        store.container.agencyPreference = AgencyPreference(["geofon", "emsc"])
        try store.upsert([])  // a write with nothing to import
        #expect(try store.read { try $0.quake(code: "emsc:20240101_0000101")?.record.code } == "geofon:gfz2024aaaa")
    }

    /// The Reports tab's differences from the preferred solution (point 3).
    @Test func aReportSaysHowItDiffersFromThePreferredSolution() {
        let preferred = QuakeRecord(code: "us1", magnitude: 5.4, magType: "Mww", place: "", time: 1_000_000, updated: 0,
                                    latitude: 37.5, longitude: 137.2, depth: 10, source: "usgs")
        var other = preferred
        other.code = "emsc:1"
        other.source = "emsc"
        other.time += 1_200
        other.magnitude = 5.1
        other.magType = "mb"
        other.latitude = Self.north(of: 37.5, by: 8)
        other.depth = 12
        #expect(Association.differences(of: other, from: preferred) == ["+1.2 s", "8 km N", "mb 5.1 vs Mww 5.4", "depth 12.0 vs 10.0 km"])
        // Depths as shown, from half a km apart: 10.5 against 10.0 is said (not `10 vs 10`), 10.44 is not.
        var deeper = preferred
        deeper.code = "nc9"
        deeper.depth = 10.5
        #expect(Association.differences(of: deeper, from: preferred).contains("depth 10.5 vs 10.0 km"))
        deeper.depth = 10.44
        #expect(!Association.differences(of: deeper, from: preferred).contains { $0.hasPrefix("depth") })
        #expect(Association.differences(of: preferred, from: preferred).isEmpty)
    }

    // MARK: - Property: a real USGS week and a perturbed copy from another agency

    /// The week, and a copy of each report moved within the window (by less than half the way
    /// to the week's nearest other report, so its own stays the nearest) and given to EMSC.
    static func weekAndCopy() throws -> (usgs: [QuakeRecord], copy: [QuakeRecord]) {
        let usgs = try FeedReader(path: SharedData.url("1.0_week-2019-02-16.geojson").path).readAll()
        let sorted = usgs.sorted { $0.time < $1.time }
        var generator = SeededGenerator(seed: 53)
        var copy: [QuakeRecord] = []
        for (i, r) in sorted.enumerated() {
            var nearest = 1.0  // in window units: sqrt((Δt/16 s)² + (Δd/100 km)²)
            var j = i - 1
            while j >= 0, sorted[i].time - sorted[j].time <= Association.window {
                nearest = min(nearest, Association.distance(r, sorted[j]).map { $0.squareRoot() } ?? 1); j -= 1
            }
            j = i + 1
            while j < sorted.count, sorted[j].time - sorted[i].time <= Association.window {
                nearest = min(nearest, Association.distance(r, sorted[j]).map { $0.squareRoot() } ?? 1); j += 1
            }
            let reach = min(0.9, nearest / 2.5)
            let angle = Double.random(in: 0..<(2 * .pi), using: &generator)
            let radius = reach * Double.random(in: 0...1, using: &generator)
            var c = r
            c.code = "emsc:" + r.code
            c.source = "emsc"
            c.time = r.time + Int64((radius * cos(angle) * Double(Association.window)).rounded(.towardZero))
            c.latitude = r.latitude + radius * sin(angle) * Association.radius / (GeoPoint.earthRadius * .pi / 180) * 0.99
            c.magnitude = r.magnitude.map { $0 + 0.1 }
            copy.append(c)
        }
        return (usgs, copy)
    }

    /// The store as events: each event's row code, preferred columns and report codes, without row ids.
    static func dump(_ store: TestStore) throws -> [String] {
        try store.read { db in
            var lines: [String] = []
            let rows = try db.prepare("SELECT \(StoredQuake.columns), agencies FROM quake ORDER BY code")
            while try rows.step() {
                let q = StoredQuake(rows)
                let reports = try db.reports(ofEvent: q.record.code).map(\.code).sorted()
                lines.append("\(q.record) agencies=\(rows.int64(at: 21)) \(reports)")
            }
            return lines
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs (a real USGS week)"))
    func aWeekAndItsCopyAreTheWeeksEventsInAnyOrder() throws {
        let (usgs, copy) = try Self.weekAndCopy()
        let first = try TestStore()
        let second = try TestStore()
        defer { first.remove(); second.remove() }
        try first.upsert(usgs)
        try first.upsert(copy)
        try second.upsert(copy)
        try second.upsert(usgs)
        #expect(try first.read { try $0.quakeCount() } == usgs.count)
        #expect(try first.read { try $0.scalar("SELECT count(*) FROM quake WHERE agencies = 2").int64 } == Int64(usgs.count))
        // Each event's other report: its preferred one is its row.
        #expect(try first.read { try $0.scalar("SELECT count(*) FROM report").int64 } == Int64(usgs.count))
        let dump = try Self.dump(first)
        #expect(dump == (try Self.dump(second)))
        // Each event is USGS's report and its own copy.
        #expect(try first.read { db in
            try usgs.allSatisfy { try db.reports(ofEvent: $0.code).map(\.code) == [$0.code, "emsc:" + $0.code] }
        })
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs (a real USGS week)"))
    func interleavedImportsAndDeletesEqualAFreshImportOfWhatIsLeft() throws {
        let (usgs, copy) = try Self.weekAndCopy()
        var generator = SeededGenerator(seed: 5353)
        let all = (usgs + copy).shuffled(using: &generator)
        let store = try TestStore()
        defer { store.remove() }
        var kept: [String: QuakeRecord] = [:]
        var start = 0
        while start < all.count {
            let chunk = Array(all[start..<min(all.count, start + 300)])
            start += chunk.count
            let context = try store.container.newBackgroundContext(author: "test")
            defer { context.close() }
            try context.performAndWait { tx in
                for record in chunk { try tx.upsert(record); kept[record.code] = record }
                // Delete a few reports imported so far, in the same transaction as some imports.
                for _ in 0..<15 {
                    guard let code = kept.keys.sorted().randomElement(using: &generator) else { break }
                    #expect(try tx.deleteQuake(code: code))
                    kept[code] = nil
                }
            }
            // And a delete of its own, between imports.
            if let code = kept.keys.sorted().randomElement(using: &generator) {
                try store.delete(code: code)
                kept[code] = nil
            }
        }
        let fresh = try TestStore(Array(kept.values))
        defer { fresh.remove() }
        #expect(try Self.dump(store) == (try Self.dump(fresh)))
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM report").int64 }
                == (try fresh.read { try $0.scalar("SELECT count(*) FROM report").int64 }))
        let pairs = try fresh.read { try $0.scalar("SELECT count(*) FROM quake WHERE agencies = 2").int64 ?? 0 }
        #expect(pairs > 0)
    }
}
