import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport
import QuakeTime
import Testing

/// Revisions (issue 53, point 4): a USGS report imported three times from GeoJSON written from
/// the feed's format (https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php): automatic
/// mb 5.1, then reviewed Mww 5.4 and moved, then deleted. Real stores in temp directories.
@Suite struct RevisionTests {
    static let first = RevisionFixture.first
    static let reviewed = RevisionFixture.reviewed
    static let deleted = RevisionFixture.deleted

    static func importing(_ text: String, into store: TestStore) throws -> ImportSummary {
        try FeedImporter(container: store.container).run(try FeedReader(source: .bytes(Array(text.utf8)), name: "feed.geojson"))
    }

    /// USGS's hour feed `feed` refreshed into `store`, within its window (`SummaryFeedWindow`).
    static func refreshingTheHour(_ feed: String, into store: TestStore, now: Date) throws -> ImportSummary {
        let window = SummaryFeedWindow(url: URL(string: "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_hour.geojson")!)
        return try FeedImporter(container: store.container)
            .run(try FeedReader(source: .bytes(Array(feed.utf8)), name: "all_hour.geojson"), window: window, now: now)
    }

    /// `feed` without us6000m0xl: another quake in its place, newer than it.
    static func withoutM0xl(_ feed: String) -> String {
        feed.replacingOccurrences(of: "6000m0xl", with: "6000zzzz")
            .replacingOccurrences(of: "\"time\":1704133320000", with: "\"time\":1704133500000")
    }

    static func revised(_ store: TestStore, _ code: String) throws -> Int64? {
        try store.read { db in try db.scalar("SELECT revised FROM quake WHERE code = ?", [.text(code)]).int64 }
    }

