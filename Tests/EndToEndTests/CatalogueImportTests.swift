import Foundation
import QuakeTestSupport
import Testing

/// `quaketui import` of QuakeML, FDSN text, EMSC JSON, UTF-16 and seconds-times feeds, through
/// the real binary, against independent parses; and a file whose every record is skipped.
@Suite(.waitsOnProcesses) struct CatalogueImportTests {
    /// Imports `path` and returns the stored (codes, time span, sources) from `list --json`.
    private func importAndList(_ path: String, in dir: TemporaryDirectory) throws
        -> (result: QuaketuiBinary.Result, codes: Set<String>, times: [Int64], sources: Set<String>) {
        let result = try QuaketuiBinary.run(["import", path], stateDirectory: dir.url)
        let list = try QuaketuiBinary.run(["list", "--json", "--limit", "1000000"], stateDirectory: dir.url)
        let sections = try list.json()["sections"] as? [[String: Any]] ?? []
        let quakes = sections.flatMap { $0["quakes"] as? [[String: Any]] ?? [] }
        let times = quakes.compactMap { ($0["time"] as? String).flatMap(IndependentParse.isoMilliseconds) }
        return (result, Set(quakes.compactMap { $0["code"] as? String }), times.sorted(),
                Set(quakes.compactMap { $0["source"] as? String }))
    }

    private func expectMatches(_ path: String, expected: [CoreFields], sources: Set<String>, note: String? = nil) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let got = try importAndList(path, in: dir)
        #expect(got.result.status == 0, "\(got.result.stderr)")
        #expect(got.codes == Set(expected.map(\.code)))
        #expect(got.times.first == expected.map(\.time).min() && got.times.last == expected.map(\.time).max())
        #expect(got.sources == sources)
        if let note { #expect(got.result.notes == [note], "\(got.result.stdout)") }
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/other"), arguments: SharedData.otherFiles())
    func realQuakeMLAndFDSNTextFiles(_ url: URL) throws {
        let sources: [String: Set<String>] = [
            "quakeml-usgs_product_origin-usc000nwtr-2014-03-30.xml": ["usgs"], "quakeml-iris_fdsn-2015-11-18.xml": ["iris"],
            "fdsn_text-usgs-honshu-2024-01-01.txt": ["usgs"],
        ]
        try expectMatches(url.path, expected: try IndependentParse.expected(for: url), sources: sources[url.lastPathComponent] ?? [])
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func legacySecondsFeedSaysSo() throws {
        let url = SharedData.url("legacy2012_geojsonp-2012-09-20.geojsonp")
        try expectMatches(url.path, expected: try IndependentParse.expected(for: url), sources: ["usgs"],
                          note: "times are in seconds (decided from its 288 features); converted to milliseconds")
    }

    @Test func fixturesInEveryEncodingAndCompressed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cases: [(String, [UInt8], Set<String>)] = [
            ("emsc.json", Array(CatalogueFixtures.emscJSON.utf8), ["emsc"]),
            ("emsc-utf16le.json", CatalogueFixtures.utf16(CatalogueFixtures.emscJSON, bigEndian: false), ["emsc"]),
            ("events-utf16be.xml", CatalogueFixtures.utf16(CatalogueFixtures.quakeML, bigEndian: true), ["emsc"]),
            ("events.txt", Array(CatalogueFixtures.fdsnText14.utf8), ["emsc"]),
            ("seconds.geojson", Array(CatalogueFixtures.secondsWithMetadata.utf8), ["usgs"]),
        ]
        for (name, bytes, sources) in cases {
            let file = dir.appending(name)
            try Data(bytes).write(to: file)
            let expected = try IndependentParse.expectedAnyFormat(Data(bytes))
            try expectMatches(file.path, expected: expected, sources: sources)
            // The same bytes gzip-compressed, under a misleading name: chosen by content.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
            process.arguments = ["-k", "-f", file.path]
            try process.run()
            process.waitUntilExit()
            let misleading = dir.appending(name + ".csv")
            try FileManager.default.moveItem(atPath: file.path + ".gz", toPath: misleading.path)
            try expectMatches(misleading.path, expected: expected, sources: sources)
        }
    }

    @Test func aFileWhoseEveryRecordIsSkippedFailsAndChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.appending("no-times.geojson")
        try Data(CatalogueFixtures.everyFeatureSkipped.utf8).write(to: file)
        let result = try QuaketuiBinary.run(["import", file.path], stateDirectory: dir.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: \(file.path): all 2 records were skipped, so nothing was imported (feature 1 (line 2): "
                                      + #"no "time"; feature 2 (line 3): no "time"); check that this is an earthquake catalogue in "#
                                      + "a supported format; the store is unchanged."], "\(result.stderr)")
        // (An empty store lists the bundled sample; none of the file's codes may be there.)
        let list = try QuaketuiBinary.run(["list", "--json", "--limit", "100000"], stateDirectory: dir.url)
        #expect(Set(try list.listedCodes()).isDisjoint(with: ["us1", "us2"]))
    }
}

