import Foundation
import QuakeScenes
import QuakeStore
@testable import QuakeTUI
import QuakeTestSupport
import Testing

/// New-quake marks, `n`/`N`/`a` and alerts through `BrowserModel` (issue 13), over the
/// in-memory source. How the store finds arrivals after a cursor is checked in QuakeStoreTests
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
        #expect(model.state == expected)

        // Two arrive; the M 6 one alerts (magnitude 5 or more) and speaks on the status line.
        let arrived: [QuakeRecord] = [.fixture("n1", magnitude: 6, place: "Big, Chile", time: 1_700_180_000_000),
                                      .fixture("n2", magnitude: 2, place: "Small, Chile", time: 1_700_000_000_000)]
        for quake in arrived { source.upsert(quake) }
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

    @Test func theRefreshStatusHasAWordingForEveryWidth() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        var status = RefreshStatus()
        #expect(RefreshStatusText.make(status, now: 1_700_000_000_000) == nil, "never refreshed: nothing to say")
        status = RefreshSchedule(interval: 300).record(.notModified, at: now.addingTimeInterval(-130), in: status)
        let success = RefreshStatusText.make(status, now: 1_700_000_000_000)
        #expect(success?.wordings == ["refreshed 2m ago · next 2m", "↻ 2m ago · 2m", "↻ 2m ago"] && success?.isError == false)
        for _ in 0..<3 {
            status = RefreshSchedule(interval: 300).record(.failed, error: "the server answered HTTP 500 (Internal Server Error) for http://x/all_day.geojson",
                                                          at: now, in: status)
        }
        let failure = RefreshStatusText.make(status, now: 1_700_000_000_000)
        #expect(failure?.wordings == ["refresh failed 3× (HTTP 500) · retry 20m", "refresh failed (HTTP 500) · retry 20m",
                                      "refresh failed · retry 20m", "✗ · retry 20m"])
        #expect(failure?.isError == true)
        let reasons = [
            "cannot download: 127.0.0.1 refused the connection": "server down",
            "cannot download: the host feeds.invalid could not be found (offline or DNS failure?)": "DNS failure",
            "cannot download: no network connection (offline?)": "offline",
            "cannot download: x did not answer in time": "timed out",
            "http://x/all_day.geojson:1:4097: the feed ends in the middle of a string": "bad feed",
            "the server answered HTTP 503": "HTTP 503",
            "HTTP 4": "bad feed",
            "the server answered HTTP 40x, then HTTP 429 for http://x": "HTTP 429",
            "HTTP/1.1 is spoken by HTTP 2": "bad feed",
        ]
        for (error, reason) in reasons { #expect(RefreshStatusText.shortReason(error) == reason, "\(error)") }
        // A message on the status line leaves the refresh its shortest wording.
        #expect(RefreshStatusText.wording(failure!, width: 200, isLive: true, hints: nil) == "✗ · retry 20m")
        #expect(RefreshStatusText.wording(failure!, width: 200, isLive: true, hints: [KeyHint("?", "help")])
                == "refresh failed 3× (HTTP 500) · retry 20m")
    }
}
