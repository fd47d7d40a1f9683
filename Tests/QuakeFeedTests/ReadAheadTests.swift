import Foundation
import Testing
@testable import QuakeFeed
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// Parsing on a background thread gives exactly the plain reader's results.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs beside the checkout"))
struct ReadAheadTests {
    @Test(arguments: ["all_week-2018-06-14.geojson", "all_month-2022-03-08.csv", "legacy2012_geojsonp-2012-09-20.geojsonp"])
    func readAheadYieldsTheSameRecords(_ file: String) throws {
        let path = SharedData.url(file).path
        let plain = try FeedReader(path: path)
        let expected = try plain.readAll()
        for batchSize in [1, 7, 1024] {
            let reader = try FeedReader(path: path)
            reader.startReadingAhead(batchSize: batchSize, batches: 2)
            #expect(try reader.readAll() == expected, "batch size \(batchSize)")
            #expect(reader.recordsRead == expected.count)
            #expect(reader.bytesRead == plain.bytesRead)
            #expect(reader.skipped == plain.skipped)
            #expect(try reader.next() == nil)
        }
    }

    @Test func errorsArriveAfterTheRecordsBeforeThem() throws {
        let path = SharedData.url("1.0_month_TRUNCATED-2019-02-16.geojson").path
        func drain(_ reader: FeedReader) -> (Int, FeedError?) {
            var count = 0
            do {
                while try reader.next() != nil { count += 1 }
                return (count, nil)
            } catch {
                return (count, error)
            }
        }
        let (plainCount, plainError) = drain(try FeedReader(path: path))
        let reader = try FeedReader(path: path)
        reader.startReadingAhead(batchSize: 100)
        let (count, error) = drain(reader)
        #expect(count == plainCount)
        #expect(error?.description == plainError?.description)
        #expect(throws: FeedError.self) { _ = try reader.next() }
    }

    /// A reader dropped after one record (its producer blocked on a full queue) stops its
    /// thread before the drop returns: nothing keeps parsing or holding the file.
    @Test func droppingAReaderEarlyStopsItsThread() throws {
        for _ in 0..<20 {
            var reader: FeedReader? = try FeedReader(path: SharedData.url("all_week-2018-06-14.geojson").path)
            reader!.startReadingAhead(batchSize: 10, batches: 1)
            #expect(try reader!.next() != nil)
            let producer = try #require(reader!.readAhead)
            #expect(producer.isRunning, "blocked on the full queue, the file far from read")
            reader = nil
            #expect(!producer.isRunning, "stopped by the drop")
        }
    }
}

/// The importer parses ahead on a second thread so parsing overlaps the store's inserts.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs beside the checkout"))
struct ImporterReadAheadTests {
    @Test func importerReadsAheadAndCountsLikeThePlainReader() throws {
        let store = try TestStore()
        defer { store.remove() }
        let path = SharedData.url("legacy2012_geojsonp-2012-09-20.geojsonp").path
        let plain = try FeedReader(path: path)
        let expected = try plain.readAll()
        let reader = try FeedReader(path: path)
        let summary = try FeedImporter(container: store.container).run(reader)
        #expect(reader.isReadingAhead)
        #expect(summary.inserted == expected.count)
        #expect(summary.skipped == plain.skippedCount)
        #expect(summary.skippedReasons == plain.skipped.map(\.description))
        #expect(try store.read { try $0.quakeCount() } == expected.count)
    }

    @Test func aSyntaxErrorReadAheadStillRollsBackTheWholeImport() throws {
        let store = try TestStore()
        defer { store.remove() }
        let reader = try FeedReader(path: SharedData.url("1.0_month_TRUNCATED-2019-02-16.geojson").path)
        #expect(throws: FeedError.self) { _ = try FeedImporter(container: store.container).run(reader) }
        #expect(reader.isReadingAhead)
        #expect(try store.read { try $0.quakeCount() } == 0)
    }
}
