import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// New-quake marks, `n`/`N`/`a` and alerts through `BrowserModel` (issue 13), over a real
/// store in a temp dir. How the store finds arrivals after a cursor is checked in QuakeStoreTests
/// (`ArrivalTests`); a browser and `watch` on a real store, end to end, in `LiveBrowserTests`.
@Suite struct LiveStateTests {
    /// Arrivals as the runtime reads them: `quakes`, then a cursor past the row `maxID`.
    static func arrivals(_ quakes: [QuakeRecord], through maxID: Int64, rule: AlertRule = AlertRule(),
                         now: Date = Date(timeIntervalSince1970: 1_700_200_000)) -> QuakeArrivals {
        QuakeArrivals(quakes: quakes, cursor: ArrivalCursor(token: HistoryToken(rawValue: maxID), maxID: maxID),
                      rule: rule, now: now)
    }

    @Test func arrivalsAreMarkedCountedVisitedAndMarkedSeen() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 30)
        try model.restore(selectedCode: nil, topCode: nil)
        // The first look: everything stored so far is seen, and saved.
        let first = Self.arrivals([], through: 15)
        var expected = model.state
        #expect(try model.send(.quakesArrived(first)) == [.saveScene])
        expected.live.seen = first.cursor
        expected.live.readThrough = first.cursor
        // And as shown to someone looking, at the action's time (issue 55: `ContentView.lastLooked`).
        expected.live.looked = LiveState.Looked(cursor: first.cursor, time: model.state.now)
        #expect(model.state == expected)

        // Two arrive; the M 6 one alerts (magnitude 5 or more) and speaks on the status line.
        let arrived: [QuakeRecord] = [.fixture("n1", magnitude: 6, place: "Big, Chile", time: 1_700_180_000_000),
                                      .fixture("n2", magnitude: 2, place: "Small, Chile", time: 1_700_000_000_000)]
        for quake in arrived { try source.upsert(quake) }
        try model.send(.storeChanged)
        let rule = AlertRule(minimumMagnitude: 5)
        let second = Self.arrivals(arrived, through: 17, rule: rule)
        let effects = try model.send(.quakesArrived(second))
        // The scene saves which quakes alerted (issue 28: a relaunch does not show them again).
        #expect(effects.count == 2 && effects.first == .saveScene)
        guard case .alert(let alert)? = effects.last else { Issue.record("no alert: \(effects)"); return }
        #expect(alert.code == "n1" && !alert.isNearHome)
        #expect(model.state.status.message == "ALERT M 6.0 Big, Chile")
        #expect(model.state.live.newCodes == ["n1", "n2"] && model.state.live.seen == first.cursor)
        let screen = try model.screenModel(FrameContext(now: 1_700_200_000_000, isLive: true))
        #expect(screen.header.newCount == 2)
        let marked = screen.list.lines.compactMap { line -> String? in
            if case .quake(let quake) = line, quake.isNew { quake.code } else { nil }
        }
        #expect(Set(marked) == ["n1", "n2"])
        // The same arrivals again (a relaunch reads from `seen`) neither mark twice nor alert twice.
        #expect(try model.send(.quakesArrived(second)).isEmpty)

        // n / N in list order (newest first: n1, then n2 further down), wrapping.
        try model.send(.first)  // the first quake: n1 itself, so `n` goes on to n2
        #expect(model.state.selectedCode == "n1")
        try model.send(.nextNewQuake)
        #expect(model.state.selectedCode == "n2" && model.state.status.message == "New quake 2 of 2")
        try model.send(.nextNewQuake)
        #expect(model.state.selectedCode == "n1" && model.state.status.message == "New quake 1 of 2")
        try model.send(.previousNewQuake)
        #expect(model.state.selectedCode == "n2")
        try model.send(.previousNewQuake)
        #expect(model.state.selectedCode == "n1")

        // a: all seen, saved.
        #expect(try model.send(.markAllSeen).first == .saveScene)
        #expect(model.state.live.newCodes.isEmpty && model.state.live.seen == second.cursor)
        #expect(model.state.status.message == "Marked 2 new quakes seen")
        try model.send(.nextNewQuake)
        #expect(model.state.status.message == "No new quakes; they are marked ● here as they arrive")
    }

    /// A delete removes the new quakes it deleted from the marks, the header's count and `n`
    /// (issue 52: the header kept `164 new`, and `n` blamed a search that did not exist).
    @Test func deletedArrivalsAreNoLongerNewNorCounted() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 30)
        try model.restore(selectedCode: nil, topCode: nil)
        try model.send(.quakesArrived(Self.arrivals([], through: 15)))
        let arrived: [QuakeRecord] = [.fixture("n1", magnitude: 3, place: "A", time: 1_700_180_000_000),
                                      .fixture("n2", magnitude: 2, place: "B", time: 1_700_000_000_000)]
        for quake in arrived { try source.upsert(quake) }
        try model.send(.storeChanged)
        try model.send(.quakesArrived(Self.arrivals(arrived, through: 17)))
        #expect(model.state.live.newCodes == ["n1", "n2"] && model.state.live.newCount == 2)

        try source.delete(code: "n2")
        try model.send(.storeChanged)
        var gone = Self.arrivals([], through: 17)
        gone.removed = ["n2"]
        try model.send(.quakesArrived(gone))
        #expect(model.state.live.newCodes == ["n1"] && model.state.live.newCount == 1)
        #expect(try model.screenModel(FrameContext(now: 1_700_200_000_000, isLive: true)).header.newCount == 1)
        try model.send(.nextNewQuake)
        #expect(model.state.selectedCode == "n1" && model.state.status.message == "New quake 1 of 1")

        try source.delete(code: "n1")
        try model.send(.storeChanged)
        #expect(model.state.status.message == "New quake 1 of 1")  // nothing said yet about the new quakes
        gone.removed = ["n1"]
        try model.send(.quakesArrived(gone))
        #expect(model.state.live.newCodes.isEmpty && model.state.live.newCount == 0)
        // `New quake 1 of 1` counted a quake no longer there: it goes with it.
        #expect(model.state.status.message == nil)
        try model.send(.nextNewQuake)
        #expect(model.state.status.message == "No new quakes; they are marked ● here as they arrive")
    }

    /// More quakes than are marked one by one (a bulk import): the header and `n` say how many
    /// are new in all, and a delete's recount replaces the count (issue 52: `n` said `2 of 5,000`
    /// after a million arrived).
    @Test func aBulkArrivalIsCountedWholeAndMarkedInPart() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 30)
        try model.restore(selectedCode: nil, topCode: nil)
        try model.send(.quakesArrived(Self.arrivals([], through: 15)))
        let marked: [QuakeRecord] = [.fixture("b1", magnitude: 3, place: "A", time: 1_700_180_000_000),
                                     .fixture("b2", magnitude: 2, place: "B", time: 1_700_000_000_000)]
        for quake in marked { try source.upsert(quake) }
        try model.send(.storeChanged)
        // The reader hands over the first quakes of a million (the model marks what it can).
        var bulk = Self.arrivals(marked, through: 1_000_015)
        bulk.count = 1_000_000
        bulk.firstID = 16
        try model.send(.quakesArrived(bulk))
        #expect(model.state.live.newCodes == ["b1", "b2"] && model.state.live.newCount == 1_000_000)
        #expect(model.state.live.tracking == LiveState.Tracking(newCodes: ["b1", "b2"], firstNewID: 16,
                                                                revisedAfter: model.state.live.seen?.token))
        #expect(try model.screenModel(FrameContext(now: 1_700_200_000_000, isLive: true)).header.newCount == 1_000_000)
        try model.send(.first)
        try model.send(.nextNewQuake)
        #expect(model.state.status.message == "New quake 2 of 2 marked (1,000,000 new)")

        // Past the marks, later arrivals are counted, not marked.
        let later = QuakeRecord.fixture("b3", magnitude: 4, place: "C", time: 1_700_190_000_000)
        try source.upsert(later)
        try model.send(.storeChanged)
        var more = Self.arrivals([later], through: 1_000_016)
        more.firstID = 1_000_016
        try model.send(.quakesArrived(more))
        #expect(model.state.live.newCodes == ["b1", "b2"] && model.state.live.newCount == 1_000_001)

        // A delete: the reader counts the new rows again, and the marked ones it removed go.
        var recount = Self.arrivals([], through: 1_000_016)
        recount.removed = ["b1", "b2"]
        recount.recountedTotal = 40
        try model.send(.quakesArrived(recount))
        #expect(model.state.live.newCodes.isEmpty && model.state.live.newCount == 40)
        try model.send(.nextNewQuake)
        #expect(model.state.status.message == "40 new quakes, too many to mark one by one; a marks them seen")
        try model.send(.markAllSeen)
        #expect(model.state.live.newCount == 0 && model.state.live.firstNewID == nil
                && model.state.status.message == "Marked 40 new quakes seen")
    }

    /// While the automatic refresh downloads, the status line says so where it would say when
    /// the next one is due; an attempt whose process is gone (killed mid-download) does not count.
    @Test func aRunningRefreshSaysRefreshing() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        var status = RefreshSchedule(interval: 60).record(.failed, error: "…", errorKind: FailureKind.timedOut.token,
                                                          at: now.addingTimeInterval(-120), in: RefreshStatus())
        status.pid = getpid()
        #expect(RefreshStatusText.make(status, now: 1_700_000_000_000)?.text == "refresh failed (timed out) · retry due")
        status.attemptStarted = now
        #expect(RefreshStatusText.make(status, now: 1_700_000_000_000)?.wordings
                == ["refresh failed (timed out) · refreshing", "refresh failed (timed out) · refreshing",
                    "refresh failed · refreshing", "✗ · refreshing"])
        var fine = RefreshSchedule(interval: 60).record(.imported, at: now.addingTimeInterval(-120), in: RefreshStatus())
        fine.pid = getpid()
        fine.attemptStarted = now
        #expect(RefreshStatusText.make(fine, now: 1_700_000_000_000)?.text == "refreshed 2m ago · refreshing")
        #expect(RefreshStatusText.make(RefreshStatus(), now: 1_700_000_000_000) == nil)
        var first = RefreshStatus()
        first.pid = getpid()
        first.attemptStarted = now
        #expect(RefreshStatusText.make(first, now: 1_700_000_000_000)?.text == "refreshing")
        status.pid = Int32.max  // no such process
        #expect(RefreshStatusText.make(status, now: 1_700_000_000_000)?.text == "refresh failed (timed out) · retry due")
    }

    /// A 503 with `Retry-After: 120`, shown a moment later, says `retry 2m`, not `1m`: a wait is
    /// never said sooner than it is.
    @Test func aWaitIsNeverSaidSoonerThanItIs() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let status = RefreshSchedule(interval: 60).record(.throttled(retryAfter: 120), error: "the server answered HTTP 503",
                                                          errorKind: FailureKind.http(503).token, at: now, in: RefreshStatus())
        #expect(RefreshStatusText.make(status, now: 1_700_000_000_500)?.text == "refresh failed (HTTP 503) · retry 2m")
        #expect([59.0, 60, 60.5, 119.5, 3599, 3600, 3601, 86_399].map { RefreshStatusText.duration($0, roundingUp: true) }
                == ["<1m", "1m", "2m", "2m", "1h", "1h", "2h", "1d"])
        #expect([59.0, 60, 119.5, 3599, 3601].map { RefreshStatusText.duration($0) } == ["<1m", "1m", "1m", "59m", "1h"])
    }

    @Test func theRefreshStatusHasAWordingForEveryWidth() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        var status = RefreshStatus()
        #expect(RefreshStatusText.make(status, now: 1_700_000_000_000) == nil, "never refreshed: nothing to say")
        status = RefreshSchedule(interval: 300).record(.notModified, at: now.addingTimeInterval(-130), in: status)
        let success = RefreshStatusText.make(status, now: 1_700_000_000_000)
        // 2m 10s ago, the next in 2m 50s: the age rounds down, the wait up (never sooner than the truth).
        #expect(success?.wordings == ["refreshed 2m ago · next 3m", "↻ 2m ago · 3m", "↻ 2m ago"] && success?.isError == false)
        for _ in 0..<3 {
            status = RefreshSchedule(interval: 300).record(.failed, error: "the server answered HTTP 500 (Internal Server Error) for http://x/all_day.geojson",
                                                          errorKind: FailureKind.http(500).token, at: now, in: status)
        }
        let failure = RefreshStatusText.make(status, now: 1_700_000_000_000)
        #expect(failure?.wordings == ["refresh failed 3× (HTTP 500) · retry 20m", "refresh failed (HTTP 500) · retry 20m",
                                      "refresh failed · retry 20m", "✗ · retry 20m"])
        #expect(failure?.isError == true)
        // The words come from the kind kept beside the sentence, never from the sentence.
        let words: [FailureKind: String] = [
            .http(503): "HTTP 503", .serverDown: "server down", .dnsFailure: "DNS failure", .offline: "offline",
            .timedOut: "timed out", .tlsFailure: "TLS failure", .connectionReset: "connection reset",
            .noSuchFile: "no such file", .badFeed: "bad feed",
        ]
        for (kind, text) in words {
            #expect(FailureKind(token: kind.token) == kind)
            var failed = status
            failed.lastErrorKind = kind.token
            #expect(RefreshStatusText.make(failed, now: 1_700_000_000_000)?.text == "refresh failed 3× (\(text)) · retry 20m")
        }
        // A file from before the kind was kept: no reason rather than a guess.
        var unknown = status
        unknown.lastErrorKind = nil
        #expect(RefreshStatusText.make(unknown, now: 1_700_000_000_000)?.text == "refresh failed 3× · retry 20m")
        #expect(FailureKind(token: "HTTP 4") == nil && FailureKind(token: "http x") == nil)
        // A message on the status line leaves the refresh its shortest wording.
        #expect(RefreshStatusText.wording(failure!, width: 200, isLive: true, hints: nil) == "✗ · retry 20m")
        #expect(RefreshStatusText.wording(failure!, width: 200, isLive: true, hints: [KeyHint("?", "help")])
                == "refresh failed 3× (HTTP 500) · retry 20m")
    }
}
