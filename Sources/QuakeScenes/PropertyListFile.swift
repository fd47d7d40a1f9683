import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Loads a state plist (a dictionary at the root) without ever failing the app: a file that is
/// unreadable as such is moved aside and an empty dictionary used instead (SPEC §4.1 "Robustness").
///
/// ```swift
/// let loaded = PropertyListFile.load(path, limit: 64 * 1024, checks: SceneKeys.checks, what: "scene main")
/// if let notice = loaded.notice { statusLine.show(notice) }
/// ```
enum PropertyListFile {
    /// The result of ``load(_:limit:checks:what:)``.
    struct Loaded {
        /// The usable keys (wrong-typed known keys removed).
        var root: [String: PropertyListItem]
        /// A one-line message for the status line, if something was set aside.
        var notice: String?
        /// Where the bad file was preserved, if it was.
        var setAsidePath: String?
        /// Known keys dropped because their value had the wrong type.
        var droppedKeys: [String] = []
        /// Why the file could not be read (an I/O error, after retries): it was left where it
        /// is, and `root` is empty only for now. Whoever writes the file must not replace it.
        var readError: QuakeScenesError?
    }

    /// Reads `path` and checks its shape.
    ///
    /// - A missing file is an empty dictionary, silently.
    /// - An empty, oversized, unparseable or non-dictionary file is *moved* aside as
    ///   `path.corrupt-TIMESTAMP`.
    /// - A file that cannot be read (an I/O error after retries) is left alone: `readError`; so
    ///   is an entry that is no regular file (a directory, a FIFO, a link: `unsafeStateFile`) when
    ///   `keepingOddEntries` (the settings: nothing can say what they were, and what is there is
    ///   the user's to remove), else it is moved aside as a corrupt file is (a scene's files).
    /// - A dictionary whose known keys (per `checks`) have wrong-typed values is *copied* aside the
    ///   same way (the other keys stay), and those keys are dropped so they read as defaults.
    static func load(_ path: String, limit: Int, checks: [KeyCheck], what: String, keepingOddEntries: Bool = false) -> Loaded {
        let data: Data?
        do {
            data = try AtomicFile.read(path, limit: limit)
        } catch let error as QuakeScenesError
                    where error.code == .fileOperationFailed || (keepingOddEntries && error.code == .unsafeStateFile) {
            // An I/O error says nothing about the contents: only a file read whole that does not
            // parse is corrupt (issue 29). Leave it in place; the next read may well succeed. A
            // directory or FIFO where the settings belong is not moved either (a read-only command
            // moved it aside and answered with the defaults, saying nothing): it is named, and stays.
            return Loaded(root: [:], notice: "Could not read \(what): \(error) Using the defaults for now; the file is left as it is.",
                          readError: error)
        } catch {
            let aside = moveAside(path, reason: "corrupt")
            return Loaded(root: [:], notice: "Could not read \(what) (\(error)); starting from defaults.",
                          setAsidePath: aside)
        }
        guard let data else { return Loaded(root: [:]) }
        let problem: String
        if data.isEmpty {
            problem = "was empty"
        } else if data.count > limit {
            problem = "was larger than \(limit / 1024) KiB"
        } else if var root = PropertyListItem.rootDictionary(from: data) {
            let bad = checks.filter { check in root[check.name].map { !check.accepts($0) } ?? false }.map(\.name)
            if bad.isEmpty { return Loaded(root: root) }
            let aside = copyAside(path, data: data)
            for name in bad { root[name] = nil }
            let names = bad.sorted().joined(separator: ", ")
            return Loaded(root: root,
                          notice: "\(what.capitalizedFirst) had wrong-typed values for \(names); using the defaults"
                              + (aside.map { " (the old file is kept as \(($0 as NSString).lastPathComponent))" } ?? "") + ".",
                          setAsidePath: aside, droppedKeys: bad.sorted())
        } else {
            problem = "was not a property list dictionary"
        }
        let aside = moveAside(path, reason: "corrupt")
        let kept = aside.map { " (kept as \(($0 as NSString).lastPathComponent))" } ?? ""
        return Loaded(root: [:], notice: "\(what.capitalizedFirst) \(problem)\(kept); starting from defaults.",
                      setAsidePath: aside)
    }

    /// Renames `path` to `path.REASON-TIMESTAMP` (adding `-2`, `-3`… if taken); nil if that failed.
    static func moveAside(_ path: String, reason: String) -> String? {
        guard let target = asidePath(path, reason: reason) else { return nil }
        guard rename(path, target) == 0 else { return nil }
        AtomicFile.syncDirectory((path as NSString).deletingLastPathComponent)
        return target
    }

    /// Writes a copy of `data` as `path.corrupt-TIMESTAMP`; nil if that failed.
    static func copyAside(_ path: String, data: Data) -> String? {
        guard let target = asidePath(path, reason: "corrupt") else { return nil }
        do {
            try AtomicFile.write(data, to: target)
            return target
        } catch {
            return nil
        }
    }

    /// A free `path.REASON-YYYYMMDDTHHMMSSZ[-n]` name.
    private static func asidePath(_ path: String, reason: String) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = "\(path).\(reason)-\(formatter.string(from: Date()))"
        var candidate = base
        var n = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = "\(base)-\(n)"
            n += 1
            if n > 1000 { return nil }
        }
        return candidate
    }
}

extension String {
    /// The string with its first character uppercased, for messages that start with a name.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
