import Foundation

/// One USGS summary feed (https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php) in the
/// three versions of a revised report: automatic mb 5.1, then reviewed Mww 5.4 and moved, then
/// deleted; beside it a quake that does not change. For `RevisionTests` and the binary's test.
public enum RevisionFixture {
    public static func feed(mag: Double, magType: String, status: String, updated: Int64, lon: Double = 142.2, depth: Double = 10) -> String {
        """
        {"type":"FeatureCollection","metadata":{"generated":1704138000000,"url":"https://earthquake.usgs.gov/x.geojson",
        "title":"test","status":200,"api":"1.10.3","count":2},"features":[
        {"type":"Feature","properties":{"mag":\(mag),"place":"50 km W of Anamizu, Japan","time":1704133320000,
        "updated":\(updated),"tz":null,"url":"https://earthquake.usgs.gov/earthquakes/eventpage/us6000m0xl","detail":null,
        "felt":null,"cdi":null,"mmi":null,"alert":null,"status":"\(status)","tsunami":0,"sig":400,"net":"us",
        "code":"6000m0xl","ids":",us6000m0xl,","sources":",us,","types":",origin,","nst":null,"dmin":null,"rms":0.9,
        "gap":null,"magType":"\(magType)","type":"earthquake","title":"M \(mag) - 50 km W of Anamizu, Japan"},
        "geometry":{"type":"Point","coordinates":[\(lon),37.3,\(depth)]},"id":"us6000m0xl"},
        {"type":"Feature","properties":{"mag":4.4,"place":"Off the coast of Chile","time":1704100000000,
        "updated":1704100500000,"status":"reviewed","tsunami":0,"net":"us","magType":"mb","type":"earthquake"},
        "geometry":{"type":"Point","coordinates":[-72.0,-33.0,30]},"id":"us6000other"}]}
        """
    }

    public static let first = feed(mag: 5.1, magType: "mb", status: "automatic", updated: 1_704_133_400_000)
    public static let reviewed = feed(mag: 5.4, magType: "Mww", status: "reviewed", updated: 1_704_135_000_000, lon: 142.3, depth: 12)
    public static let deleted = feed(mag: 5.4, magType: "Mww", status: "deleted", updated: 1_704_136_000_000, lon: 142.3, depth: 12)
}
