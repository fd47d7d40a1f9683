import Foundation
import QuakeFeed
import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// One earthquake ComCat published under two codes, then merged, is one quake
/// (`WriteTransaction+Aliases.swift`), on `ComCatFixture`'s downloads and on the real pair.
@Suite struct ComCatAliasTests {
    static func importing(_ text: String, into store: TestStore, name: String = "download.geojson") throws -> ImportSummary {
        try FeedImporter(container: store.container).run(try FeedReader(source: .bytes(Array(text.utf8)), name: name))
    }

    static func codes(_ store: TestStore) throws -> Set<String> {
        try store.read { db in
            var codes: Set<String> = []
            let rows = try db.prepare("SELECT code FROM quake")
            while try rows.step() { codes.insert(rows.text(at: 0)) }
            return codes
        }
    }

    static let apart = ComCatFixture.apart
    static let merged = ComCatFixture.merged

    @Test func theReaderListsEachOtherCodeWithWhenTheDownloadWasGenerated() throws {
        let reader = try FeedReader(source: .bytes(Array(Self.merged.utf8)), name: "merged.geojson")
        _ = try reader.readAll()
        #expect(reader.comCatAliases == ComCatAliases(aliases: [
            .init(alias: "nn00743603", code: "nn00743624"), .init(alias: "us6000a6su", code: "nn00743624"),
        ], generated: 1_591_762_834_000))
        // `generated` in seconds, as some feeds write it, is read as such.
        let seconds = Self.merged.replacingOccurrences(of: "1591762834000", with: "1591762834")
        let inSeconds = try FeedReader(source: .bytes(Array(seconds.utf8)), name: "s.geojson")
        _ = try inSeconds.readAll()
        #expect(inSeconds.comCatAliases.generated == 1_591_762_834_000)
        // A `generated` past the range of milliseconds says nothing (and does not trap).
        let huge = Self.merged.replacingOccurrences(of: "1591762834000", with: "1e300")
        let inHuge = try FeedReader(source: .bytes(Array(huge.utf8)), name: "huge.geojson")
        _ = try inHuge.readAll()
        #expect(inHuge.comCatAliases.generated == nil && inHuge.comCatAliases.aliases.count == 2)
        // Another agency's feed lists none: its ids are not ComCat's.
        let emsc = Self.merged.replacingOccurrences(of: #""net":"nn""#, with: #""net":"nn","source_catalog":"EMSC-RTS""#)
        let other = try FeedReader(source: .bytes(Array(emsc.utf8)), name: "emsc.geojson")
        _ = try other.readAll()
        #expect(other.comCatAliases.aliases.isEmpty)
    }

    /// `ids` as ComCat writes it (between commas), and as a hand-made file may: no outer commas,
    /// spaces, the own code repeated, an escape.
    @Test(arguments: [
        (",us1,", [String]()), ("us1", []), ("", []), (",,", []),
        (",ci2,us1,", ["ci2"]), ("us1,ci2", ["ci2"]), (" ci2 , us1 ,nn3", ["ci2", "nn3"]), (",ci2,ci2,us1,us1,", ["ci2"]),
        (#",ci2,us1,"#, ["ci2"]),
    ])
    func idsAreReadHoweverTheyAreWritten(ids: String, others: [String]) throws {
        let text = ComCatFixture.download(generated: 1_600_000_000_000, [ComCatFixture.feature("us1", ids: ["X"])])
            .replacingOccurrences(of: #"",X,""#, with: "\"\(ids)\"")
        let reader = try FeedReader(source: .bytes(Array(text.utf8)), name: "ids.geojson")
        #expect(try reader.readAll().map(\.code) == ["us1"])
        #expect(reader.comCatAliases.aliases.map(\.alias) == others)
        #expect(reader.comCatAliases.aliases.allSatisfy { $0.code == "us1" })
    }

    @Test(arguments: [false, true])
    func theMergedDownloadDecidesInEitherOrder(mergedFirst: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        if mergedFirst {
            _ = try Self.importing(Self.merged, into: store)
            let older = try Self.importing(Self.apart, into: store)
            // The older download's record of the merged code is an older view of the event.
            #expect(older.inserted == 0 && older.unchanged == 2 && older.merged == 0)
        } else {
            _ = try Self.importing(Self.apart, into: store)
            let newer = try Self.importing(Self.merged, into: store)
            #expect(newer.merged == 1 && newer.inserted == 0)
            #expect(newer.sentence.contains("; 1 stored quake merged into the event ComCat lists it under"))
        }
        #expect(try Self.codes(store) == ["nn00743624"])
        // Any of the event's codes names it.
        #expect(try store.read { try $0.quake(code: "us6000a6su")?.record.code } == "nn00743624")
        #expect(try store.read { try $0.quake(code: "nn00743603")?.record.code } == "nn00743624")
        #expect(try store.read { try $0.quakeCount() } == 1)
    }

    @Test func notesGoToTheEventTheyWereMergedInto() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.apart, into: store)
        try store.setNotes("felt in Mina", code: "us6000a6su")
        _ = try Self.importing(Self.merged, into: store)
        #expect(try store.read { try $0.quake(code: "nn00743624")?.notes } == "felt in Mina")

        // Both had notes: both are kept, the event's first.
        let both = try TestStore()
        defer { both.remove() }
        _ = try Self.importing(Self.apart, into: both)
        try both.setNotes("felt in Mina", code: "us6000a6su")
        try both.setNotes("swarm", code: "nn00743624")
        _ = try Self.importing(Self.merged, into: both)
        #expect(try both.read { try $0.quake(code: "nn00743624")?.notes } == "swarm\n\nfelt in Mina")

        // Notes saved under the merged code afterwards (a scene's unsaved draft) go to the event.
        try both.setNotes("aftershock of a swarm", code: "us6000a6su")
        #expect(try both.read { try $0.quake(code: "nn00743624")?.notes } == "aftershock of a swarm")
        #expect(try Self.codes(both) == ["nn00743624"])
    }

    @Test func aNewerDownloadThatListsTheCodeApartSplitsThemForGood() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.merged, into: store)
        // ComCat split them again.
        let split = ComCatFixture.download(generated: 1_591_800_000_000, [
            ComCatFixture.feature("nn00743624", ids: ["nn00743624"]),
            ComCatFixture.feature("us6000a6su", ids: ["us6000a6su"], magnitude: 2.5, time: 1_591_385_507_668, longitude: -117.8903),
        ])
        let summary = try Self.importing(split, into: store)
        #expect(summary.inserted == 1 && summary.merged == 0)
        #expect(try Self.codes(store) == ["nn00743624", "us6000a6su"])
        // The download that merged them, older, imported again does not merge them again.
        _ = try Self.importing(Self.merged, into: store)
        #expect(try Self.codes(store) == ["nn00743624", "us6000a6su"])
    }

    /// The split imported first: its record of the code, updated after the older download was
    /// generated, says a newer download listed it as an event, and the older merge does not take it.
    /// Not updated since, nothing says so and the older merge merges it (README).
    @Test(arguments: [true, false])
    func aSplitImportedBeforeTheOlderMerge(updatedSince: Bool) throws {
        let store = try TestStore()
        defer { store.remove() }
        let split = ComCatFixture.download(generated: 1_591_800_000_000, [
            ComCatFixture.feature("nn00743624", ids: ["nn00743624"]),
            ComCatFixture.feature("us6000a6su", ids: ["us6000a6su"], magnitude: 2.5, time: 1_591_385_507_668,
                                  updated: updatedSince ? 1_591_790_000_000 : 1_591_394_087_040, longitude: -117.8903),
        ])
        _ = try Self.importing(split, into: store)
        let older = try Self.importing(Self.merged, into: store)
        #expect(older.merged == (updatedSince ? 0 : 1))
        #expect(try Self.codes(store) == (updatedSince ? ["nn00743624", "us6000a6su"] : ["nn00743624"]))
        // Then the merged download again, or the split: nothing changes.
        _ = try Self.importing(Self.merged, into: store)
        #expect(try Self.codes(store) == (updatedSince ? ["nn00743624", "us6000a6su"] : ["nn00743624"]))
    }

    @Test func aNewerDownloadThatPrefersTheOtherCodeKeepsThatOne() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.merged, into: store)
        try store.setNotes("swarm", code: "nn00743624")
        let swapped = ComCatFixture.download(generated: 1_591_800_000_000, [
            ComCatFixture.feature("us6000a6su", ids: ["us6000a6su", "nn00743624", "nn00743603"], magnitude: 2.5),
        ])
        let summary = try Self.importing(swapped, into: store)
        #expect(summary.merged == 1)
        #expect(try Self.codes(store) == ["us6000a6su"])
        #expect(try store.read { try $0.quake(code: "nn00743624")?.record.code } == "us6000a6su")
        #expect(try store.read { try $0.quake(code: "us6000a6su")?.notes } == "swarm")
        // The first download, older, imported again changes nothing.
        let again = try Self.importing(Self.merged, into: store)
        #expect(again.inserted == 0 && again.merged == 0)
        #expect(try Self.codes(store) == ["us6000a6su"])
    }

    @Test func aDownloadThatDoesNotSayWhenItWasMadeDoesNotUndoAMerge() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.merged, into: store)
        let undated = ComCatFixture.download(generated: nil, [
            ComCatFixture.feature("us6000a6su", ids: ["us6000a6su"], magnitude: 2.5, time: 1_591_385_507_668, longitude: -117.8903),
        ])
        let summary = try Self.importing(undated, into: store)
        #expect(summary.inserted == 0 && summary.unchanged == 1)
        #expect(try Self.codes(store) == ["nn00743624"])
    }

    /// Of two undated downloads, the later one does not undo the first's merge, whatever its own
    /// feature's `ids` list (a record of the merged code is an older view of its event).
    @Test(arguments: [["nn00743624"], ["nn00743624", "ci0000000x"]])
    func anUndatedDownloadDoesNotUndoAnUndatedMerge(ids: [String]) throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(ComCatFixture.download(generated: nil, [
            ComCatFixture.feature("us6000a6su", ids: ["us6000a6su", "nn00743624"]),
        ]), into: store)
        let again = try Self.importing(ComCatFixture.download(generated: nil, [
            ComCatFixture.feature("nn00743624", ids: ids, time: 1_591_385_507_668),
        ]), into: store)
        #expect(again.inserted == 0 && again.unchanged == 1)
        #expect(try Self.codes(store) == ["us6000a6su"])
    }

    /// A merged code that was the preferred report of an event another agency reported too: the
    /// event goes on with the other agency's report, and the code ComCat kept joins it.
    @Test func aMergedCodeLeavesTheEventItSharedWithAnotherAgency() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try Self.importing(Self.apart, into: store)
        let emsc = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n"
            + "20200605_0000200|2020-06-05T19:31:47.70|38.160|-117.890|5.0|EMSC||||ML|2.5|EMSC|NEVADA|earthquake\n"
        _ = try Self.importing(emsc, into: store, name: "emsc.txt")
        _ = try Self.importing(Self.merged, into: store)
        let codes = try Self.codes(store)
        let events = try store.read { db in try codes.map { try db.reports(ofEvent: $0).map(\.code).sorted() } }
        #expect(events == [["emsc:20200605_0000200", "nn00743624"]])
    }

    /// The real pair: `all_week-2020-06-10` lists `us6000a6su` among the ids of `nn00743624`; the
    /// FDSN query of the week, generated 15 minutes before it, still has them apart. The quakes
    /// stored are each file's features but the codes the newer file lists under another event,
    /// in either order (read independently here with JSONSerialization).
    @Test(.enabled(if: SharedData.isAvailable), arguments: [false, true])
    func theRealFeedsAreOneQuakePerEventInEitherOrder(weekFirst: Bool) throws {
        let names = ["fdsn_query-m2.5-2020-06-03_to_06-10.geojson", "all_week-2020-06-10.geojson"]
        var features: [String: Int64] = [:]   // code → the newest file listing it as a feature
        var listedUnder: [String: (event: String, generated: Int64)] = [:]
        for name in names {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: SharedData.url(name))) as! [String: Any]
            let generated = ((json["metadata"] as! [String: Any])["generated"] as! NSNumber).int64Value
            for feature in json["features"] as! [[String: Any]] {
                let code = feature["id"] as! String
                features[code] = max(features[code] ?? .min, generated)
                let ids = ((feature["properties"] as! [String: Any])["ids"] as? String ?? "").split(separator: ",").map(String.init)
                for id in ids where id != code && generated >= listedUnder[id]?.generated ?? .min {
                    listedUnder[id] = (code, generated)
                }
            }
        }
        let expected = Set(features.keys.filter { code in
            guard let under = listedUnder[code] else { return true }
            return features[code]! > under.generated
        })
        #expect(features.count - expected.count == 1)

        let store = try TestStore()
        defer { store.remove() }
        for name in weekFirst ? names.reversed() : names {
            _ = try FeedImporter(container: store.container).run(try FeedReader(path: SharedData.url(name).path))
        }
        #expect(try Self.codes(store) == expected)
        #expect(try store.read { try $0.quake(code: "us6000a6su")?.record.code } == "nn00743624")
    }
}
