import Foundation
@testable import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// The first launch's sample: imported into a new store only, and a launch on a store that is not
/// new takes no write lock (so a browser does not wait behind another process's long import).
@Suite struct SampleCatalogueTests {
    @Test func aStoreThatIsNotNewIsLeftAloneWithoutTheWriteLock() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try store.upsert([.fixture("a")])
        let other = try Connection(path: store.container.url.path)
        defer { other.close() }
        try other.execute("BEGIN IMMEDIATE")
        // Waiting for the lock would throw SQLITE_BUSY after the busy timeout: it is held throughout.
        #expect(try SampleCatalogue.importIntoNewStore(store.container) == nil)
        try other.execute("ROLLBACK")
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM quake").int64 } == 1)
    }

    @Test func aNewStoreGetsTheSampleOnce() throws {
        let store = try TestStore()
        defer { store.remove() }
        let first = try #require(try SampleCatalogue.importIntoNewStore(store.container))
        #expect(first.inserted > 0)
        #expect(try SampleCatalogue.importIntoNewStore(store.container) == nil)
        #expect(try store.read { try SampleCatalogue.isSample($0) })
    }

    /// Real data replaces the sample, but a note the user wrote on a sample quake is theirs: that
    /// quake stays, as an ordinary one, and the replacement says so (issue 31).
    @Test func replacingTheSampleKeepsTheQuakesWithNotesAndSaysSo() throws {
        let store = try TestStore()
        defer { store.remove() }
        let total = try #require(try SampleCatalogue.importIntoNewStore(store.container)).inserted
        let code = try #require(try store.read { try $0.scalar("SELECT min(code) FROM quake").string })
        let writer = try store.container.newBackgroundContext(author: "notes")
        defer { writer.close() }
        #expect(try writer.performAndWait { try $0.setNotes("felt it", forCode: code) })
        let replacement = try writer.performAndWait { try SampleCatalogue.removeSample(in: $0) }
        #expect(replacement == SampleReplacement(removed: total - 1, keptWithNotes: 1))
        #expect(replacement?.sentence == "replaced the bundled sample (\(CountFormat.quakes(total - 1))); kept 1 sample quake with your notes")
        #expect(try store.read { try $0.scalar("SELECT notes FROM quake WHERE code = ?", [.text(code)]).string } == "felt it")
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM quake").int64 } == 1)
        #expect(try store.read { try !SampleCatalogue.isSample($0) })
        #expect(try writer.performAndWait { try SampleCatalogue.removeSample(in: $0) } == nil, "only once")
    }

    @Test func replacingTheSampleWithoutNotesSaysHowManyWent() throws {
        let store = try TestStore()
        defer { store.remove() }
        let total = try #require(try SampleCatalogue.importIntoNewStore(store.container)).inserted
        let writer = try store.container.newBackgroundContext(author: "import")
        defer { writer.close() }
        let replacement = try writer.performAndWait { try SampleCatalogue.removeSample(in: $0) }
        #expect(replacement?.sentence == "replaced the bundled sample (\(CountFormat.quakes(total)))")
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM quake").int64 } == 0)
    }
}

/// The sample's events are invented: none carries a link to a USGS page or feed that does not exist.
@Suite struct SampleCatalogueLinkTests {
    @Test func theSampleCarriesNoEventLinks() throws {
        let store = try TestStore()
        defer { store.remove() }
        let summary = try #require(try SampleCatalogue.importIntoNewStore(store.container))
        #expect(summary.inserted > 700)
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM quake WHERE url IS NOT NULL").int64 } == 0)
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM quake WHERE code NOT LIKE 'sample%'").int64 } == 0)
        #expect(!SampleCatalogue.geoJSON.contains("/eventpage/") && !SampleCatalogue.geoJSON.contains("/detail/"))
    }
}
