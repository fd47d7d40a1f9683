import Foundation
import QuakeModel
import QuakeScenes
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Revisions in the browser (issue 53, point 4), from built states: the list's `◆` mark of an
/// event revised since the scene's `seen` mark (until `a`), and the Reports tab's versions.
/// How the store keeps the versions: QuakeFeedTests' `RevisionTests`.
@Suite struct RevisionMarkTests {
    static let automatic = ReportRevision(
        code: "us6000m0xl", seen: nil, updated: 1_704_133_400_000, magnitude: 5.1, magType: "mb", time: 1_704_133_320_000,
        latitude: 37.3, longitude: 142.2, depth: 10, status: "automatic")
    static var reviewed: ReportRevision {
        var v = automatic
        (v.seen, v.updated, v.magnitude, v.magType, v.status, v.longitude, v.depth) =
            (1_704_135_800_000, 1_704_135_000_000, 5.4, "Mww", "reviewed", 142.3, 12)
        return v
    }
    static var deleted: ReportRevision {
        var v = reviewed
        (v.seen, v.status) = (1_704_136_400_000, "deleted")
        return v
    }

    @Test func versionsOnOneLine() {
        let zone = TimeZone(identifier: "UTC")!
        #expect(RevisionFormat.line([Self.automatic, Self.reviewed, Self.deleted], zone: zone)
            == "mb 5.1 automatic 2024-01-01 18:23 → Mww 5.4 reviewed 18:50 (moved 9 km E, depth 12.0 km) → deleted 18:50")
        var nextDay = Self.reviewed
        nextDay.updated = 1_704_135_000_000 + 86_400_000
        #expect(RevisionFormat.line([Self.automatic, nextDay], zone: zone).hasSuffix("Mww 5.4 reviewed 2024-01-02 18:50 (moved 9 km E, depth 12.0 km)"))
        // Imported years later, the versions still read at their agency's times; quaketui's own
        // `withdrawn` reads when the refresh that found the report gone ran.
        var late = Self.reviewed
        late.seen = 1_704_135_800_000 + 12 * 365 * 86_400_000
        var withdrawn = late
        (withdrawn.status, withdrawn.seen) = (ReportRevision.withdrawn, 1_704_135_800_000 + 12 * 365 * 86_400_000 + 60_000)
        #expect(RevisionFormat.line([Self.automatic, late, withdrawn], zone: zone)
            == "mb 5.1 automatic 2024-01-01 18:23 → Mww 5.4 reviewed 18:50 (moved 9 km E, depth 12.0 km) → Mww 5.4 withdrawn 2035-12-29 19:04")
    }

    /// A depth revised is said as shown (10 → 10.5: `depth 10.5 km`, not `%.0f`'s `10 km`), and in
    /// the catalogue's digits where both versions show alike (10 → 10.04).
    @Test func aRevisedDepthIsSaidAsShown() {
        let zone = TimeZone(identifier: "UTC")!
        var deeper = Self.automatic
        (deeper.updated, deeper.depth) = (Self.automatic.updated + 60_000, 10.5)
        #expect(RevisionFormat.line([Self.automatic, deeper], zone: zone).hasSuffix("(depth 10.5 km)"))
        deeper.depth = 10.04
        #expect(RevisionFormat.line([Self.automatic, deeper], zone: zone).hasSuffix("(depth 10.04 km)"))
    }

    /// A revision of the magnitude within one tenth (2.96 → 2.97, both shown `3.0`) reads as
    /// one: the versions carry the catalogue's digits.
    @Test func aMagnitudeRevisedWithinItsTenthShowsItsDigits() {
        var before = Self.automatic, after = Self.automatic
        (before.magnitude, before.magType) = (2.96, "ml")
        (after.magnitude, after.magType, after.seen, after.updated) = (2.97, "ml", 1_704_135_800_000, 1_704_135_000_000)
        #expect(RevisionFormat.line([before, after], zone: TimeZone(identifier: "UTC")!)
            == "ml 2.96 automatic 2024-01-01 18:23 → ml 2.97 automatic 18:50")
    }

    /// A shift of the origin time under a twentieth of a second is said in ms, not `-0.0 s`.
    @Test func aTinyTimeShiftIsSaidInMilliseconds() {
        var later = Self.automatic
        (later.time, later.status, later.updated) = (Self.automatic.time - 30, "reviewed", 1_704_135_000_000)
        #expect(RevisionFormat.line([Self.automatic, later], zone: TimeZone(identifier: "UTC")!)
            == "mb 5.1 automatic 2024-01-01 18:23 → mb 5.1 reviewed 18:50 (time -30 ms)")
    }

    @Test func theReportsTabShowsARevisedReportsVersions() {
        var record = QuakeRecord.fixture("us6000m0xl", magnitude: 5.4, place: "50 km W of Anamizu, Japan",
                                         time: 1_704_133_320_000, updated: 1_704_135_000_000)
        (record.magType, record.status, record.latitude, record.longitude, record.depth) = ("Mww", "reviewed", 37.3, 142.3, 12)
        record.net = "us"
        var detail = DetailModel(tab: .reports, record: record)
        detail.revisions = [Self.automatic, Self.reviewed]
        var buffer = CellBuffer(width: 120, height: 8)
        let lines = DetailView.reportLines([record], revisions: detail.revisions, display: Fixtures.display)
        for (row, line) in lines.enumerated() { buffer.put(line.0, at: Point(x: 0, y: row), style: line.1, maxWidth: 120) }
        assertSnapshot(buffer, named: "reports-tab-revisions")
    }

    @Test func aRevisedRowIsMarkedUntilMarkedSeenAndComesBackWithTheStore() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 30)
        try model.restore(selectedCode: nil, topCode: nil)
        let first = LiveStateTests.arrivals([], through: 15)
        try model.send(.quakesArrived(first))
        #expect(model.state.live.tracking.revisedAfter == first.cursor.token)

        // The runtime reads the events revised after `seen` with every arrival read.
        var second = LiveStateTests.arrivals([], through: 16)
        second.revised = ["q21", "q03"]
        try model.send(.quakesArrived(second))
        func marked() throws -> (revised: Set<String>, new: Set<String>) {
            let screen = try model.screenModel(FrameContext(now: 1_700_200_000_000, isLive: true))
            var revised: Set<String> = [], new: Set<String> = []
            for case .quake(let quake) in screen.list.lines {
                if quake.isRevised { revised.insert(quake.code) }
                if quake.isNew { new.insert(quake.code) }
            }
            return (revised, new)
        }
        #expect(try marked().revised == ["q21", "q03"])

        // The list draws ◆ where ● would be.
        var line = QuakeLine(code: "q21", magnitude: 2, place: "Place 21, Region 1", time: 1_700_179_260_000)
        line.isRevised = true
        let columns = ListView.Columns(width: 60, showsDistance: false)
        var buffer = CellBuffer(width: 60, height: 1)
        ListView.renderQuake(line, columns: columns, slots: columns.slots, display: Fixtures.display,
                             in: Rect(x: 0, y: 0, width: 60, height: 1), into: &buffer)
        #expect(buffer.text.hasPrefix("◆"))

        // A later read says what is revised now (the store is the truth: after a relaunch, the
        // same read from the saved `seen` mark brings the marks back).
        var third = LiveStateTests.arrivals([], through: 17)
        third.revised = ["q21"]
        try model.send(.quakesArrived(third))
        #expect(try marked().revised == ["q21"])

        // a: marked seen, the mark moves on and the marks go.
        try model.send(.markAllSeen)
        #expect(try marked().revised.isEmpty)
        #expect(model.state.live.tracking.revisedAfter == third.cursor.token)
    }
}

/// What an automatic refresh withdrew reaches `L` once, whichever process ran it (issue 53).
@Suite struct RefreshNoticeLogTests {
    @Test func aWithdrawalIsLoggedOnceAtTheRefreshsTime() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 20)
        var status = RefreshStatus()
        status.feed = "all_day"
        status.lastSuccess = Date(timeIntervalSince1970: 1_700_000_000)
        status.lastNotice = "imported 2 quakes (0 new, 0 updated, 1 unchanged, 0 skipped; 1 deleted by its agency, hidden) in 0.01 s"
        try model.send(.refreshStatusChanged(status))
        try model.send(.refreshStatusChanged(status))  // the same attempt, from the file too
        let logged = model.state.messageLog.entries.filter { $0.text.hasPrefix("Automatic refresh of all_day: ") }
        #expect(logged.map(\.text) == ["Automatic refresh of all_day: " + status.lastNotice!])
        #expect(logged.first?.time == status.lastSuccess)
    }
}
