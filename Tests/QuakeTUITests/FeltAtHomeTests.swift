import Foundation
import QuakeModel
import QuakeScenes
import QuakeStore
@testable import QuakeTUI
import QuakeTestSupport
import Testing

/// Issue 55: the intensity predicted at home on screen (the `felt here` column, the detail's
/// `At Aksaray` row, home by its name) and alerts that matter (by `alertIntensity` alone, and
/// several at once led by the strongest shaking at home, then PAGER level, then magnitude).
@Suite struct FeltAtHomeTests {
    static let aksaray = GeoPoint(latitude: 38.37, longitude: 34.03)
    static let now = Date(timeIntervalSince1970: 1_700_200_000)

    /// A quake `northKm` north of Aksaray (a degree of latitude is 111.2 km on the store's sphere).
    static func quake(_ code: String, _ magnitude: Double, northKm: Double, longitude: Double? = nil, depth: Double = 10,
                      alert: String? = nil, place: String) -> QuakeRecord {
        var record = QuakeRecord.fixture(code, magnitude: magnitude, place: place, time: 1_700_199_000_000)
        record.latitude = aksaray.latitude + northKm / (GeoPoint.earthRadius * .pi / 180)
        record.longitude = longitude ?? aksaray.longitude
        record.depth = depth
        record.alert = alert
        return record
    }

    /// The issue's three quakes: an M 5.6 21 km from home (PAGER orange), an M 3.1 14 km away,
    /// an M 6.4 off Chile.
    static let issueQuakes: [QuakeRecord] = [
        quake("chile", 6.4, northKm: 0, longitude: -70.1, alert: "green", place: "80 km W of Iquique, Chile").with(latitude: -20.2),
        quake("near", 5.6, northKm: 21, alert: "orange", place: "12 km N of Aksaray, Turkey"),
        quake("small", 3.1, northKm: 14, place: "14 km N of Aksaray, Turkey"),
    ]

