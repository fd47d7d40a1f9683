import QuakeModel
import Foundation
import QuakeTime

/// The store: one SQLite file in WAL mode (`STATE/quakes.sqlite`) with a view context for the
/// UI and background contexts for writers, like Core Data's `NSPersistentContainer`.
///
/// ```swift
/// let container = try PersistentContainer(directory: stateDir)
/// defer { container.close() }
/// let count = try container.viewContext.read { db in try db.quakeCount() }
/// ```
///
/// Durability: `synchronous = FULL` in WAL mode: every commit syncs the WAL, so what a command
/// or the browser said was saved survives a crash, `kill -9` or a power loss
/// (https://www.sqlite.org/pragma.html#pragma_synchronous; the cost is in RELIABILITY.md).
public final class PersistentContainer: Sendable {
    public static let fileName = "quakes.sqlite"
    /// How long a connection waits for another process's write lock before giving up.
    public static let busyTimeout: Int32 = 10_000

    public let directory: URL
    public let url: URL
    public var path: String { url.path }
    public let viewContext: ViewContext

    /// Opens the store in `directory`, creating the directory (0700) and the file (0600) if
    /// needed, and migrating the schema forward.
    ///
    /// - Throws: `StoreError` with `.notAStore` (file is not ours; left untouched),
    ///   `.newerSchema` (left untouched), `.accessDenied` (read-only directory), and others.
    ///
    /// - Parameter upgrading: called before an existing store is migrated, inside the open, so
    ///   that the caller can say so when it takes a while (a few seconds a million quakes).
    public convenience init(directory: URL, upgrading: ((SchemaUpgrade) -> Void)? = nil) throws(StoreError) {
        try self.init(directory: directory, migrations: Schema.migrations, upgrading: upgrading)
    }

    /// Opens the store as ``init(directory:)`` does, with `clock` for the history's timestamps
    /// and purge and the observer's delays (tests pass a clock they move by hand).
    public convenience init(directory: URL, clock: AppClock) throws(StoreError) {
        try self.init(directory: directory, migrations: Schema.migrations, clock: clock)
    }

    /// Where the store's time comes from.
    public var clock: AppClock { purge.clock }
    let purge: HistoryPurge

    /// Opens the store for a command that only reads (`list`, `info`): as ``init(directory:)``,
    /// except that a store file the user made read-only (`chmod 400`) is opened read-only
    /// instead of refused. ``isReadOnly`` tells which; a read-only container's writers fail
    /// with ``StoreError/Code/readOnlyStore``. A writable store of an older schema is upgraded, and
    /// `upgrading` called first, as ``init(directory:upgrading:)`` does.
    public convenience init(readingFrom directory: URL, upgrading: ((SchemaUpgrade) -> Void)? = nil) throws(StoreError) {
        try self.init(directory: directory, migrations: Schema.migrations, readingOnly: true, upgrading: upgrading)
    }

    /// Whether the store was opened read-only (its file has no owner-write permission).
    public let isReadOnly: Bool

