import Foundation

/// The one error type of QuakeScenes: what went wrong, where, and what to do about it.
///
/// ```swift
/// do { _ = try SceneID(validating: "../x") }
/// catch let error as QuakeScenesError where error.isUsageError { print("Error: \(error)") }
/// ```
///
/// `description` is a full sentence meant for the user; the command line turns
/// ``isUsageError`` into exit code 64 and everything else into exit code 1.
public struct QuakeScenesError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kind of failure.
    public enum Code: String, Sendable, Codable {
        /// An explicitly given scene ID does not match `[A-Za-z0-9._-]{1,64}`.
        case invalidSceneID
        /// The scene is held by another live process.
        case sceneInUse
        /// No free derived scene ID was found.
        case noFreeSceneID
        /// The state directory cannot be created or written.
        case stateDirectoryUnusable
        /// A file could not be read, written, renamed or locked.
        case fileOperationFailed
        /// A value would make the scene or defaults file larger than its limit.
        case valueTooLarge
        /// A value cannot be encoded as a property list.
        case valueNotEncodable
        /// `quaketui open` was given something that is neither a quake code nor a USGS event URL.
        case invalidActivityTarget
        /// A scene named on the command line has no state.
        case sceneNotFound
        /// A state file is a symbolic link, a FIFO or anything else that is not a regular file:
        /// refused, so a planted link never redirects a write and a FIFO never blocks a read.
        case unsafeStateFile
    }

    /// The kind of failure.
    public var code: Code
    /// The file or directory involved, if any.
    public var path: String?
    /// The storage key involved, if any.
    public var key: String?
    /// The scene involved, if any.
    public var sceneID: String?
    /// The process holding the scene, for ``Code/sceneInUse``.
    public var pid: Int32?
    /// The C `errno` of the failed system call, if any.
    public var errno: Int32?
    /// Extra detail (the failed call, the bad input, the limit) placed after the main sentence.
    public var detail: String?

    public init(_ code: Code, path: String? = nil, key: String? = nil, sceneID: String? = nil,
                pid: Int32? = nil, errno: Int32? = nil, detail: String? = nil) {
        self.code = code
        self.path = path
        self.key = key
        self.sceneID = sceneID
        self.pid = pid
        self.errno = errno
        self.detail = detail
    }

    /// Whether the command line should report this as a usage error (exit code 64).
    public var isUsageError: Bool {
        switch code {
        // An unknown scene is a fact of the state directory, not a misuse of the command (status 1).
        case .invalidSceneID, .invalidActivityTarget: return true
        default: return false
        }
    }

    /// The C library's text for ``errno``, e.g. "Permission denied".
    public var systemMessage: String? {
        errno.map { String(cString: strerror($0)) }
    }

    public var description: String {
        let scene = sceneID.map { "\"\($0)\"" } ?? "the scene"
        let where_ = path.map { " (\($0))" } ?? ""
        var text: String
        switch code {
        case .invalidSceneID:
            text = "The scene ID \(scene) is not valid: use 1 to 64 letters, digits, '.', '_' or '-' (not '.' or '..')."
        case .sceneInUse:
            let holder = pid.map { "process \($0)" } ?? "another process"
            text = "Scene \(sceneID ?? "?") is open in \(holder); close it there, or pick another scene with --scene ID."
        case .noFreeSceneID:
            text = "Every scene ID derived from \(scene) is open in another process; pick one with --scene ID."
        case .stateDirectoryUnusable where ![nil, EACCES, EPERM, EROFS, ENOTDIR, ENOENT, ELOOP].contains(errno):
            // A full disk or an I/O error is not a permission problem (issue 29).
            text = "The state directory\(where_) cannot be written now; check the disk (free some space), then run the command again."
        case .stateDirectoryUnusable:
            text = "The state directory\(where_) cannot be created or written; fix its permissions, or choose another one with --state-dir DIR or $QUAKETUI_STATE_DIR."
        case .fileOperationFailed where [EIO, EINTR, ENOSPC, EDQUOT, EAGAIN, ENOMEM].contains(errno ?? 0):
            text = "A state file\(where_) could not be read or written; nothing was changed. Run the command again; if this keeps happening, check the disk."
        case .fileOperationFailed:
            text = "A state file\(where_) could not be read or written; check the disk and the permissions of the state directory."
        case .valueTooLarge:
            let file = path.map { "the file \($0)" } ?? "the storage file"
            text = "The value for key \"\(key ?? "?")\" would make \(file) larger than its 64 KiB limit; store less under that key (never model data)."
        case .valueNotEncodable:
            text = "The value for key \"\(key ?? "?")\" cannot be written as a property list; use strings, numbers, booleans, dates, data, arrays or dictionaries of them."
        case .invalidActivityTarget:
            text = "\"\(detail ?? "")\" is neither a quake code (like us7000abcd or iris:958596) nor a USGS event page URL (like https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd)."
            return text
        case .sceneNotFound:
            text = "There is no scene \(scene) in the state directory\(where_); run `quaketui scenes list` to see the scenes."
        case .unsafeStateFile:
            text = "The state file \(path ?? "?") is \(detail ?? "not a regular file"); quaketui opens only regular files there and never follows links. Remove it (rm '\(path ?? "?")') and try again."
            return text
        }
        var extras: [String] = []
        if let detail, code != .invalidActivityTarget { extras.append(detail) }
        if let message = systemMessage { extras.append(message) }
        if !extras.isEmpty { text += " (" + extras.joined(separator: ": ") + ")" }
        return text
    }
}
