import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
import QuakeTestSupport
import Testing

/// `quaketui status`'s choice and line (`StatusSummary`): the alert of the last 24 hours that
/// matters most, else the largest quake of the last hour within the radius (300 km unset).
@Suite struct StatusSummaryTests {
    static let home = FeltAtHomeTests.aksaray
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    static func quake(_ code: String, _ magnitude: Double, northKm: Double, minutesAgo: Double, alert: String? = nil) -> QuakeRecord {
        var record = FeltAtHomeTests.quake(code, magnitude, northKm: northKm, alert: alert, place: "\(code) place")
        record.time = Int64((now.timeIntervalSince1970 - minutesAgo * 60) * 1000)
        return record
    }

    @Test func theAlertThatMattersMostLeadsWithinADay() {
        let summary = StatusSummary(rule: AlertRule(minimumMagnitude: 5, home: Self.home, homeName: "Aksaray"), now: Self.now)
        let quakes = [Self.quake("big-far", 7.5, northKm: 9_000, minutesAgo: 60, alert: "red"),
                      Self.quake("near", 5.2, northKm: 30, minutesAgo: 600),
                      Self.quake("old", 8.0, northKm: 10, minutesAgo: 24 * 60 + 5)]
        #expect(summary.choose(quakes)?.code == "near", "stronger shaking at home beats PAGER red far away")
        let felt = FeltIntensity(home: Self.home, latitude: quakes[1].latitude, longitude: quakes[1].longitude, depth: 10, magnitude: 5.2)!
        #expect(summary.line(for: quakes) == "M5.2 30 km N · \(FeltIntensity.numeral(felt.whole)) · 10h")
    }

    @Test func withoutAnAlertTheLargestQuakeOfTheLastHourNearHome() {
        let summary = StatusSummary(rule: AlertRule(minimumMagnitude: 6, home: Self.home), now: Self.now)
        let quakes = [Self.quake("a", 2.1, northKm: 120, minutesAgo: 10), Self.quake("b", 3.4, northKm: 280, minutesAgo: 50),
                      Self.quake("c", 4.9, northKm: 320, minutesAgo: 5), Self.quake("d", 4.0, northKm: 20, minutesAgo: 61)]
        #expect(summary.choose(quakes)?.code == "b", "300 km and an hour by default")
        // alertRadius set: a quake within it is an alert, for 24 hours: d (61 minutes ago) leads.
        var narrow = summary
        narrow.rule.radius = 150
        #expect(narrow.choose(quakes)?.code == "d")
        #expect(StatusSummary(rule: AlertRule(minimumMagnitude: 6), now: Self.now).choose(quakes) == nil, "no home: no fallback")
        #expect(summary.line(for: []) == "")
    }

    @Test func formatsAndAges() {
        let summary = StatusSummary(rule: AlertRule(home: Self.home), now: Self.now)
        let quake = Self.quake("x", 4.44, northKm: 50, minutesAgo: 0.5)
        #expect(summary.render(quake, format: "%m|%d|%b|%a|%c|%%|%q") == "M4.4|50 km|N|30s|x|%|%q")
        #expect(StatusSummary.age(seconds: 7_300) == "2h" && StatusSummary.age(seconds: -5) == "0s")
        var hostile = quake
        hostile.place = "bad\u{1B}[31mplace\nnext"
        #expect(!summary.render(hostile, format: "%p").contains("\u{1B}"))
        // tmux reads `#[…]` in a status line as a style and `#(…)` as a command: a feed's text
        // reaches it as text (`##` shows one `#`); the user's own format keeps its styles.
        var styled = quake
        styled.place = "#[fg=red,reverse]TMUX#(touch /tmp/x)"
        styled.code = "a#b"
        #expect(summary.render(styled, format: "#[bold]%m %p %c") == "#[bold]M4.4 ##[fg=red,reverse]TMUX##(touch /tmp/x) a##b")
    }
}