/// QuakeML is streamed: peak RSS of an import does not grow with the document (the 1,000,000-event
/// figure is in BENCHMARKS.md). The first ~40,000 rows fill memory that is bounded anyway (the heap
/// grows in SQLite's page allocations, `perf` on `brk`): about 8 MB more at 40,000 events than at
/// 2,000 in a debug build, 3.8 MB more at 60,000 than at 20,000, then flat (41–42 MB from 40,000 to
/// 200,000). So the small document is well into that fill, and 3× more events must stay within 8 MB.
@Suite(.waitsOnProcesses, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time (apt-get install -y time)"))
struct QuakeMLMemoryTests {
    static func writeQuakeML(events: Int, to url: URL) throws {
        var text = #"<?xml version="1.0" encoding="UTF-8"?><q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2"><eventParameters publicID="smi:test">"#
        text += "\n"
        for i in 0..<events {
            let time = IndependentParse.isoString(milliseconds: 1_262_304_000_000 + Int64(i) * 300_000)
            text += """
                <event publicID="smi:service.iris.edu/fdsnws/event/1/query?eventid=\(i)"><description><type>Flinn-Engdahl region</type><text>REGION \(i % 757)</text></description>
                <magnitude publicID="smi:m/\(i)"><mag><value>\(Double(20 + i % 50) / 10)</value></mag><type>mb</type></magnitude>
                <origin publicID="smi:o/\(i)"><time><value>\(time)</value></time><latitude><value>\(Double(i % 170) - 85)</value></latitude><longitude><value>\(Double(i % 350) - 175)</value></longitude><depth><value>\(i % 700_000)</value></depth><arrival><pickID>smi:p/\(i)</pickID></arrival></origin>
                <preferredOriginID>smi:o/\(i)</preferredOriginID><preferredMagnitudeID>smi:m/\(i)</preferredMagnitudeID><type>earthquake</type></event>

                """
        }
        text += "</eventParameters></q:quakeml>\n"
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    static func peakRSSKilobytes(importing url: URL, state: URL) throws -> Int {
        let rssFile = state.appendingPathExtension("rss")
        let (status, _, err) = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/time"),
                                                   ["-f", "%M", "-o", rssFile.path, QuaketuiBinary.url.path, "import", url.path,
                                                    "--state-dir", state.path])
        #expect(status == 0, "\(err)")
        return Int(try String(contentsOf: rssFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test func importPeakMemoryIsFlatFrom20000To60000Events() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let small = dir.appending("small.xml"), large = dir.appending("large.xml")
        try Self.writeQuakeML(events: 20_000, to: small)
        try Self.writeQuakeML(events: 60_000, to: large)
        let smallRSS = try Self.peakRSSKilobytes(importing: small, state: dir.appending("s1"))
        let largeRSS = try Self.peakRSSKilobytes(importing: large, state: dir.appending("s2"))
        #expect(smallRSS > 0)
        #expect(largeRSS - smallRSS < 8 * 1024, "peak RSS \(smallRSS) KB at 20,000 events, \(largeRSS) KB at 60,000")
    }
}
