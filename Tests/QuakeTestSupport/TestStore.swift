import Foundation
import QuakeModel
import QuakeStore
import QuakeTime

/// A real store in a fresh temp directory, removed by `remove()`.
public final class TestStore {
    public let directory: TemporaryDirectory
    public let container: PersistentContainer

    /// - Parameter clock: the store's clock (history timestamps, purge, observer delays).
    public init(clock: AppClock = .system) throws {
        directory = try TemporaryDirectory(prefix: "quaketui-store")
        container = try PersistentContainer(directory: directory.url, clock: clock)
    }

    /// A real store in a fresh temp directory holding `records` (one transaction).
    ///
    /// ```swift
    /// let store = try TestStore([.fixture("a"), .fixture("b")])
    /// defer { store.remove() }
    /// ```
    public convenience init(_ records: [QuakeRecord], clock: AppClock = .system) throws {
        try self.init(clock: clock)
        do { try upsert(records) } catch {
            remove()
            throw error
        }
    }

    // MARK: Another process commits (seen by the next merge: `Action.storeChanged`)

    /// Deletes the quake `code` in a transaction of its own, as another process would.
    public func delete(code: String, author: String = "other") throws {
        let context = try container.newBackgroundContext(author: author)
        defer { context.close() }
        try context.performAndWait { tx in _ = try tx.deleteQuake(code: code) }
    }

    /// Sets the notes of the quake `code` in a transaction of its own, as another process would.
    public func setNotes(_ notes: String, code: String, author: String = "other") throws {
        let context = try container.newBackgroundContext(author: author)
        defer { context.close() }
        try context.performAndWait { tx in _ = try tx.setNotes(notes, forCode: code) }
    }

    /// Upserts `records` in one transaction of a new background context.
    @discardableResult
    public func upsert(_ records: [QuakeRecord], author: String = "test") throws -> UpsertCounts {
        let context = try container.newBackgroundContext(author: author)
        defer { context.close() }
        return try context.performAndWait { tx in
            for record in records { try tx.upsert(record) }
            return tx.counts
        }
    }

    public func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T { try container.viewContext.read(body) }

    public func remove() {
        container.close()
        directory.remove()
    }
}

/// `PRAGMA integrity_check` of the store in the state directory `state`, on a connection of
/// its own: `ok`, or what SQLite found.
public func storeIntegrity(_ state: URL) throws -> String {
    let connection = try Connection(path: state.appendingPathComponent(PersistentContainer.fileName).path, create: false)
    defer { connection.close() }
    return try connection.scalar("PRAGMA integrity_check").string ?? "nil"
}

extension QuakeRecord {
    /// A plausible record for tests: code, magnitude, place and times by index.
    public static func fixture(_ code: String, magnitude: Double? = 4.2, place: String = "10 km N of Somewhere, Chile",
                               time: Int64 = 1_700_000_000_000, updated: Int64? = nil) -> QuakeRecord {
        QuakeRecord(code: code, magnitude: magnitude, magType: "mb", place: place, time: time,
                    updated: updated ?? time, latitude: -33.4, longitude: -70.6, depth: 10,
                    status: "reviewed", type: "earthquake", tsunami: 0, felt: nil, alert: nil, sig: 300,
                    net: "us", url: "https://earthquake.usgs.gov/earthquakes/eventpage/\(code)",
                    title: "M \(magnitude.map { String($0) } ?? "?") - \(place)")
    }
}
