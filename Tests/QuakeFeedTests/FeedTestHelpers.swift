import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

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
