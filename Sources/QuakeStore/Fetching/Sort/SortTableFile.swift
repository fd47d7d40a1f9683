import QuakeModel
import Foundation

/// The file an order's own table lives in (`DistanceTable`'s `fetch_distance`): at most one per
/// results controller, made when it first sorts by distance or intensity and attached to its
/// connection as the schema `ordering`, so that the table can move
/// to another controller's connection with the results that read it
/// (`FetchedResultsController.tradeTables(with:)`): the background count builds a distance
/// table and the browser's controller reads it, without building it twice. A temporary table
/// could not move: it belongs to the connection that made it.
///
/// The file is in the temporary directory (`TMPDIR`), named for the process, and holds nothing
/// that outlives it (SQLite never syncs it). `remove()` deletes it when its controller closes, and
/// the process's exit deletes those still there; the files of a process that did not exit
/// (`kill -9`) are deleted by the next process that makes one.
///
/// Where no such file can be made (a temporary directory that is full or read-only), and on a
/// connection that cannot write (a store the user made read-only: SQLite attaches nothing
/// writable to it), the table is a temporary table (`path` nil, schema `temp`), which does not
/// move. Every statement but the two that make the table and its index names it alone
/// (`fetch_distance`), wherever it is.
final class SortTableFile: @unchecked Sendable {
    // @unchecked: immutable; the connection it is attached to is its controller's.

    /// The schema the table is made in: `ordering`, the file attached, or `temp`.
    let schema: String
    /// Where the file is (nil: a temporary table, which cannot move).
    let path: String?

    /// The table as a temporary table of the connection it is made on: for a connection that
    /// cannot write (`attach` makes it there).
    static var temporary: SortTableFile { SortTableFile(path: nil) }

    private init(path: String?) {
        self.path = path
        schema = path == nil ? "temp" : "ordering"
    }

    private static let prefix = "quaketui-table-"
    /// Files made so far, those not removed yet, and whether this process swept the leftovers
    /// of others and asked to remove its own at exit.
    private static let made = LockedValue((number: 0, live: Set<String>(), started: false))

    /// A new empty file, not attached yet (a temporary table where no file can be made).
    convenience init() {
        let directory = FileManager.default.temporaryDirectory.path
        self.init(path: Self.made.withLock { made -> String? in
            if !made.started {
                Self.removeLeftovers(in: directory)
                atexit { SortTableFile.removeLive() }
                made.started = true
            }
            made.number += 1
            let path = "\(directory)/\(Self.prefix)\(getpid())-\(made.number).sqlite"
            // Made here, so that a directory where nothing can be written is known now, not at the attach.
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return nil }
            close(fd)
            made.live.insert(path)
            return path
        })
    }

    /// Attaches the file to `db` as `ordering` (outside a transaction: SQLite attaches no
    /// database inside one) and makes its table if it has none; a temporary table is made.
    func attach(_ db: Connection) throws(SQLiteError) {
        guard let path else { return try DistanceTable.prepare(db, in: schema) }
        try db.execute("ATTACH DATABASE ? AS \(schema)", [.text(path)])
        do {
            // Nothing in it outlives the process: no syncs. Its rollback journal stays a file
            // beside it, as a temporary table's did: rebuilding a table of 5,000,000 rows
            // journals the old one, which in memory would be the browser's RSS several times over.
            try db.execute("PRAGMA \(schema).synchronous = OFF")
            try DistanceTable.prepare(db, in: schema)
        } catch {
            try? detach(db)
            throw error
        }
    }

    /// Detaches the file from `db` (a temporary table stays).
    func detach(_ db: Connection) throws(SQLiteError) {
        if path != nil { try db.execute("DETACH DATABASE \(schema)") }
    }

    /// Deletes the file (call once no connection holds it).
    func remove() {
        guard let path else { return }
        Self.made.withLock { _ = $0.live.remove(path) }
        Self.unlinkWithJournal(path)
    }

    /// At exit: the files not removed yet (controllers still open).
    private static func removeLive() {
        for path in made.withLock({ $0.live }) { unlinkWithJournal(path) }
    }

    private static func unlinkWithJournal(_ path: String) {
        unlink(path)
        unlink(path + "-journal")
    }

    /// Deletes the table files of processes that are no longer running (`kill -9`, a crash).
    private static func removeLeftovers(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = pid_t(pid), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink("\(directory)/\(name)")
        }
    }
}
