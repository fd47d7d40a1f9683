import Foundation
import Testing
import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// Issue 30's property: seeded random catalogues, written by ``CatalogueWriters`` in every
/// supported format with random valid IDs of every pattern, random agencies and several
/// magnitudes per event, import into a store that then equals the generator's truth.
@Suite struct RandomCatalogueTests {
    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case geoJSON, geoJSONMetadataLast, csv, fdsnText, quakeML, quakeMLRT, emscJSON
        var testDescription: String { rawValue }
    }

    /// The FDSN text agencies: Author, Catalog, Contributor of the file, the id of event n, and
    /// the agency the store must name.
    static let textAgencies: [(author: String, catalog: String, contributor: String, id: @Sendable (Int) -> String, agency: String)] = [
        ("us", "us", "us", { "us7000\($0)" }, "usgs"),
        ("", "GEOFON", "GFZ", { "gfz2024\($0)" }, "geofon"),
        ("SURVEY-INGV", "", "", { "\(37_000_000 + $0)" }, "ingv"),
        ("NIEP", "EMSC-RTS", "EMSC", { String(format: "20240101_%07d", $0) }, "emsc"),
        ("NOA", "", "", { "noa\($0)" }, "noa"),
        ("", "", "", { "\($0)" }, "local"),
    ]

    /// Writes a random catalogue in `format` and returns the bytes, the caller's agency (as
    /// `import --agency` would pass it, or nil) and the truth.
    static func catalogue(_ format: Format, seed: UInt64) -> (String, String?, [TruthEvent]) {
        var rng = SeededGenerator(seed: seed &* 31 &+ UInt64(Format.allCases.firstIndex(of: format)!))
        var events = CatalogueWriters.events(count: Int.random(in: 1...30, using: &rng), rng: &rng)
        switch format {
        case .quakeML, .quakeMLRT:
            for i in events.indices { CatalogueWriters.quakeMLIdentity(&events[i], index: i, rng: &rng) }
            let text = format == .quakeML ? CatalogueWriters.quakeML(events, rng: &rng) : CatalogueWriters.quakeMLRT(events, rng: &rng)
            return (text, nil, events)
        case .fdsnText:
            let a = textAgencies.randomElement(using: &rng)!
            for i in events.indices {
                events[i].id = a.id(1000 + i)
                events[i].source = a.agency
                events[i].code = a.agency == "usgs" ? events[i].id : "\(a.agency):\(events[i].id)"
            }
            return (CatalogueWriters.fdsnText(events, author: a.author, catalog: a.catalog, contributor: a.contributor), nil, events)
        case .geoJSON, .geoJSONMetadataLast, .csv:
            // The USGS formats are USGS's unless the caller names another agency.
            let agency = [nil, nil, "iris", "usgs"].randomElement(using: &rng)!
            for i in events.indices {
                events[i].id = "us\(7000 + i)abcd"
                events[i].source = agency ?? "usgs"
                events[i].code = events[i].source == "usgs" ? events[i].id : "\(events[i].source):\(events[i].id)"
            }
            let text = format == .csv ? CatalogueWriters.csv(events)
                : CatalogueWriters.geoJSON(events, metadataFirst: format == .geoJSON)
            return (text, agency, events)
        case .emscJSON:
            for i in events.indices {
                events[i].id = String(format: "20240101_%07d", 1000 + i)
                (events[i].source, events[i].code) = ("emsc", "emsc:\(events[i].id)")
            }
            return (CatalogueWriters.emscJSON(events), nil, events)
        }
    }

    static func expectStoreEqualsTruth(_ store: TestStore, _ truth: [TruthEvent], _ context: String) throws {
        #expect(try store.read { try $0.quakeCount() } == truth.count, "\(context)")
        for e in truth {
            guard let quake = try store.read({ try $0.quake(code: e.code) })?.record else {
                Issue.record("\(context): \(e.code) is not in the store")
                continue
            }
            let m = e.expectedMagnitude
            #expect(quake.source == e.source && quake.time == e.time && quake.latitude == e.latitude
                        && quake.longitude == e.longitude && quake.depth == e.depth
                        && quake.magnitude == m.value && quake.magType == m.type,
                    "\(context): \(e.code) stored as \(quake.source ?? "nil") t=\(quake.time) (\(quake.latitude), \(quake.longitude), \(quake.depth ?? -1)) M\(quake.magnitude ?? -1) \(quake.magType ?? "nil"); want \(e.source) t=\(e.time) (\(e.latitude), \(e.longitude), \(e.depth)) M\(m.value) \(m.type)")
        }
    }

    @Test(arguments: Format.allCases)
    func theStoreEqualsTheGeneratorsTruth(_ format: Format) throws {
        for seed in UInt64(1)...12 {
            let (text, agency, truth) = Self.catalogue(format, seed: seed)
            let store = try TestStore()
            defer { store.remove() }
            let reader = try FeedReader(source: .bytes(Array(text.utf8)), name: "\(format)-\(seed)", chunkSize: seed % 3 == 0 ? 61 : 4096,
                                        agency: agency)
            let summary = try FeedImporter(container: store.container).run(reader)
            #expect(summary.skipped == 0, "\(format) seed \(seed): \(summary.skippedReasons)")
            try Self.expectStoreEqualsTruth(store, truth, "\(format) seed \(seed)")
        }
    }

    /// One agency's events as FDSN text and as QuakeML: one quake each, whichever comes first.
    @Test(arguments: [("GFZ", "geofon", nil), ("SURVEY-INGV", "ingv", nil), ("EMSC", "emsc", nil), ("us", "usgs", nil),
                      ("ISC", "iris", "iris")] as [(String, String, String?)])
    func oneAgencyInTwoFormatsIsOneQuakeEach(_ name: String, _ agency: String, _ caller: String?) throws {
        for seed in UInt64(1)...6 {
            var rng = SeededGenerator(seed: seed)
            var events = CatalogueWriters.events(count: Int.random(in: 1...20, using: &rng), rng: &rng)
            for i in events.indices {
                let n = 5000 + i
                var e = events[i]
                switch agency {
                case "geofon": (e.id, e.publicID) = ("gfz2023\(n)", "smi:org.gfz-potsdam.de/geofon/gfz2023\(n)")
                case "ingv": (e.id, e.publicID) = ("\(n)", "smi:webservices.ingv.it/fdsnws/event/1/query?eventId=\(n)")
                case "emsc": (e.id, e.publicID) = (String(format: "20230101_%07d", n), String(format: "quakeml:eu.emsc/event/20230101_%07d", n))
                case "iris": (e.id, e.publicID) = ("\(n)", "smi:service.iris.edu/fdsnws/event/1/query?eventid=\(n)")
                default:
                    (e.id, e.publicID) = ("us\(n)abc", "quakeml:earthquake.usgs.gov/fdsnws/event/1/query?eventid=us\(n)abc&amp;format=quakeml")
                    e.attributes = #" catalog:eventsource="us" catalog:eventid="\#(n)abc""#
                }
                e.source = agency
                e.code = agency == "usgs" ? e.id : "\(agency):\(e.id)"
                events[i] = e
            }
            let text = CatalogueWriters.fdsnText(events, author: name == "GFZ" ? "" : name, catalog: name == "us" ? "us" : "",
                                                 contributor: name)
            let xml = Bool.random(using: &rng) ? CatalogueWriters.quakeML(events, rng: &rng) : CatalogueWriters.quakeMLRT(events, rng: &rng)
            let store = try TestStore()
            defer { store.remove() }
            let order = Bool.random(using: &rng) ? [text, xml] : [xml, text]
            for document in order {
                _ = try FeedImporter(container: store.container)
                    .run(try FeedReader(source: .bytes(Array(document.utf8)), name: agency, agency: caller))
            }
            // The text carries only the chosen magnitude; both formats agree on everything else.
            try Self.expectStoreEqualsTruth(store, events, "\(agency) seed \(seed)")
        }
    }
}
