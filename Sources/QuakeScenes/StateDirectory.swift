import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The directory that holds the store, app storage, scene storage and the activity (SPEC §3).
///
/// ```swift
/// let state = try StateDirectory.resolve(option: parsed.stateDir,
///                                        environment: ProcessInfo.processInfo.environment,
///                                        currentDirectory: FileManager.default.currentDirectoryPath)
///     .prepared()
/// let store = state.storeURL
/// ```
///
/// Resolution, first match wins: `--state-dir DIR`, `$QUAKETUI_STATE_DIR`, `./state` if
/// `./state/.quaketui` exists, `$XDG_STATE_HOME/quaketui`, `~/.local/state/quaketui`.
/// The environment and working directory are parameters so tests can inject them.
public struct StateDirectory: Sendable, Equatable, Codable {
    /// Where the directory came from, in resolution order.
    public enum Source: String, Sendable, Codable {
        /// `--state-dir DIR`.
        case option
        /// `$QUAKETUI_STATE_DIR`.
        case environment
        /// `./state`, because `./state/.quaketui` exists.
        case workingDirectory
        /// `$XDG_STATE_HOME/quaketui`.
        case xdgStateHome
        /// `~/.local/state/quaketui`.
        case home
    }

    /// The absolute, standardized path of the directory.
    public let path: String
    /// Which rule chose it.
    public let source: Source

    /// Wraps an already-known directory (relative paths are taken from the working directory).
    public init(path: String, source: Source = .option) {
        self.path = StateDirectory.absolute(path, relativeTo: FileManager.default.currentDirectoryPath)
        self.source = source
    }

    private init(absolutePath: String, source: Source) {
        self.path = absolutePath
        self.source = source
    }

