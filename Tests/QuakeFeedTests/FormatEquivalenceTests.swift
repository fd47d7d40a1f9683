import Foundation
import Testing
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// The same quakes as GeoJSON, GeoJSONP, CSV and gzip of each read back identically, at any chunk size.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs beside the checkout"))
struct FormatEquivalenceTests {
    /// A USGS-style CSV of `records`, written by the test (places always quoted, `""` escaped).
    static func csv(of records: [QuakeRecord], lineEnding: String = "\n") -> String {
        var text = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
            + "horizontalError,depthError,magError,magNst,status,locationSource,magSource" + lineEnding
        for r in records {
            let place = "\"" + r.place.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let cells: [String] = [
                IndependentParse.isoString(milliseconds: r.time), "\(r.latitude)", "\(r.longitude)",
                r.depth.map { "\($0)" } ?? "", r.magnitude.map { "\($0)" } ?? "", r.magType ?? "", "", "", "", "",
                r.net ?? "", r.code, IndependentParse.isoString(milliseconds: r.updated), place, r.type ?? "",
                "", "", "", "", r.status ?? "", "", "",
            ]
            text += cells.joined(separator: ",") + lineEnding
        }
        return text
    }

    struct Variants {
        var geoJSON: [UInt8]
        var geoJSONP: [UInt8]
        var gzipGeoJSON: [UInt8]
        var csv: [UInt8]
        var csvCRLF: [UInt8]
        var gzipCSV: [UInt8]
        var all: [(String, [UInt8])] {
            [("geojson", geoJSON), ("geojsonp", geoJSONP), ("geojson.gz", gzipGeoJSON), ("csv", csv),
             ("crlf.csv", csvCRLF), ("csv.gz", gzipCSV)]
        }
    }

    static func variants(of file: String, in dir: TemporaryDirectory) throws -> (Variants, [QuakeRecord]) {
        let json = try Feed.bytes(of: SharedData.url(file))
        let records = try Feed.read(json)
        let csv = Array(csv(of: records).utf8)
        let variants = Variants(
            geoJSON: json,
            geoJSONP: Array("eqfeed_callback(".utf8) + json + Array(");".utf8),
            gzipGeoJSON: try Feed.gzip(json, in: dir, name: "feed.geojson"),
            csv: csv,
            csvCRLF: Array(Self.csv(of: records, lineEnding: "\r\n").utf8),
            gzipCSV: try Feed.gzip(csv, in: dir, name: "feed.csv"))
        return (variants, records)
    }

    @Test(arguments: ["1.0_day-2025-07-27.geojson", "fdsn_query-shakemap-south_america-2011-2021.geojson"])
    func everyFormatYieldsTheSameRecords(_ file: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (variants, records) = try Self.variants(of: file, in: dir)
        #expect(records.count > 100)
        let expected = records.map(CoreFields.init)
        for (label, bytes) in variants.all {
            let reader = try FeedReader(source: .bytes(bytes), name: label)
            let got = try reader.readAll()
            #expect(got.map(CoreFields.init) == expected, "\(label)")
            #expect(got.map(\.type) == records.map(\.type), "\(label)")
            #expect(got.map(\.net) == records.map(\.net), "\(label)")
            #expect(reader.isCompressed == label.hasSuffix(".gz"))
            #expect(reader.format == (label.contains("csv") ? .csv : label == "geojsonp" ? .geoJSONP : .geoJSON))
        }
    }

    @Test(arguments: [1, 2, 7])
    func tinyChunksGiveTheSameResult(_ chunkSize: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (variants, records) = try Self.variants(of: "significant_month-2023-10-11.geojson", in: dir)
        for (label, bytes) in variants.all {
            let got = try Feed.read(bytes, name: label, chunkSize: chunkSize)
            #expect(got.map(CoreFields.init) == records.map(CoreFields.init), "\(label) at chunk size \(chunkSize)")
        }
        // Whole real files with \u escapes, pretty-printing, quoted CSV cells and a JSONP wrapper.
        for file in ["1.0_day_pretty-2022-04-04.geojson", "fdsn_query-shakemap-south_america-2011-2021.csv",
                     "all_day-2016-11-04.geojsonp"] {
            let bytes = try Feed.bytes(of: SharedData.url(file))
            let whole = try Feed.read(bytes, name: file)
            #expect(try Feed.read(bytes, name: file, chunkSize: chunkSize) == whole, "\(file) at chunk size \(chunkSize)")
        }
    }

    @Test func escapesAndMultibyteCharactersAcrossChunkBoundaries() throws {
        let text = Feed.collection([Feed.feature(properties:
            #""place":"\ud83c\udf0b near H\u00f6fn, \"Iceland\"\\ Sındırgı \/ 日本","time":1,"mag":-1.5e0"#)])
        for chunkSize in 1...9 {
            let record = try #require(try Feed.read(text, chunkSize: chunkSize).first)
            #expect(record.place == "🌋 near Höfn, \"Iceland\"\\ Sındırgı / 日本")
            #expect(record.magnitude == -1.5)
        }
    }

    @Test func concatenatedGzipMembersReadAsOneStream() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let json = try Feed.bytes(of: SharedData.url("significant_month-2023-10-11.geojson"))
        let half = json.count / 2
        let joined = try Feed.gzip(Array(json[..<half]), in: dir, name: "a")
            + Feed.gzip(Array(json[half...]), in: dir, name: "b")
        #expect(try Feed.read(joined) == Feed.read(json))
    }

    @Test func corruptGzipIsAClearError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let gz = try Feed.gzip(try Feed.bytes(of: SharedData.url("all_hour-2017-12-03.geojson")), in: dir, name: "f")
        var corrupt = gz
        for i in 200..<260 { corrupt[i] ^= 0x5A }
        let error = try #require(Feed.error(corrupt, name: "all_hour.geojson.gz"))
        #expect(error.code == .corruptCompressedData)
        #expect(error.line >= 1 && error.column >= 1)
        #expect(error.description.hasPrefix("all_hour.geojson.gz:"))
        #expect(error.description.contains("corrupt compressed data at compressed byte"))
        #expect(error.description.hasSuffix("the compressed file is damaged or incomplete — download it again."))

        let truncated = Array(gz.prefix(gz.count - 50))
        let cut = try #require(Feed.error(truncated, name: "t.gz"))
        #expect(cut.code == .corruptCompressedData)
        #expect(cut.description.contains("ends before its end marker"))
    }

    @Test func progressCountsSourceBytes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let json = try Feed.bytes(of: SharedData.url("significant_month-2023-10-11.geojson"))
        let gz = try Feed.gzip(json, in: dir, name: "s.geojson")
        let path = dir.appending("s.geojson.gz").path
        let reader = try FeedReader(path: path)
        #expect(reader.totalBytes == Int64(gz.count))
        var last: Int64 = 0
        while try reader.next() != nil {
            #expect(reader.bytesRead >= last)
            last = reader.bytesRead
        }
        #expect(reader.bytesRead == Int64(gz.count))
        #expect(reader.recordsRead == 18)
    }

    @Test func readsAPipeWithUnknownSize() throws {
        let json = try Feed.bytes(of: SharedData.url("all_hour-2017-12-03.geojson"))
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let thread = Thread {
            writer.write(Data(json))
            try? writer.close()
        }
        thread.start()
        let reader = try FeedReader(source: .fileDescriptor(pipe.fileHandleForReading.fileDescriptor), name: "<stdin>")
        #expect(reader.totalBytes == nil)
        #expect(try reader.readAll().count == 8)
        #expect(reader.bytesRead == Int64(json.count))
    }
}
