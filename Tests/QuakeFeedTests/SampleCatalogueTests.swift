import Foundation
import QuakeFeed
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
}
