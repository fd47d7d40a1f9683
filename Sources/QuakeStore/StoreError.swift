import QuakeModel
import Foundation

/// The one error type of `QuakeStore`: what went wrong, with the store's path and the
/// underlying SQLite error as detail, and a `description` that says what to do.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public enum Code: Sendable, Equatable {
        /// The file exists but is not an SQLite database, or not one written by quaketui.
        case notAStore
        /// The store was written by a newer quaketui (a schema version this build doesn't know).
        case newerSchema(found: Int, supported: Int)
        /// The file or its directory cannot be written (permissions, read-only file system).
        case accessDenied
        /// The disk is full.
        case diskFull
        /// The database file is damaged: SQLite said so and `PRAGMA quick_check` agrees (see
        /// ``confirmingDamage()``; until then SQLite's word is `.unconfirmedCorrupt`).
        case corrupt
        /// SQLite reported damage, not yet checked: a transient read error can look like it.
        case unconfirmedCorrupt
        /// A read or write of the store's files failed (`EIO`…): often transient; the store is
        /// not known to be damaged.
        case ioError
        /// Another process held the write lock for longer than the busy timeout.
        case busy
        /// A write was cancelled (e.g. the import was interrupted).
        case cancelled
        /// The input to a store operation was invalid (e.g. a bad date for `delete --before`).
        case invalidArgument(String)
        /// Any other SQLite failure.
        case sqlite
        /// The store file has no owner-write permission (`chmod 400`): a writer refuses it rather
        /// than change a mode it did not set; reading commands open it read-only.
        case readOnlyStore
        /// A read-only store (as `readOnlyStore`) too old to read without the migrations it cannot
        /// be given: store schema `found`; this build reads `oldestReadable` and later.
        case readOnlyOlderSchema(found: Int, oldestReadable: Int)
    }

    public let code: Code
    public let path: String
    public let underlyingError: SQLiteError?
    /// For an operation made of several transactions, what is kept when one of them failed
    /// ("The window being fetched was not stored; the 3 windows before it are kept"): said
    /// instead of "Nothing was changed", which is then true of the failed step only (issue 29).
    public var kept: String?

    public init(_ code: Code, path: String, underlyingError: SQLiteError? = nil) {
        self.code = code
        self.path = path
        self.underlyingError = underlyingError
    }

    /// Classifies an SQLite error raised while working on the store at `path`.
    public init(_ error: SQLiteError, path: String) {
        let code: Code =
            if error.isInterrupted { .cancelled }
            else if error.isDiskFull { .diskFull }
            else if error.isBusy { .busy }
            else if error.isIOError { .ioError }
            else if error.isAccessDenied { Self.isWritable(path) && error.code == SQLiteError.readOnly ? .ioError : .accessDenied }
            else if error.code == SQLiteError.notADatabase { .notAStore }
            else if error.code == SQLiteError.corrupt { .unconfirmedCorrupt }
            else { .sqlite }
        self.init(code, path: path, underlyingError: error)
    }

    /// Whether the store file can be written now. SQLite opens a file read-only when opening it
    /// for writing fails for any reason (an `EIO`, an `EINTR`), and the next write then says
    /// "readonly database": for a file that is writable that was an I/O error, not permissions.
    private static func isWritable(_ path: String) -> Bool {
        var info = stat()
        return access(path, W_OK) == 0 && stat(path, &info) == 0 && info.st_mode & S_IWUSR != 0
    }

    /// What a user reads: the sentence, and SQLite's own short message when it adds something.
    /// Never the SQL: that goes to the log with ``detail``.
    public var description: String {
        // SQLite's "database disk image is malformed" of a store quick_check did not find damaged
        // is the echo of a failed read, not news: the sentence names the errno (issue 29).
        guard let underlyingError, code != .unconfirmedCorrupt else { return sentence }
        return "\(sentence) (SQLite: \(underlyingError.message))"
    }

    /// The system's word for what failed, " (Input/output error)", never SQLite's "malformed";
    /// empty when no errno is known of a store SQLite called malformed.
    var ioCause: String {
        guard let underlyingError else { return " (an I/O error)" }
        if underlyingError.systemErrno != 0 { return " (\(String(cString: strerror(underlyingError.systemErrno))))" }
        return code == .unconfirmedCorrupt ? "" : " (\(underlyingError.message))"
    }

    /// What failed, without what to do about it, for a read after a write that committed (the
    /// count of what a delete left): there "Nothing was changed … run the command again" would be
    /// false (issue 57). A damaged store keeps its whole sentence: moving it aside still applies.
    public var whatFailed: String {
        switch code {
        case .unconfirmedCorrupt, .ioError: "could not read the store \(path)\(ioCause)"
        case .busy: "the store \(path) was locked by another process"
        case .cancelled: "the read was cancelled"
        case .corrupt, .notAStore, .newerSchema, .accessDenied, .readOnlyStore, .readOnlyOlderSchema, .diskFull, .invalidArgument:
            sentence
        case .sqlite: "the store \(path) reported an error" + (underlyingError.map { " (\($0.message))" } ?? "")
        }
    }

    /// Everything behind the sentence, SQL included, for the log (`QUAKETUI_LOG`).
    public var detail: String? { underlyingError.map { "\($0)" } }

    /// The sentence alone: what happened, where, and what to do.
    public var sentence: String {
        let sentence: String
        let nothingChanged = kept ?? "Nothing was changed"
        let nothingWasChanged = kept.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "nothing was changed"
        switch code {
        case .notAStore:
            sentence = "\(path) is not a quaketui store (it is not an SQLite database quaketui wrote). It was left untouched; move it aside or choose another state directory with --state-dir."
        case .newerSchema(let found, let supported):
            sentence = "\(path) was written by a newer quaketui (store schema \(found); this build knows up to \(supported)). It was left untouched; upgrade quaketui or choose another state directory with --state-dir."
        case .accessDenied:
            sentence = "Cannot write the store \(path): permission denied or read-only file system. Make its directory writable or choose another state directory with --state-dir."
        case .readOnlyStore:
            sentence = "The store \(path) is read-only (no write permission in its mode), and quaketui never changes a mode it did not set: nothing was changed. To write to it, run chmod u+w '\(path)'; or choose another state directory with --state-dir."
        case .readOnlyOlderSchema(let found, let oldestReadable):
            sentence = "The store \(path) was written by an older quaketui (store schema \(found); this build reads schema \(oldestReadable) and later) and must be upgraded before it can be read, but it is read-only (no write permission in its mode), and quaketui never changes a mode it did not set: nothing was changed. Run chmod u+w '\(path)' and the next command upgrades it, once; or choose another state directory with --state-dir."
        case .diskFull:
            sentence = "Cannot write the store \(path): the disk is full. \(nothingChanged); free some space and try again."
        case .corrupt:
            sentence = "The store \(path) is damaged. Move it (and its -wal and -shm files) aside; quaketui will create a new one."
        case .unconfirmedCorrupt, .ioError:
            sentence = "Could not read or write the store \(path)\(ioCause). \(nothingChanged), and the store is not known to be damaged: run the command again; if this keeps happening, check the disk."
        case .busy:
            sentence = "The store \(path) is locked by another process for too long (a large import?). \(nothingChanged); try again when it has finished."
        case .cancelled:
            sentence = "The write to \(path) was cancelled; \(nothingWasChanged)."
        case .invalidArgument(let what):
            sentence = what
        case .sqlite:
            sentence = "The store \(path) reported an error; \(nothingWasChanged)."
        }
        return sentence
    }
}
