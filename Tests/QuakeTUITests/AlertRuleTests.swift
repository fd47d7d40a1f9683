import Foundation
import QuakeModel
import QuakeStore
import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// Which arrivals alert: at or above the magnitude, or within the radius of home, recent only.
@Suite struct AlertRuleTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static func quake(_ magnitude: Double?, _ latitude: Double, _ longitude: Double, ageSeconds: Double = 60) -> QuakeRecord {
        let time = Int64((now.timeIntervalSince1970 - ageSeconds) * 1000)
        return QuakeRecord(code: "q", magnitude: magnitude, magType: "ml", place: "Somewhere", time: time, updated: time,
                           latitude: latitude, longitude: longitude, depth: 10)
    }

    @Test func nothingAlertsWithoutASetting() {
        #expect(!AlertRule().isEnabled)
        #expect(AlertRule().alert(for: Self.quake(9, 0, 0), now: Self.now) == nil)
        #expect(!AlertRule(radius: 100).isEnabled, "a radius needs a home")
    }

    @Test func magnitudeAndRadiusEachAlert() {
        let tokyo = GeoPoint(latitude: 35.68, longitude: 139.69)
        let rule = AlertRule(minimumMagnitude: 6, home: tokyo, homeName: "Tokyo", radius: 200)
        let near = rule.alert(for: Self.quake(3.1, 35.9, 140.1), now: Self.now)
        #expect(near?.isNearHome == true)
        #expect(near.map { abs($0.distance! - tokyo.distance(to: GeoPoint(latitude: 35.9, longitude: 140.1))) < 1e-9 } == true)
        #expect(near?.sentence(miles: false, homeName: "Tokyo") == "ALERT M 3.1 44 km ENE of Tokyo, predicted there: I not felt — Somewhere")
        let large = rule.alert(for: Self.quake(6.0, -20, -70), now: Self.now)
        #expect(large?.isNearHome == false)
        #expect(rule.alert(for: Self.quake(5.9, -20, -70), now: Self.now) == nil, "small and far")
        #expect(rule.alert(for: Self.quake(nil, -20, -70), now: Self.now) == nil, "no magnitude and far")
        #expect(rule.alert(for: Self.quake(nil, 35.7, 139.7), now: Self.now) != nil, "no magnitude but near")
    }

    @Test func oldQuakesNeverAlert() {
        let rule = AlertRule(minimumMagnitude: 5)
        #expect(rule.alert(for: Self.quake(7, 0, 0, ageSeconds: 86_000), now: Self.now) != nil)
        #expect(rule.alert(for: Self.quake(7, 0, 0, ageSeconds: 86_401), now: Self.now) == nil)
    }
}
