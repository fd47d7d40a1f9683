import Foundation
import QuakeModel
import QuakeScenes
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Issue 55.4, the update on its own: what arrived while a scene was away is said in one line
/// when it comes back (focus again after 10 minutes or more, or a relaunch), `n` walks those
/// quakes, an alert among them speaks first and the summary waits in `L`, and nothing is said
/// when nothing arrived. States built by hand, actions fed in, whole states compared.
@Suite struct AwaySummaryTests {
    /// 2023-11-14 22:13:20 UTC.
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let home = GeoPoint(latitude: 38.37, longitude: 34.03)

    static func cursor(_ id: Int64) -> ArrivalCursor { ArrivalCursor(token: HistoryToken(rawValue: id), maxID: id) }

    static func quake(_ code: String, _ magnitude: Double?, _ place: String, latitude: Double, longitude: Double,
                      at time: Date = t0) -> QuakeRecord {
        var quake = QuakeRecord.fixture(code, magnitude: magnitude, place: place, time: Int64(time.timeIntervalSince1970 * 1000))
        quake.latitude = latitude
        quake.longitude = longitude
        return quake
    }

    static let vanuatu = quake("v1", 6.1, "95 km W of Port-Olry, Vanuatu", latitude: -15, longitude: 166)
    /// 10 km north of home, 10 km deep.
    static let nearby = quake("k1", 4.0, "10 km N of Aksaray, Turkey", latitude: 38.46, longitude: 34.03)
    static let chile = quake("c1", 2.5, "Off Chile", latitude: -33.4, longitude: -72)

