import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Great-circle distance and bearing against independent formulas: the spherical law of
/// cosines for distance, and bearing from 3-D unit vectors (the direction of the great
/// circle's tangent), on every epicentre of a real feed.
@Suite struct GeoPointTests {
    static func lawOfCosines(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let r = Double.pi / 180
        let c = sin(a.latitude * r) * sin(b.latitude * r)
            + cos(a.latitude * r) * cos(b.latitude * r) * cos((b.longitude - a.longitude) * r)
        return GeoPoint.earthRadius * acos(max(-1, min(1, c)))
    }

    static func vectorBearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let r = Double.pi / 180
        func unit(_ p: GeoPoint) -> (Double, Double, Double) {
            (cos(p.latitude * r) * cos(p.longitude * r), cos(p.latitude * r) * sin(p.longitude * r), sin(p.latitude * r))
        }
        func cross(_ u: (Double, Double, Double), _ v: (Double, Double, Double)) -> (Double, Double, Double) {
            (u.1 * v.2 - u.2 * v.1, u.2 * v.0 - u.0 * v.2, u.0 * v.1 - u.1 * v.0)
        }
        func dot(_ u: (Double, Double, Double), _ v: (Double, Double, Double)) -> Double { u.0 * v.0 + u.1 * v.1 + u.2 * v.2 }
        let pa = unit(a), pb = unit(b)
        let north = (0.0, 0.0, 1.0)
        let toNorth = cross(cross(pa, north), pa)   // the plane towards the pole
        let toTarget = cross(cross(pa, pb), pa)     // the plane towards b
        let sine = dot(cross(toTarget, toNorth), pa)
        let cosine = dot(toTarget, toNorth)
        let degrees = atan2(sine, cosine) / r
        return degrees < 0 ? degrees + 360 : degrees
    }

    @Test func knownDistancesAndBearings() {
        let london = GeoPoint(latitude: 51.5074, longitude: -0.1278)
        let paris = GeoPoint(latitude: 48.8566, longitude: 2.3522)
        #expect(abs(london.distance(to: paris) - 343.5) < 1)
        #expect(abs(london.bearing(to: paris) - 148.1) < 0.5)
        #expect(GeoPoint(latitude: 0, longitude: 0).bearing(to: GeoPoint(latitude: 1, longitude: 0)) == 0)
        #expect(abs(GeoPoint(latitude: 0, longitude: 179).distance(to: GeoPoint(latitude: 0, longitude: -179)) - 222.4) < 0.5,
                "across the antimeridian")
        #expect(GeoPoint.compassPoint(0) == "N" && GeoPoint.compassPoint(359) == "N")
        #expect(GeoPoint.compassPoint(148) == "SSE" && GeoPoint.compassPoint(225) == "SW")
    }

    @Test func parsingRefusesWhatIsNotAPlace() {
        #expect(GeoPoint(parsing: "35.68,139.69") == GeoPoint(latitude: 35.68, longitude: 139.69))
        #expect(GeoPoint(parsing: " -33.9 , 18.4 ") == GeoPoint(latitude: -33.9, longitude: 18.4))
        for bad in ["", "1", "1,2,3", "91,0", "0,181", "nan,0", "inf,1", "a,b", "1;2"] {
            #expect(GeoPoint(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func everyEpicentreOfARealFeedAgreesWithTheIndependentFormulas() throws {
        let quakes = try IndependentParse.expected(for: SharedData.url("all_month-2023-04-04.csv"))
        #expect(quakes.count > 10_000)
        for home in [GeoPoint(latitude: 35.68, longitude: 139.69), GeoPoint(latitude: -33.92, longitude: 18.42),
                     GeoPoint(latitude: 64.15, longitude: -21.94)] {
            for quake in quakes {
                let epicentre = GeoPoint(latitude: quake.latitude, longitude: quake.longitude)
                let distance = home.distance(to: epicentre)
                #expect(abs(distance - Self.lawOfCosines(home, epicentre)) < 0.01, "\(quake.code)")
                guard distance > 1 else { continue }
                let difference = abs(home.bearing(to: epicentre) - Self.vectorBearing(home, epicentre))
                #expect(min(difference, 360 - difference) < 0.01, "\(quake.code)")
            }
        }
    }
}
