import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// `list --near … --radius … --json` and `list --sort distance` on real feeds, against an
/// independent haversine (`ExpectedResults.kilometres`) applied to plain `list --json` output.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct DistanceListTests {
    static func quakes(_ result: QuaketuiBinary.Result) throws -> [[String: Any]] {
        let sections = try #require(try result.json()["sections"] as? [[String: Any]])
        return sections.flatMap { ($0["quakes"] as? [[String: Any]]) ?? [] }
    }

    @Test(arguments: [(35.68, 139.69, 400.0), (-18.14, 178.44, 1500.0), (61.2, -149.9, 250.0)])
    func nearJSONEqualsAnIndependentFilterOfListJSON(latitude: Double, longitude: Double, radius: Double) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let url = SharedData.url("all_week-2018-06-14.geojson")
        #expect(try QuaketuiBinary.run(["import", url.path], stateDirectory: dir.url).status == 0)
        let all = try Self.quakes(try QuaketuiBinary.run(["list", "--json"], stateDirectory: dir.url))
        let near = try QuaketuiBinary.run(["list", "--json", "--near", "\(latitude),\(longitude)", "--radius", "\(radius)"],
                                          stateDirectory: dir.url)
        #expect(near.status == 0, "\(near.stderr)")
        let listed = try Self.quakes(near)
        let expected = all.filter { quake in
            let km = ExpectedResults.kilometres(fromLatitude: latitude, longitude: longitude,
                                                toLatitude: quake["latitude"] as! Double, longitude: quake["longitude"] as! Double)
            return km <= radius
        }
        #expect(!expected.isEmpty)
        #expect(listed.map { $0["code"] as! String } == expected.map { $0["code"] as! String })
        for quake in listed {
            let lat = quake["latitude"] as! Double, lon = quake["longitude"] as! Double
            let km = ExpectedResults.kilometres(fromLatitude: latitude, longitude: longitude, toLatitude: lat, longitude: lon)
            let distance = try #require(quake["distanceKm"] as? Double)
            #expect(abs(distance - km) < 1e-6, "\(quake["code"]!)")
            // Bearing: the forward azimuth, written independently with atan2 of the vector form.
            let r = Double.pi / 180
            let y = sin((lon - longitude) * r) * cos(lat * r)
            let x = cos(latitude * r) * sin(lat * r) - sin(latitude * r) * cos(lat * r) * cos((lon - longitude) * r)
            let expectedBearing = (atan2(y, x) / r + 360).truncatingRemainder(dividingBy: 360)
            let bearing = try #require(quake["bearing"] as? Double)
            let difference = abs(bearing - expectedBearing)
            #expect(min(difference, 360 - difference) < 1e-6, "\(quake["code"]!)")
        }
    }

    /// `list --sort distance` from home (app storage) in km and miles, both directions.
    @Test func distanceSortFromHomeMatchesTheIndependentGrouping() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let url = SharedData.url("2.5_month-2025-10-29.geojson")
        #expect(try QuaketuiBinary.run(["import", url.path], stateDirectory: dir.url).status == 0)
        let records = try RealFeedImportTests.expectedRecords(url)
        let storage = try AppStorage(state: StateDirectory(path: dir.path))
        try storage.set(HomeLocation(latitude: 35.68, longitude: 139.69), for: AppKeys.home)
        for unit in ["km", "mi"] {
            try storage.set(unit, for: AppKeys.distanceUnit)
            for ascending in [true, false] {
                let arguments = ["list", "--json", "--sort", "distance", ascending ? "--ascending" : "--descending"]
                let listed = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
                #expect(listed.status == 0, "\(listed.stderr)")
                let expected = ExpectedResults.sections(records, order: .distance, ascending: ascending,
                                                        timeZone: TimeZone(identifier: "UTC")!, distanceFrom: (35.68, 139.69),
                                                        kmPerUnit: unit == "mi" ? 1.609344 : 1)
                let sections = try RealFeedImportTests.listedSections(listed)
                RealFeedImportTests.expectSections(sections, match: expected, "\(unit) ascending \(ascending)")
                // Within a band, in distance order: exactly the independent order.
                #expect(sections.flatMap(\.codes) == expected.flatMap(\.codes), "\(unit) ascending \(ascending): row order")
            }
        }
    }

    @Test func distanceWithoutAPointIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (arguments, message) in [
            (["list", "--sort", "distance"], "--sort distance needs a point: give --near LAT,LON, or set a home with 'quaketui config home LAT,LON'."),
            (["list", "--radius", "100"], "--radius needs a point: give --near LAT,LON, or set a home with 'quaketui config home LAT,LON'."),
            (["list", "--near", "91,0"],
             "'91,0' is not a place: latitude 91 is out of range (-90…90); use LAT,LON in decimal degrees, such as 35.68,139.69."),
            (["list", "--near", "1,2", "--radius", "-3"], "'-3' is not a radius; use a positive number of kilometres, at most 20038."),
            (["list", "--near", "1,2", "--radius", "20039"], "'20039' is not a radius; use a positive number of kilometres, at most 20038."),
        ] {
            let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errorLines.first == "Error: " + message, "\(arguments): \(result.stderr)")
        }
    }
}