    @Test func automaticThenReviewedThenDeletedKeepsEveryVersion() throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_704_134_000))
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        _ = try Self.importing(Self.first, into: store)
        #expect(try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }.isEmpty)
        #expect(try Self.revised(store, "us6000m0xl") == nil)

        // Unchanged: nothing written, no version.
        let again = try Self.importing(Self.first, into: store)
        #expect(again.unchanged == 2 && again.updated == 0)
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM revision").int64 } == 0)

        clock.advance(by: 1800)
        let second = try Self.importing(Self.reviewed, into: store)
        #expect(second.updated == 1 && second.unchanged == 1)
        let versions = try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }
        #expect(versions.map(\.magType) == ["mb", "Mww"])
        #expect(versions.map(\.magnitude) == [5.1, 5.4])
        #expect(versions.map(\.status) == ["automatic", "reviewed"])
        #expect(versions.map(\.seen) == [nil, 1_704_135_800_000])
        #expect(versions[1].longitude == 142.3 && versions[1].depth == 12)
        // The event is marked with the history token of the commit that revised it.
        let token = try store.read { try $0.scalar("SELECT max(token) FROM history").int64 }
        #expect(try Self.revised(store, "us6000m0xl") == token)
        #expect(try Self.revised(store, "us6000other") == nil)
        // `:revised` finds it.
        let matching = try store.read { db in
            try db.scalar("SELECT count(*) FROM quake WHERE revised IS NOT NULL").int64
        }
        #expect(matching == 1)

        // Reimporting the reviewed version: nothing new.
        _ = try Self.importing(Self.reviewed, into: store)
        #expect(try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }.count == 2)

        clock.advance(by: 600)
        let third = try Self.importing(Self.deleted, into: store)
        #expect(third.withdrawn == 1)
        #expect(third.sentence.contains("1 deleted by its agency"))
        #expect(try store.read { try $0.quake(code: "us6000m0xl") } == nil)
        #expect(try store.read { try $0.quakeCount() } == 1)
        let all = try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }
        #expect(all.map(\.status) == ["automatic", "reviewed", "deleted"])
        #expect(all.last?.seen == 1_704_136_400_000)

        // An older feed does not bring the withdrawn report back; the deleted feed again changes nothing.
        let older = try Self.importing(Self.reviewed, into: store)
        #expect(older.inserted == 0)
        #expect(try store.read { try $0.quake(code: "us6000m0xl") } == nil)
        let repeated = try Self.importing(Self.deleted, into: store)
        #expect(repeated.withdrawn == 0)
        #expect(try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }.count == 3)
    }

    /// EMSC's report of us6000m0xl's earthquake: 3 s and about 7 km from it, one event with it.
    static func emscReport(status: String) -> QuakeRecord {
        var emsc = QuakeRecord.fixture("emsc:20240101_0000102", magnitude: 5.0, time: 1_704_133_323_000)
        emsc.source = "emsc"
        emsc.status = status
        (emsc.latitude, emsc.longitude) = (37.35, 142.25)
        return emsc
    }

    /// EMSC revises its report of an event USGS reported too, moving it 31 s later: association
    /// takes it out into an event of its own. The revision marks that event (`◆`, `:revised`),
    /// not USGS's, whose own report never changed.
    @Test func aRevisedReportThatLeavesItsEventTakesTheMarkWithIt() throws {
        let store = try TestStore()
        defer { store.remove() }
        let usgs = QuakeRecord.fixture("us6000m0xl", magnitude: 7.5, time: 1_704_133_320_000, updated: 1_704_133_400_000)
        var emsc = QuakeRecord.fixture("emsc:20240101_0000001", magnitude: 7.4, time: 1_704_133_322_500, updated: 1_704_133_500_000)
        emsc.source = "emsc"
        (emsc.latitude, emsc.longitude) = (usgs.latitude, usgs.longitude)
        try store.upsert([usgs, emsc])
        #expect(try store.read { try $0.reports(ofEvent: "us6000m0xl") }.count == 2)
        emsc.time += 31_000
        emsc.updated += 60_000
        try store.upsert([emsc])
        #expect(try store.read { try $0.quake(code: "emsc:20240101_0000001")?.record.code } == "emsc:20240101_0000001")
        #expect(try Self.revised(store, "emsc:20240101_0000001") != nil)
        #expect(try Self.revised(store, "us6000m0xl") == nil)
        #expect(try store.read { try $0.codesRevised(after: .zero, limit: 10) } == ["emsc:20240101_0000001"])
    }

    /// The same revisions when USGS's report is the preferred one of an event EMSC reported too:
    /// the event's row is that report (no copy of it in `report`), so its revisions are updates
    /// of the row, and its withdrawal gives the row, with its notes, to EMSC's report.
    @Test func aSharedEventsPreferredReportKeepsItsVersionsAndItsWithdrawalLeavesTheEvent() throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_704_134_000))
        let store = try TestStore(clock: clock.clock)
        defer { store.remove() }
        try store.upsert([Self.emscReport(status: "automatic")])
        _ = try Self.importing(Self.first, into: store)
        try store.setNotes("felt in Wajima", code: "emsc:20240101_0000102")
        func event() throws -> StoredQuake? { try store.read { try $0.quake(code: "emsc:20240101_0000102") } }
        func reportRows() throws -> Int64? { try store.read { try $0.scalar("SELECT count(*) FROM report").int64 } }
        #expect(try event()?.record.code == "us6000m0xl")
        #expect(try store.read { try $0.agencies(ofEvent: "us6000m0xl") } == 2)
        #expect(try reportRows() == 1)  // EMSC's; USGS's is the row

        clock.advance(by: 1800)
        let second = try Self.importing(Self.reviewed, into: store)
        #expect(second.updated == 1 && second.unchanged == 1)
        let versions = try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }
        #expect(versions.map(\.magType) == ["mb", "Mww"])
        #expect(versions.map(\.status) == ["automatic", "reviewed"])
        #expect(versions.map(\.seen) == [nil, 1_704_135_800_000])
        let token = try store.read { try $0.scalar("SELECT max(token) FROM history").int64 }
        #expect(try Self.revised(store, "us6000m0xl") == token)
        #expect(try event()?.record.magnitude == 5.4 && event()?.notes == "felt in Wajima")
        #expect(try store.read { try $0.reports(ofEvent: "us6000m0xl") }.map(\.code) == ["us6000m0xl", "emsc:20240101_0000102"])
        #expect(try reportRows() == 1)
        #expect(try store.read { try $0.revisions(ofReports: ["emsc:20240101_0000102"]) }.isEmpty)

        clock.advance(by: 600)
        let third = try Self.importing(Self.deleted, into: store)
        #expect(third.withdrawn == 1)
        #expect(try store.read { try $0.quake(code: "us6000m0xl") } == nil)
        let left = try event()
        #expect(left?.record.code == "emsc:20240101_0000102" && left?.notes == "felt in Wajima")
        #expect(try store.read { try $0.agencies(ofEvent: "emsc:20240101_0000102") } == 1)
        #expect(try Self.revised(store, "emsc:20240101_0000102") != nil)
        #expect(try reportRows() == 0)
        #expect(try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }.map(\.status) == ["automatic", "reviewed", "deleted"])
        #expect(try store.read { try $0.quakeCount() } == 2)
    }

    /// A refreshed feed that no longer lists a shared event's preferred report marks it, and
    /// association then prefers the event's other report (a withdrawn solution is not reviewed).
    @Test func aSharedEventsPreferredReportARefreshedFeedNoLongerListsIsMarkedAndPassedOver() throws {
        let now = Date(timeIntervalSince1970: 1_704_134_000)
        let store = try TestStore(clock: ManualClock(now: now).clock)
        defer { store.remove() }
        try store.upsert([Self.emscReport(status: "reviewed")])
        _ = try Self.importing(Self.reviewed, into: store)
        #expect(try store.read { try $0.quake(code: "emsc:20240101_0000102") }?.record.code == "us6000m0xl")
        let summary = try Self.refreshingTheHour(Self.withoutM0xl(Self.reviewed), into: store, now: now)
        #expect(summary.absent == 1)
        let event = try store.read { try $0.quake(code: "us6000m0xl") }
        #expect(event?.record.code == "emsc:20240101_0000102")
        let reports = try store.read { try $0.reports(ofEvent: "us6000m0xl") }
        #expect(reports.map(\.code) == ["emsc:20240101_0000102", "us6000m0xl"])
        #expect(reports.last?.status == "withdrawn")
        #expect(try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }.map(\.status) == ["reviewed", "withdrawn"])
    }

    @Test func aDeletedRecordOfAnUnknownReportStoresNothing() throws {
        let store = try TestStore()
        defer { store.remove() }
        let summary = try Self.importing(Self.deleted, into: store)
        #expect(summary.withdrawn == 0 && summary.inserted == 1)
        #expect(try store.read { try $0.quake(code: "us6000m0xl") } == nil)
    }

    @Test func aSummaryFeedsWindowAndFloor() {
        let url = { (name: String) in URL(string: "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/\(name)")! }
        #expect(SummaryFeedWindow(url: url("all_day.geojson")) == SummaryFeedWindow(duration: 86_400, minimumMagnitude: nil))
        #expect(SummaryFeedWindow(url: url("4.5_week.geojson")) == SummaryFeedWindow(duration: 7 * 86_400, minimumMagnitude: 4.5))
        #expect(SummaryFeedWindow(url: url("significant_month.geojson")) == nil)
        #expect(SummaryFeedWindow(url: URL(string: "https://example.org/all_day.geojson")!) == nil)
    }

    /// A refreshed `all_hour` feed that no longer lists a stored USGS report of its window marks
    /// it `withdrawn` (a revision, so kept and marked); one before the window, or another
    /// agency's, stays as it was; the next feed that lists it again restores it.
    @Test func aReportARefreshedFeedNoLongerListsIsMarkedWithdrawn() throws {
        let now = Date(timeIntervalSince1970: 1_704_134_000)  // 40 min after us6000m0xl
        let store = try TestStore(clock: ManualClock(now: now).clock)
        defer { store.remove() }
        var emsc = QuakeRecord.fixture("emsc:1", magnitude: 5, time: 1_704_133_000_000)
        emsc.source = "emsc"
        emsc.latitude = -10  // far from the others: its own event
        var old = QuakeRecord.fixture("us_old", magnitude: 5, time: 1_704_120_000_000)  // before the hour
        old.source = "usgs"
        try store.upsert([emsc, old])
        _ = try Self.importing(Self.first, into: store)
        let summary = try Self.refreshingTheHour(Self.withoutM0xl(Self.first), into: store, now: now)
        #expect(summary.absent == 1)
        #expect(summary.sentence.contains("1 no longer in the feed, marked withdrawn"))
        #expect(try store.read { try $0.quake(code: "us6000m0xl") }?.record.status == "withdrawn")
        #expect(try store.read { try $0.quake(code: "emsc:1") }?.record.status == emsc.status)
        #expect(try store.read { try $0.quake(code: "us_old") }?.record.status == old.status)
        #expect(try store.read { try $0.revisions(ofReports: ["us6000m0xl"]) }.map(\.status) == ["automatic", "withdrawn"])
        #expect(try Self.revised(store, "us6000m0xl") != nil)

        // Listed again: current again.
        let back = try Self.refreshingTheHour(Self.first, into: store, now: now)
        #expect(back.absent == 0 && back.updated == 1)
        #expect(try store.read { try $0.quake(code: "us6000m0xl") }?.record.status == "automatic")
    }
}