    /// Opens the store with a given migration list (tests use it to write older schemas).
    ///
    /// The store file's mode is set to 0600 only when this call created the file; an existing
    /// file keeps its mode. One without owner-write permission is the user's choice: refused
    /// (``StoreError/Code/readOnlyStore``) unless `readingOnly`, then opened read-only.
    init(directory: URL, migrations: [String], readingOnly: Bool = false, clock: AppClock = .system,
         upgrading: ((SchemaUpgrade) -> Void)? = nil) throws(StoreError) {
        self.directory = directory
        purge = HistoryPurge(clock: clock)
        url = directory.appendingPathComponent(Self.fileName)
        let path = url.path
        try Self.prepareDirectory(directory, storePath: path)
        try Self.checkHeader(path: path)
        var info = stat()
        let existed = stat(path, &info) == 0
        // The mode bits, not access(2): root may write anything, but a user's `chmod 400` still means "do not".
        // A command that only reads also reads a store this process may not write (another
        // user's, or in a directory it cannot write) as read-only.
        let mayNotWrite = access(path, W_OK) != 0 || access(directory.path, W_OK) != 0
        isReadOnly = existed && (info.st_mode & S_IWUSR == 0 || (readingOnly && mayNotWrite))
        if isReadOnly {
            guard readingOnly else { throw StoreError(.readOnlyStore, path: path) }
            viewContext = try Self.mappingErrors(path) {
                let reader = try Self.openConnection(path: path, readOnly: true)
                defer { reader.close() }
                let found = Int(try reader.scalar("PRAGMA user_version").int64 ?? 0)
                if found > migrations.count {
                    throw StoreError(.newerSchema(found: found, supported: migrations.count), path: path)
                }
                // Behind, it is read as it is only when what it lacks is indexes (a store opened
                // with other migrations, in tests, must be at their version).
                let oldestReadable = migrations == Schema.migrations ? Schema.oldestReadableVersion : migrations.count
                if found < oldestReadable {
                    throw StoreError(.readOnlyOlderSchema(found: found, oldestReadable: oldestReadable), path: path)
                }
                return try ViewContext(connection: Self.openConnection(path: path, readOnly: true))
            }
            return
        }
        try Self.mappingErrors(path) {
            let writer = try Connection(path: path)
            defer { writer.close() }
            try Self.configure(writer)
            // A store at the current version needs no write lock to open: reading the version
            // never waits in WAL mode, so a browser starts while another process imports (a
            // first launch's sample in the pane beside it, a million quakes from the command line).
            let found = Int(try writer.scalar("PRAGMA user_version").int64 ?? 0)
            if found > migrations.count {
                throw StoreError(.newerSchema(found: found, supported: migrations.count), path: path)
            }
            if found < migrations.count {
                try Self.migrate(writer, path: path, migrations: migrations, upgrading: upgrading)
            }
            if try SearchDigest.isStale(writer) {
                // No digest (a store loaded by the `sqlite3` shell) or one of another slot format
                // (an older quaketui, also one just migrated): built, once, under the write lock.
                try writer.transaction(.immediate) { if try SearchDigest.isStale(writer) { try SearchDigest.rebuild(writer) } }
            }
        }
        if !existed { chmod(path, 0o600) }
        do {
            viewContext = try ViewContext(connection: Self.openConnection(path: path))
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// Runs `body`, turning any error into a `StoreError` about the store at `path`.
    private static func mappingErrors<T>(_ path: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw StoreError(error, path: path)
        } catch {
            throw StoreError(.sqlite, path: path)
        }
    }

    /// What this container's writers do, on their thread, about once a second while they wait
    /// for another writer's lock, after the first second (``BackgroundContext/onLockWait``): a
    /// command says so on stderr. Set it before making writers; each one can replace it.
    /// The order an event's reports are preferred in (the `agencyPreference` setting), for
    /// the writers this container makes from now on.
    public var agencyPreference: AgencyPreference {
        get { preferenceBox.withLock { $0 } }
        set { preferenceBox.withLock { $0 = newValue } }
    }
    private let preferenceBox = LockedValue(AgencyPreference.standard)

    public var onLockWait: (@Sendable (WriteLockWait) -> Void)? {
        get { lockWaitNotice.withLock { $0 } }
        set { lockWaitNotice.withLock { $0 = newValue } }
    }
    private let lockWaitNotice = LockedValue<(@Sendable (WriteLockWait) -> Void)?>(nil)

    /// A new writer with its own connection and queue. Every transaction it commits is recorded
    /// in the persistent history under `author`.
    public func newBackgroundContext(author: String) throws(StoreError) -> BackgroundContext {
        try newBackgroundContext(author: author, lockPatience: Self.busyTimeout)
    }

    /// A writer as ``newBackgroundContext(author:)`` that gives up after `milliseconds` on a lock
    /// no quaketui writer says it holds (tests).
    func newBackgroundContext(author: String, lockPatience milliseconds: Int32) throws(StoreError) -> BackgroundContext {
        if isReadOnly { throw StoreError(.readOnlyStore, path: path) }
        do {
            let context = BackgroundContext(connection: try Self.openConnection(path: path), author: author, storePath: path,
                                            purge: purge, lockPatience: milliseconds)
            if let notice = onLockWait { context.onLockWait = notice }
            context.agencyPreference = agencyPreference
            return context
        } catch {
            throw StoreError(error, path: path)
        }
    }

    /// A new reader with its own connection (e.g. for a results controller); its owner closes it.
    public func newViewContext(queryOnly: Bool = true) throws(StoreError) -> ViewContext {
        do { return try ViewContext(connection: Self.openConnection(path: path, readOnly: isReadOnly), queryOnly: queryOnly) } catch {
            throw StoreError(error, path: path)
        }
    }

    /// Closes the view context. Background contexts are closed by their owners.
    public func close() { viewContext.close() }

    /// A read-only connection to the store at `path`, as a command that only reads opens it (a
    /// store in a directory it cannot write too), waiting `busyMilliseconds` at most on a lock.
    public static func openReader(path: String, busyMilliseconds: Int32) throws(SQLiteError) -> Connection {
        try openConnection(path: path, readOnly: true, busyMilliseconds: busyMilliseconds)
    }

    static func openConnection(path: String, readOnly: Bool = false, busyMilliseconds: Int32 = busyTimeout) throws(SQLiteError) -> Connection {
        let connection = try Connection(path: path, readOnly: readOnly, create: false)
        do {
            if readOnly {
                connection.setBusyTimeout(milliseconds: busyMilliseconds)
                _ = try connection.scalar("PRAGMA user_version")
                return connection
            }
            try configure(connection)
        } catch {
            connection.close()
            if readOnly, let immutable = try openImmutable(path: path) {
                immutable.setBusyTimeout(milliseconds: busyMilliseconds)
                return immutable
            }
            throw error
        }
        return connection
    }

    /// A read-only store in a directory this process cannot write (`chmod -R a-w`, another
    /// user's): SQLite cannot make the WAL index a WAL store is read through (`-shm`). When none
    /// exists, no process holds the store open and none can (it could not make one either), so
    /// the file is read as it is, immutable. Nil otherwise.
    private static func openImmutable(path: String) throws(SQLiteError) -> Connection? {
        let directory = (path as NSString).deletingLastPathComponent
        guard access(directory.isEmpty ? "." : directory, W_OK) != 0, access(path + "-shm", F_OK) != 0 else { return nil }
        let connection = try Connection(path: path, create: false, immutable: true)
        do {
            _ = try connection.scalar("PRAGMA user_version")
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private static func configure(_ db: Connection) throws(SQLiteError) {
        db.setBusyTimeout(milliseconds: busyTimeout)
        // Read the header first: on a file that is not a database this fails with SQLITE_NOTADB
        // before `journal_mode` could write anything to it.
        _ = try db.scalar("PRAGMA user_version")
        let mode = try switchToWAL(db)
        guard mode == "wal" else {
            throw SQLiteError(extendedCode: SQLiteError.readOnly, message: "cannot switch to WAL journal mode (got \(mode ?? "nothing"))")
        }
        // FULL: every commit fsyncs the WAL before it returns, so what a command or the browser
        // reports as saved survives a power cut even while another connection (a browser) keeps
        // the WAL from being checkpointed at close (issue 29; see DECISIONS.md).
        try db.execute("PRAGMA synchronous = FULL")
    }

    /// `PRAGMA journal_mode = WAL`, tried again for up to the busy timeout while it is busy.
    /// Switching a new file takes an exclusive lock, and when several processes create the
    /// store together (a first launch in several panes) SQLite answers SQLITE_BUSY at once,
    /// without calling the busy handler, because waiting could deadlock; the switch succeeds
    /// (or finds WAL already on) once the other connection has let go.
    private static func switchToWAL(_ db: Connection) throws(SQLiteError) -> String? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(busyTimeout) * 1_000_000
        var pause: UInt32 = 1_000
        while true {
            do {
                return try db.scalar("PRAGMA journal_mode = WAL").string
            } catch where error.isBusy && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(pause)
                pause = min(pause * 2, 50_000)
            }
        }
    }

    private static func prepareDirectory(_ directory: URL, storePath: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError(.invalidArgument("The state directory \(directory.path) is a file, not a directory. Choose another one with --state-dir."), path: storePath)
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            // Say what really happened: a full disk is not a permission problem.
            let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
                .flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
            switch posix {
            case ENOSPC?, EDQUOT?: throw StoreError(.diskFull, path: storePath)
            case EACCES?, EPERM?, EROFS?, nil: throw StoreError(.accessDenied, path: storePath)
            case let code?:
                throw StoreError(.invalidArgument("Cannot create the state directory \(directory.path): "
                    + "\(String(cString: strerror(code))). Choose another one with --state-dir."), path: storePath)
            }
        }
    }