    /// Picks the state directory per SPEC §3 without touching the disk (except to look for the
    /// `./state/.quaketui` marker).
    ///
    /// - Parameters:
    ///   - option: the value of `--state-dir`, if given.
    ///   - environment: the process environment (`QUAKETUI_STATE_DIR`, `XDG_STATE_HOME`, `HOME`).
    ///   - currentDirectory: the working directory, for relative paths and `./state`.
    ///   - fileExists: how to test for the marker; injectable for tests.
    public static func resolve(option: String?, environment: [String: String], currentDirectory: String,
                               fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        -> StateDirectory
    {
        if let option, !option.isEmpty {
            return StateDirectory(absolutePath: absolute(option, relativeTo: currentDirectory), source: .option)
        }
        if let env = environment["QUAKETUI_STATE_DIR"], !env.isEmpty {
            return StateDirectory(absolutePath: absolute(env, relativeTo: currentDirectory), source: .environment)
        }
        let local = absolute("state", relativeTo: currentDirectory)
        if fileExists(local + "/.quaketui") {
            return StateDirectory(absolutePath: local, source: .workingDirectory)
        }
        // The XDG Base Directory spec says a relative $XDG_STATE_HOME is invalid and is ignored.
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return StateDirectory(absolutePath: absolute(xdg + "/quaketui", relativeTo: "/"), source: .xdgStateHome)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwordHome() ?? currentDirectory
        return StateDirectory(absolutePath: absolute(home + "/.local/state/quaketui", relativeTo: currentDirectory),
                              source: .home)
    }

    /// The store, `quakes.sqlite` (with its `-wal` and `-shm` beside it).
    public var storeURL: URL { URL(fileURLWithPath: path + "/quakes.sqlite") }
    /// App storage, `defaults.plist`.
    public var defaultsPath: String { path + "/defaults.plist" }
    /// The lock file serializing read-modify-write of `defaults.plist` across processes.
    public var defaultsLockPath: String { path + "/.defaults.lock" }
    /// The advertised user activities, `activity.plist`.
    public var activityPath: String { path + "/activity.plist" }
    /// The lock file serializing read-modify-write of `activity.plist` across processes.
    public var activityLockPath: String { path + "/.activity.lock" }
    /// The `scenes` subdirectory.
    /// `alerts.plist`: the quakes that have alerted, so each alerts once across every pane.
    public var alertsPath: String { path + "/alerts.plist" }
    /// The lock held while claiming an alert.
    public var alertsLockPath: String { path + "/.alerts.lock" }
    /// `refresh.plist`: when the automatic refresh last ran and is next due, shared by every pane.
    public var refreshStatusPath: String { path + "/refresh.plist" }
    /// Held (flock) by the one process that runs the automatic refresh.
    public var refreshLockPath: String { path + "/refresh.lock" }
    public var scenesPath: String { path + "/scenes" }
    /// Scene storage for one scene, `scenes/ID.plist`.
    public func scenePlistPath(_ id: SceneID) -> String { scenesPath + "/\(id.rawValue).plist" }
    /// The ownership lock for one scene, `scenes/ID.lock`.
    public func sceneLockPath(_ id: SceneID) -> String { scenesPath + "/\(id.rawValue).lock" }
    /// The crash-guard marker, `scenes/ID.restoring`, present while a launch restores the scene.
    public func sceneRestoringPath(_ id: SceneID) -> String { scenesPath + "/\(id.rawValue).restoring" }

    /// Creates the directory and `scenes/` (mode 0700) if needed and checks that both are writable.
    ///
    /// - Returns: `self`, for chaining after ``resolve(option:environment:currentDirectory:fileExists:)``.
    /// - Throws: ``QuakeScenesError`` `stateDirectoryUnusable` naming the path and what to do.
    @discardableResult
    public func prepared() throws -> StateDirectory {
        try StateDirectory.makeDirectory(path)
        // `scenes/` inside the state directory is ours: a link there (a cloned repository's
        // `state/scenes`) would send every scene file elsewhere, so it is refused.
        var info = stat()
        if lstat(scenesPath, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw QuakeScenesError(.unsafeStateFile, path: scenesPath, detail: "a symbolic link")
        }
        try StateDirectory.makeDirectory(scenesPath)
        return self
    }

    private static func makeDirectory(_ path: String) throws {
        var info = stat()
        var found = stat(path, &info)
        for _ in 1..<AtomicFile.readAttempts where found != 0 && (errno == EIO || errno == EINTR) {
            found = stat(path, &info)
        }
        if found != 0 {
            guard errno == ENOENT else {
                throw QuakeScenesError(.stateDirectoryUnusable, path: path, errno: errno, detail: "stat failed")
            }
            // Create missing parents with default permissions, the directory itself with 0700.
            let parent = (path as NSString).deletingLastPathComponent
            if parent != path, !parent.isEmpty, stat(parent, &info) != 0 {
                try makeDirectory(parent)
            }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw QuakeScenesError(.stateDirectoryUnusable, path: path, errno: errno, detail: "mkdir failed")
            }
            _ = chmod(path, 0o700)
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw QuakeScenesError(.stateDirectoryUnusable, path: path, errno: ENOTDIR, detail: "it is not a directory")
        }
        // access(2) is not enough (root passes it on read-only mounts): create and remove a probe.
        let probe = path + "/.probe-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        // A transient EIO or EINTR is tried again (issue 29) before the directory is called unusable.
        var fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        for _ in 1..<AtomicFile.readAttempts where fd < 0 && (errno == EIO || errno == EINTR) {
            fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else {
            throw QuakeScenesError(.stateDirectoryUnusable, path: path, errno: errno, detail: "it is not writable")
        }
        close(fd)
        unlink(probe)
    }

    static func absolute(_ path: String, relativeTo base: String) -> String {
        var expanded = path
        if expanded == "~" || expanded.hasPrefix("~/") {
            expanded = (ProcessInfo.processInfo.environment["HOME"] ?? passwordHome() ?? "/") + expanded.dropFirst()
        }
        let joined = expanded.hasPrefix("/") ? expanded : base + "/" + expanded
        return (joined as NSString).standardizingPath
    }

    private static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }
}
