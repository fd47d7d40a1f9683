import Foundation
import QuakeFeed
import QuakeStore
import QuakeTestSupport

/// The fields every format carries, for comparing readers with independent parses.
struct CoreFields: Equatable, CustomStringConvertible {
    var code: String
    var magnitude: Double?
    var place: String
    var time: Int64
    var updated: Int64
    var latitude: Double
    var longitude: Double
    var depth: Double?

    init(code: String, magnitude: Double?, place: String, time: Int64, updated: Int64,
         latitude: Double, longitude: Double, depth: Double?) {
        self.code = code
        self.magnitude = magnitude
        self.place = place
        self.time = time
        self.updated = updated
        self.latitude = latitude
        self.longitude = longitude
        self.depth = depth
    }

    init(_ r: QuakeRecord) {
        self.init(code: r.code, magnitude: r.magnitude, place: r.place, time: r.time, updated: r.updated,
                  latitude: r.latitude, longitude: r.longitude, depth: r.depth)
    }

    /// Equal, allowing doubles a relative error of 1e-12: swift-corelibs-foundation's
    /// JSONSerialization does not round decimals correctly (20.4836 comes out as
    /// 20.483599999999996, several ulps off), while the reader matches `Double(String)`
    /// exactly (see NumberTests, which checks that without the tolerance).
    func matches(_ other: CoreFields) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { a == b || abs(a - b) <= 1e-12 * max(1, abs(a)) }
        func close(_ a: Double?, _ b: Double?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case let (a?, b?): return close(a, b)
            default: return false
            }
        }
        return code == other.code && place == other.place && time == other.time && updated == other.updated
            && close(magnitude, other.magnitude) && close(latitude, other.latitude)
            && close(longitude, other.longitude) && close(depth, other.depth)
    }

    var description: String {
        "\(code) M\(magnitude.map { "\($0)" } ?? "nil") \(place) t=\(time) u=\(updated) (\(latitude), \(longitude), \(depth.map { "\($0)" } ?? "nil"))"
    }
}

enum Feed {
    /// Reads every record of `bytes` with the given chunk size.
    static func read(_ bytes: [UInt8], name: String = "test.geojson", chunkSize: Int = FeedReader.defaultChunkSize)
        throws(FeedError) -> [QuakeRecord] {
        try FeedReader(source: .bytes(bytes), name: name, chunkSize: chunkSize).readAll()
    }

    static func read(_ text: String, name: String = "test.geojson", chunkSize: Int = FeedReader.defaultChunkSize)
        throws(FeedError) -> [QuakeRecord] {
        try read(Array(text.utf8), name: name, chunkSize: chunkSize)
    }

    /// The error reading `bytes` throws (at open or while reading), or nil.
    static func error(_ bytes: [UInt8], name: String = "bad.geojson", chunkSize: Int = FeedReader.defaultChunkSize)
        -> FeedError? {
        do {
            _ = try read(bytes, name: name, chunkSize: chunkSize)
            return nil
        } catch {
            return error
        }
    }

    static func error(_ text: String, name: String = "bad.geojson", chunkSize: Int = FeedReader.defaultChunkSize)
        -> FeedError? {
        error(Array(text.utf8), name: name, chunkSize: chunkSize)
    }

    /// A FeatureCollection around the given feature texts.
    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","metadata":{"count":\#(features.count)},"features":["#
            + features.joined(separator: ",") + #"],"bbox":[-180,-90,0,180,90,700]}"#
    }

    static let defaultProperties =
        #""mag":4.5,"place":"10 km N of Somewhere","time":1700000000000,"updated":1700000100000"#

    /// One feature with the given id, properties and coordinates JSON fragments.
    static func feature(id: String = #""us1""#, properties: String = defaultProperties,
                        coordinates: String = "[-120.5,35.25,8.1]") -> String {
        #"{"type":"Feature","properties":{\#(properties)},"geometry":{"type":"Point","coordinates":\#(coordinates)},"id":\#(id)}"#
    }

    static func bytes(of url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Compresses `data` with /usr/bin/gzip.
    static func gzip(_ data: [UInt8], in dir: TemporaryDirectory, name: String) throws -> [UInt8] {
        let file = dir.appending(name)
        try Data(data).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-f", "-k", file.path]
        try process.run()
        process.waitUntilExit()
        return try bytes(of: URL(fileURLWithPath: file.path + ".gz"))
    }

    /// The (line, column) just past the end of `bytes`, computed the simple way.
    static func endPosition(of bytes: [UInt8]) -> (line: Int, column: Int) {
        let newlines = bytes.filter { $0 == 0x0A }.count
        let lastNewline = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return (newlines + 1, bytes.count - lastNewline + 1)
    }
}