    /// Refuses, without opening it as a database, a non-empty file that does not start with
    /// SQLite's magic header, and anything that is not a regular file: a symbolic link (a cloned
    /// repository's `state/quakes.sqlite` must not send writes elsewhere) or a FIFO (it would block).
    /// The header is not read again while this process holds a connection to the file: closing
    /// the descriptor that read it would drop those connections' locks (`Connection.isOpen`).
    private static func checkHeader(path: String) throws(StoreError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw StoreError(.accessDenied, path: path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a regular file"
            throw StoreError(.invalidArgument(
                "The store \(path) is \(kind); quaketui opens only a regular file there and never follows links. Remove it (rm '\(path)') and try again."),
                path: path)
        }
        if Connection.isOpen(path: path) { return }
        var fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        // A transient EIO or EINTR is tried again, and is not a permission problem (issue 29).
        for _ in 1..<3 where fd < 0 && (errno == EIO || errno == EINTR) {
            fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        }
        guard fd >= 0 else {
            let code = errno
            if [EACCES, EPERM, EROFS].contains(code) { throw StoreError(.accessDenied, path: path) }
            throw StoreError(.ioError, path: path, underlyingError: SQLiteError(
                extendedCode: SQLiteError.ioError, message: String(cString: strerror(code)), systemErrno: code))
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if !header.isEmpty && header != Data("SQLite format 3\0".utf8) {
            throw StoreError(.notAStore, path: path)
        }
    }

    private static func migrate(_ db: Connection, path: String, migrations: [String], upgrading: ((SchemaUpgrade) -> Void)?) throws {
        try db.transaction(.immediate) {
            let found = Int(try db.scalar("PRAGMA user_version").int64 ?? 0)
            if found > migrations.count {
                throw StoreError(.newerSchema(found: found, supported: migrations.count), path: path)
            }
            if found == 0 {
                let tables = try db.scalar("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").int64 ?? 0
                if tables > 0 { throw StoreError(.notAStore, path: path) }
            } else if let upgrading {
                // The largest id: about the number of quakes, without counting them.
                let quakes = Int(try db.scalar("SELECT coalesce(max(id), 0) FROM quake").int64 ?? 0)
                upgrading(SchemaUpgrade(from: found, to: migrations.count, quakes: quakes))
            }
            for version in found..<migrations.count {
                try db.execute(migrations[version])
                try db.execute("PRAGMA user_version = \(version + 1)")
            }
            if found >= SearchDigest.schemaVersion, found < Schema.kindsCounted, migrations.count >= Schema.kindsCounted {
                try SearchDigest.countKinds(db)
            }
            if found < Schema.regionsGrouped, migrations.count >= Schema.regionsGrouped {
                try Schema.regroupRegions(db)
                // The rows it changed, in the digest (rebuilt below for a store without one).
                if found >= SearchDigest.schemaVersion { try SearchDigest.flush(db) }
            }
            if found < SearchDigest.schemaVersion, migrations.count >= SearchDigest.schemaVersion { try SearchDigest.rebuild(db) }
            if found > 0, found < Schema.reportsAssociated, migrations.count >= Schema.reportsAssociated {
                // A store of several agencies' reports becomes one row per event: one pass over
                // its time index (each stretch where agencies meet is associated).
                let transaction = try WriteTransaction(connection: db)
                let span = try db.prepare("SELECT min(time), max(time) FROM quake")
                if try span.step(), !span.isNull(at: 0) {
                    transaction.touched.addSpan(span.int64(at: 0), span.int64(at: 1))
                    transaction.markBulk()
                    try transaction.associate()
                    try SearchDigest.flush(db)
                    try transaction.keepRowIDFloor()
                }
            }
            if found >= Schema.reportsAssociated, found < Schema.localNetworkDefault, migrations.count >= Schema.localNetworkDefault,
               case .text(Schema.defaultBeforeLocalNetwork) = try db.scalar("SELECT value FROM meta WHERE key = 'agencyPreference'") {
                // Shared events chosen under the older default: the stored preference differs from
                // today's default, so association looks at every shared event again (the walk a
                // changed `agencyPreference` makes at a write) and records today's. A setting other
                // than the default re-chooses them at the next write, as a changed setting does.
                let transaction = try WriteTransaction(connection: db)
                transaction.markBulk()
                try transaction.associate()
                try SearchDigest.flush(db)
                try transaction.keepRowIDFloor()
            }
        }
    }
}

/// An existing store about to be migrated when it opens (`PersistentContainer.init(directory:upgrading:)`).
public struct SchemaUpgrade: Sendable, Equatable {
    /// The store's schema version, and the one it is migrated to.
    public let from: Int
    public let to: Int
    /// About how many quakes it holds (its largest id).
    public let quakes: Int
}