    @Test func severalAlertsAtOnceLeadWithTheStrongestShakingAtHome() throws {
        let rule = AlertRule(minimumMagnitude: 5, home: Self.aksaray, homeName: "Aksaray")
        let alerts = Self.issueQuakes.compactMap { rule.alert(for: $0, now: Self.now) }
        #expect(alerts.map(\.code) == ["chile", "near"], "the M 3.1 is neither large nor near by a radius")
        #expect(AlertRule.ranked(alerts).map(\.code) == ["near", "chile"])
        let lead = AlertRule.ranked(alerts)[0]
        let felt = try #require(FeltIntensity(home: Self.aksaray, latitude: Self.issueQuakes[1].latitude,
                                              longitude: Self.issueQuakes[1].longitude, depth: 10, magnitude: 5.6))
        #expect(lead.sentence(miles: false, homeName: "Aksaray")
                == "ALERT M 5.6 21 km N of Aksaray, predicted there: \(felt.label) — 12 km N of Aksaray, Turkey")
        // The far one: its distance as the list writes it (12,488 km style), home by its name.
        let chile = AlertRule.ranked(alerts)[1]
        let km = QuakeFormat.homeDistance(kilometres: chile.distance!, unit: .km)
        #expect(km.contains(","), "\(km)")
        #expect(chile.sentence(miles: false, homeName: "Aksaray").contains(" \(km) W of Aksaray, predicted there: I not felt — "))
    }

    @Test func equalShakingFallsBackToPagerLevelThenMagnitude() {
        func alert(_ code: String, _ magnitude: Double, _ pager: String?) -> AlertRule.Alert {
            AlertRule.Alert(code: code, magnitude: magnitude, place: code, intensity: FeltIntensity(magnitude: 3, hypocentralKm: 9_000),
                            pagerLevel: pager)
        }
        let ranked = AlertRule.ranked([alert("a", 7.0, nil), alert("b", 6.0, "yellow"), alert("c", 6.5, "yellow"), alert("d", 5, "red")])
        #expect(ranked.map(\.code) == ["d", "c", "b", "a"])
    }

    @Test func intensityAloneAlertsASmallNearQuakeAndNotALargeFarOne() {
        let rule = AlertRule(home: Self.aksaray, homeName: "Aksaray", minimumIntensity: 4.0)
        #expect(rule.isEnabled, "alertIntensity alone turns alerting on")
        let small = Self.quake("small", 4.2, northKm: 6, depth: 5, place: "6 km N of Aksaray, Turkey")
        let far = Self.issueQuakes[0]
        let felt = FeltIntensity(home: Self.aksaray, latitude: small.latitude, longitude: small.longitude, depth: 5, magnitude: 4.2)!
        #expect(felt.oneDecimal >= 4.0, "\(felt.oneDecimal)")
        #expect(rule.alert(for: small, now: Self.now)?.intensity == felt)
        #expect(rule.alert(for: far, now: Self.now) == nil)
        // To one decimal: exactly at the setting alerts, a tenth below does not.
        let exact = AlertRule(home: Self.aksaray, minimumIntensity: felt.oneDecimal)
        let above = AlertRule(home: Self.aksaray, minimumIntensity: felt.oneDecimal + 0.1)
        #expect(exact.alert(for: small, now: Self.now) != nil && above.alert(for: small, now: Self.now) == nil)
        // Between two tenths: the predicted value must be at least the setting (4.55 takes 4.6, not 4.5).
        let between = AlertRule(home: Self.aksaray, minimumIntensity: felt.oneDecimal + 0.05)
        let justBelow = AlertRule(home: Self.aksaray, minimumIntensity: felt.oneDecimal - 0.05)
        #expect(between.alert(for: small, now: Self.now) == nil && justBelow.alert(for: small, now: Self.now) != nil)
        #expect(AlertRule.tenths(atLeast: 4.55) == 46 && AlertRule.tenths(atLeast: 4.5) == 45 && AlertRule.tenths(atLeast: 4.3) == 43)
    }

    /// Through the browser: the lead on the status line, the others in the message log (`L`).
    @Test func theOthersWaitInTheMessageLog() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 30)
        try model.restore(selectedCode: nil, topCode: nil)
        try model.send(.quakesArrived(LiveStateTests.arrivals([], through: 15)))
        for quake in Self.issueQuakes { try source.upsert(quake) }
        try model.send(.storeChanged)
        let rule = AlertRule(minimumMagnitude: 5, home: Self.aksaray, homeName: "Aksaray", radius: 50)
        try model.send(.quakesArrived(LiveStateTests.arrivals(Self.issueQuakes, through: 18, rule: rule, now: Self.now)))
        let sentences = AlertRule.ranked(Self.issueQuakes.compactMap { rule.alert(for: $0, now: Self.now) })
            .map { $0.sentence(miles: false, homeName: "Aksaray") }
        #expect(sentences.count == 3)
        #expect(sentences[0].hasPrefix("ALERT M 5.6 21 km N of Aksaray, predicted there: ")
                && sentences[0].hasSuffix(" — 12 km N of Aksaray, Turkey"), "\(sentences[0])")
        #expect(model.state.status.message == sentences[0] + " (+2 more: L, n)")
        // Newest first in `L`: the lead, then the others in the order they matter.
        let logged: [String] = model.state.messageLog.entries.suffix(3).reversed().map(\.text)
        let expected: [String] = [model.state.status.message ?? "", sentences[1], sentences[2]]
        #expect(logged == expected)
    }

    /// A quake right under home (hv70260941: 0.5 km deep): its S waves arrive in a tenth of a
    /// second, said so (it read `S waves ~0 s after the origin`).
    @Test func sWavesWithinHalfASecondAreSaidToComeUnderASecondAfter() throws {
        let under = try #require(FeltIntensity(home: Self.aksaray, latitude: Self.aksaray.latitude, longitude: Self.aksaray.longitude,
                                               depth: 0.5, magnitude: 2.0))
        #expect(QuakeFormat.feltAtHome(under).hasSuffix(", S waves under a second after the origin"), "\(QuakeFormat.feltAtHome(under))")
        let near = try #require(FeltIntensity(home: Self.aksaray, latitude: Self.aksaray.latitude, longitude: Self.aksaray.longitude,
                                              depth: 2.0, magnitude: 2.0))
        #expect(QuakeFormat.feltAtHome(near).hasSuffix(", S waves ~1 s after the origin"), "\(QuakeFormat.feltAtHome(near))")
    }

    @Test func theFeltColumnAndTheDetailNameHome() {
        let record = Self.issueQuakes[1]
        let line = QuakeLine(code: record.code, magnitude: record.magnitude, place: record.place, time: record.time,
                             depth: record.depth, latitude: record.latitude, longitude: record.longitude)
        var model = Fixtures.model(columns: 200, rows: 24, lines: [.section(SectionLine(id: "intensity-6", title: "VI strong", count: 1)),
                                                                   .quake(line)], sort: .intensity)
        model.display.home = Self.aksaray
        model.display.homeName = "Aksaray"
        let buffer = Screen.render(model)
        let felt = FeltIntensity(home: Self.aksaray, latitude: record.latitude, longitude: record.longitude, depth: 10, magnitude: 5.6)!
        // Home by its name in the column's header where it fits (`to Aksaray` does not fit the
        // distance column's nine cells with the sort mark: `to home` stays).
        #expect(buffer.line(1).contains("at Aksaray ↓") && buffer.line(1).contains(" to home "), "\(buffer.line(1))")
        model.display.homeName = "Oslo"
        #expect(Screen.render(model).line(1).contains(" to Oslo ") && Screen.render(model).line(1).contains("at Oslo ↓"))
        model.display.homeName = nil
        #expect(Screen.render(model).line(1).contains(" to home ") && Screen.render(model).line(1).contains("felt here ↓"))
        model.display.homeName = "Aksaray"
        #expect(buffer.line(3).contains(felt.label), "\(buffer.line(3))")
        let rows = DetailView.fields(record, hasNotes: false, display: model.display)
        #expect(rows.contains { $0.0 == "From Aksaray" && $0.1 == "21 km N of Aksaray" })
        let seconds = Int((felt.hypocentralKm / 3.5).rounded())
        #expect(rows.contains { $0.0 == "At Aksaray" && $0.1 == "\(felt.label) (predicted \(String(format: "%.1f", felt.oneDecimal)) ± "
                    + "\(String(format: "%.1f", felt.sigma))), S waves ~\(seconds) s after the origin" })
    }
}

extension QuakeRecord {
    fileprivate func with(latitude: Double) -> QuakeRecord {
        var copy = self
        copy.latitude = latitude
        return copy
    }
}