    /// The numeral predicted at home for `nearby`, computed independently of `FeltIntensity`.
    static var nearbyNumeral: String {
        let km = home.distance(to: GeoPoint(latitude: nearby.latitude, longitude: nearby.longitude))
        let whole = ExpectedResults.shown(ExpectedResults.intensity(magnitude: 4.0, epicentralKm: km, depthKm: 10)!).whole
        return ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][whole - 1]
    }

    static func arrivals(_ quakes: [QuakeRecord], through id: Int64, rule: AlertRule = AlertRule(), at now: Date) -> QuakeArrivals {
        QuakeArrivals(quakes: quakes, cursor: cursor(id), rule: rule, now: now)
    }

    /// A scene with a home (Aksaray) in UTC, showing two days of two quakes, that has looked once at `t0`.
    static func start() -> BrowserState {
        var settings = AppSettings(timeZone: .utc)
        settings.home = home
        settings.homeName = "Aksaray"
        let app = AppState(sceneID: "p", settings: settings, columns: 80, rows: 12)
        var state = BrowserState(app: app, results: PureUpdateTests.snapshot(app.request, [("day1", ["a1", "a2"]), ("day2", ["b1", "b2"])],
                                                                             generation: 1))
        _ = state.update(.quakesArrived(arrivals([], through: 15, at: t0)), at: t0)
        return state
    }

    @Test func theFirstLookMarksWhatTheSceneHasShown() {
        var expected = LiveState()
        expected.seen = Self.cursor(15)
        expected.readThrough = Self.cursor(15)
        expected.looked = LiveState.Looked(cursor: Self.cursor(15), time: Self.t0)
        #expect(Self.start().live == expected)
    }

    @Test func focusBackAfterTenMinutesSaysWhatArrivedAndNWalksIt() throws {
        var state = Self.start()
        let lost = Self.t0.addingTimeInterval(60)  // 22:14:20
        var expected = state
        #expect(state.update(.focusChanged(false), at: lost) == [.saveScene])  // the mark's time is saved
        expected.now = lost
        expected.live.hasFocus = false
        expected.live.focusLostAt = lost
        expected.live.looked = LiveState.Looked(cursor: Self.cursor(15), time: lost)
        expected.live.away = AwaySummary(since: lost)
        #expect(state == expected)

        // Three arrive while the pane has no focus: marked new as ever, and counted for the summary.
        let arrived = Self.t0.addingTimeInterval(120)
        let effects = state.update(.quakesArrived(Self.arrivals([Self.vanuatu, Self.nearby, Self.chile], through: 18, at: arrived)), at: arrived)
        #expect(!effects.contains { if case .alert = $0 { true } else { false } })
        expected.now = arrived
        expected.live.newCodes = ["v1", "k1", "c1"]
        expected.live.newTotal = 3
        expected.live.readThrough = Self.cursor(18)
        var away = AwaySummary(since: lost)
        away.count = 3
        away.codes = ["v1", "k1", "c1"]
        away.largest = (6.1, "Vanuatu")
        away.nearHome = 1
        away.strongestNearHome = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"].firstIndex(of: Self.nearbyNumeral)! + 1
        expected.live.away = away
        #expect(state == expected)

        // Back ten minutes after focus went: the summary on the status line, logged, the mark moved on.
        let back = lost.addingTimeInterval(600)
        #expect(state.update(.focusChanged(true), at: back) == [.saveScene])
        let line = "Since 22:14: 3 new, largest M 6.1 Vanuatu, 1 near Aksaray (\(Self.nearbyNumeral))"
        expected.now = back
        expected.live.hasFocus = true
        expected.live.focusLostAt = nil
        expected.live.away = nil
        expected.live.walk = LiveState.Walk(codes: ["v1", "k1", "c1"], since: lost)
        expected.live.looked = LiveState.Looked(cursor: Self.cursor(18), time: back)
        expected.status.message = line
        expected.messageLog.append(line, isError: false, at: back)
        #expect(state == expected)

        // a: seen; the walk ends with the marks.
        var seen = state
        _ = seen.update(.markAllSeen, at: back)
        #expect(seen.live.walk == nil && seen.live.newCodes.isEmpty)
        // n walks those three.
        let next = state.update(.nextNewQuake, at: back)
        let among = next.compactMap { effect -> [String]? in
            if case .queryResults(let query) = effect, case .next(let codes, _, true) = query.step { codes } else { nil }
        }
        #expect(among == [["c1", "k1", "v1"]], "\(next)")
    }

    @Test func aShortAbsenceOnlyMovesTheMark() {
        var state = Self.start()
        let lost = Self.t0.addingTimeInterval(60)
        _ = state.update(.focusChanged(false), at: lost)
        let arrived = lost.addingTimeInterval(60)
        _ = state.update(.quakesArrived(Self.arrivals([Self.vanuatu], through: 16, at: arrived)), at: arrived)
        var expected = state
        let back = lost.addingTimeInterval(599)
        _ = state.update(.focusChanged(true), at: back)
        expected.now = back
        expected.live.hasFocus = true
        expected.live.focusLostAt = nil
        expected.live.away = nil
        expected.live.looked = LiveState.Looked(cursor: Self.cursor(16), time: back)
        #expect(state == expected)
        #expect(state.status.message == nil)
    }

    @Test func nothingIsSaidWhenNothingArrived() {
        var state = Self.start()
        let before = state
        let lost = Self.t0.addingTimeInterval(60)
        _ = state.update(.focusChanged(false), at: lost)
        let back = lost.addingTimeInterval(3_600)
        _ = state.update(.focusChanged(true), at: back)
        var expected = before
        expected.now = back
        expected.live.looked = LiveState.Looked(cursor: Self.cursor(15), time: back)
        #expect(state == expected)
    }

    @Test func anAlertTakesTheStatusLineFirstAndTheSummaryWaitsInTheLog() {
        var state = Self.start()
        let lost = Self.t0.addingTimeInterval(60)
        _ = state.update(.focusChanged(false), at: lost)
        let arrived = lost.addingTimeInterval(60)
        let rule = AlertRule(minimumMagnitude: 6)
        let effects = state.update(.quakesArrived(Self.arrivals([Self.chile, Self.vanuatu], through: 17, rule: rule, at: arrived)), at: arrived)
        #expect(effects.contains { if case .alert(let alert) = $0 { alert.code == "v1" } else { false } })
        let alert = "ALERT M 6.1 95 km W of Port-Olry, Vanuatu"
        #expect(state.status.message == alert)
        // Another message meanwhile; then back after 20 minutes: the alert again, the summary in `L`.
        _ = state.update(.showMessage("Refreshed", isError: false), at: arrived)
        let back = lost.addingTimeInterval(1_200)
        _ = state.update(.focusChanged(true), at: back)
        #expect(state.status.message == alert && state.status.isError)
        let summary = "Since 22:14: 2 new, largest M 6.1 Vanuatu"
        #expect(state.messageLog.entries.map(\.text) == [alert, "Refreshed", summary, alert])
        #expect(state.live.walk?.codes == ["c1", "v1"])
    }

    /// A relaunch: the marks count from `seen`, the summary from the saved mark, which the runtime
    /// read apart (`sinceLooked`) because the two differ.
    @Test func aRelaunchSaysWhatArrivedSinceTheSavedMark() {
        var settings = AppSettings(timeZone: .utc)
        settings.home = Self.home
        let app = AppState(sceneID: "p", settings: settings, columns: 80, rows: 12)
        var state = BrowserState(app: app, results: PureUpdateTests.snapshot(app.request, [("day1", ["a1"])], generation: 1))
        let mark = Self.t0.addingTimeInterval(-3_600)  // 21:13:20
        _ = state.update(.resize(columns: 80, rows: 12), at: mark)  // the selection as any update leaves it
        state.live.seen = Self.cursor(10)
        state.live.looked = LiveState.Looked(cursor: Self.cursor(12), time: mark)
        #expect(state.live.lookedReadStart == Self.cursor(12))
        let old = Self.quake("o1", 3.0, "Somewhere, Peru", latitude: -10, longitude: -75)
        var arrivals = Self.arrivals([old, Self.vanuatu, Self.nearby], through: 18, at: Self.t0)
        arrivals.sinceLooked = ([Self.vanuatu, Self.nearby], 2)
        var expected = state
        #expect(state.update(.quakesArrived(arrivals), at: Self.t0) == [.saveScene])
        let line = "Since 21:13: 2 new, largest M 6.1 Vanuatu, 1 near home (\(Self.nearbyNumeral))"
        expected.now = Self.t0
        expected.live.newCodes = ["o1", "v1", "k1"]
        expected.live.newTotal = 3
        expected.live.readThrough = Self.cursor(18)
        expected.live.looked = LiveState.Looked(cursor: Self.cursor(18), time: Self.t0)
        expected.live.walk = LiveState.Walk(codes: ["v1", "k1"], since: mark)
        expected.status.message = line
        expected.messageLog.append(line, isError: false, at: Self.t0)
        #expect(state == expected)
        #expect(state.live.lookedReadStart == nil)
    }

    /// A bulk import past the quakes a read keeps (`LiveState.maximumTracked`): the runtime keeps
    /// those past them that alert, and sums their largest and those near home, so the summary and
    /// the alerts are of every quake that arrived, and `n` says it walks the marked ones.
    @Test func pastTheQuakesAReadKeepsTheSummaryAndTheAlertsStillHoldEveryQuake() {
        var settings = AppSettings(timeZone: .utc)
        settings.home = Self.home
        let app = AppState(sceneID: "p", settings: settings, columns: 80, rows: 12)
        var state = BrowserState(app: app, results: PureUpdateTests.snapshot(app.request, [("day1", ["a1"])], generation: 1))
        let mark = Self.t0.addingTimeInterval(-3_600)
        _ = state.update(.resize(columns: 80, rows: 12), at: mark)
        state.live.seen = Self.cursor(12)
        state.live.looked = LiveState.Looked(cursor: Self.cursor(12), time: mark)
        let rule = AlertRule(minimumMagnitude: 6, home: Self.home)
        // Kept: Chile; past it, read and counted: Vanuatu (it alerts, the largest) and the quake near home.
        var arrivals = Self.arrivals([Self.chile], through: 18, rule: rule, at: Self.t0)
        arrivals.count = 3
        for quake in [Self.vanuatu, Self.nearby] { arrivals.untracked.add(quake, rule: rule, now: Self.t0, nearRadius: settings.nearRadius) }
        #expect(arrivals.untracked.alerting == [Self.vanuatu])
        let effects = state.update(.quakesArrived(arrivals), at: Self.t0)
        #expect(effects.compactMap { if case .alert(let alert) = $0 { alert.code } else { nil } } == ["v1"])
        let line = "Since 21:13: 3 new, largest M 6.1 Vanuatu, 1 near home (\(Self.nearbyNumeral))"
        #expect(state.messageLog.entries.map(\.text).contains(line), "\(state.messageLog.entries.map(\.text))")
        #expect(state.status.message?.hasPrefix("ALERT M 6.1 ") == true
                && state.status.message?.hasSuffix(" — 95 km W of Port-Olry, Vanuatu") == true, "\(state.status)")
        #expect(state.live.walk == LiveState.Walk(codes: ["c1"], since: mark, count: 3))
        #expect(state.live.newTotal == 3 && state.live.newCodes == ["c1"])
        // `n` walks the one marked, and says how many came.
        state.jumpToNewQuake(FoundAmong(offset: 0, position: 1, count: 1))
        #expect(state.status.message == "New quake 1 of 1 marked since 21:13 (3 new)")
    }

    @Test func aRelaunchWithNothingNewSaysNothingAndAnOldSceneFileStartsItsMark() {
        let app = AppState(sceneID: "p", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12)
        let base = BrowserState(app: app, results: PureUpdateTests.snapshot(app.request, [("day1", ["a1"])], generation: 1))
        for looked in [LiveState.Looked(cursor: Self.cursor(10), time: Self.t0.addingTimeInterval(-60)), nil] {
            var state = base
            state.live.seen = Self.cursor(10)
            state.live.looked = looked
            // With a mark: nothing arrived. Without (a file from before the key): the scene looks now.
            _ = state.update(.quakesArrived(Self.arrivals(looked == nil ? [Self.chile] : [], through: looked == nil ? 11 : 10, at: Self.t0)),
                             at: Self.t0)
            #expect(state.status.message == nil)
            #expect(state.live.looked == LiveState.Looked(cursor: Self.cursor(looked == nil ? 11 : 10), time: Self.t0))
            #expect(state.live.walk == nil)
        }
    }

    @Test func theSentenceNamesTheDayWhenNotTodayOneQuakeAndSeveralNearHome() {
        var one = AwaySummary(since: Self.t0)
        one.add([Self.vanuatu], count: 1, home: nil, nearRadius: 300)
        let tomorrow = Self.t0.addingTimeInterval(86_400)
        #expect(one.sentence(homeName: nil, now: tomorrow, timeZone: TimeZone(identifier: "UTC")!)
                == "Since 2023-11-14 22:13: 1 new, M 6.1 Vanuatu")
        #expect(one.sentence(homeName: nil, now: Self.t0, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
                == "Since 07:13: 1 new, M 6.1 Vanuatu")
        var several = AwaySummary(since: Self.t0)
        let hostile = Self.quake("x1", nil, "Near\u{1B}]0;pwned\u{07} home, Tur\u{9B}2Jkey", latitude: 38.38, longitude: 34.03)
        several.add([Self.nearby, hostile], count: 1_200, home: Self.home, nearRadius: 300)
        #expect(several.sentence(homeName: "Ak\u{1B}[2Jsaray", now: Self.t0, timeZone: TimeZone(identifier: "UTC")!)
                == "Since 22:13: 1,200 new, largest M 4.0 Turkey, 2 near Aksaray (up to \(Self.nearbyNumeral))")
        var far = AwaySummary(since: Self.t0)
        far.add([Self.quake("x2", 3, "Off the coast, Tur\u{9B}2Jkey\u{07}", latitude: 0, longitude: 0)], count: 1, home: Self.home, nearRadius: 300)
        #expect(far.sentence(homeName: nil, now: Self.t0, timeZone: .gmt) == "Since 22:13: 1 new, M 3.0 Turkey")
        var shouted = AwaySummary(since: Self.t0)
        shouted.add([Self.quake("x3", 5, "NEAR WEST COAST OF HONSHU, JAPAN", latitude: 38, longitude: 141)], count: 1, home: nil, nearRadius: 300)
        #expect(shouted.sentence(homeName: nil, now: Self.t0, timeZone: .gmt) == "Since 22:13: 1 new, M 5.0 Japan")
        #expect(AwaySummary(since: Self.t0).sentence(homeName: nil, now: Self.t0, timeZone: .gmt) == nil)
    }
}
