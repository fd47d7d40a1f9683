import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// Issue 29, point 3: an I/O error reading a state file is not corruption. Only a file read whole
/// that does not parse is moved aside; one EIO or EINTR is tried again, a lasting one reported,
/// and the file is left where it is (faults injected with `tools/faults/faultshim.c`).
@Suite(.waitsOnProcesses) struct TransientIOErrorTests {
    static func stateWithSettings() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try PersistentContainer(directory: dir.url).close()
        let set = try QuaketuiBinary.run(["config", "alertMagnitude", "6.5"], stateDirectory: dir.url)
        #expect(set.status == 0, "\(set.stderr)")
        return dir
    }

    static func alertMagnitude(_ dir: TemporaryDirectory) throws -> String {
        try QuaketuiBinary.run(["config", "alertMagnitude"], stateDirectory: dir.url).stdout
    }

    /// The one line said when `defaults.plist` at `path` cannot be read (a lasting EIO).
    static func unreadableSettings(_ path: String) -> String {
        "Error: Could not read the settings in \(path) (Input/output error), and the answer depends on them: it is not given "
            + "with the defaults in their place. The file is left as it is; run the command again, and if this keeps happening, "
            + "check the disk."
    }

    @Test(arguments: ["EIO", "EINTR"])
    func oneFailedReadOfDefaultsIsRetriedAndMovesNothingAside(errno: String) throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        let env = try FaultShim.environment(calls: ["read"], path: "defaults.plist", nth: 1, errno: errno)
        let list = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(filesSetAside(in: dir.path).isEmpty)
        #expect(try Self.alertMagnitude(dir) == "M 6.5\n")
    }

    /// Issue 57.3: a read-only command that cannot read `defaults.plist` (a lasting EIO) says so,
    /// naming the file and the error, and exits 1: `config` never shows every setting unset,
    /// `list` never answers with the default time zone, `list --sort distance` never asks for a
    /// home that is set, `status` never judges alerts without the alert settings, and `watch`
    /// never prints its lines in the default time zone (it ran on, watching, as if nothing were
    /// set). Without the fault, the same commands answer (`watch`: says it watches).
    @Test func aReadOnlyCommandThatCannotReadTheSettingsSaysSoAndFails() throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        #expect(try QuaketuiBinary.run(["config", "home", "35.68,139.69"], stateDirectory: dir.url).status == 0)
        let env = try FaultShim.environment(calls: ["read"], path: "defaults.plist", nth: 1, times: 1_000)
        let defaults = dir.url.appendingPathComponent("defaults.plist").path
        for arguments in [["config"], ["config", "--json"], ["config", "home"], ["list"], ["list", "--sort", "distance"], ["stats"],
                          ["scenes"], ["status"]] {
            let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url, environment: env)
            #expect(result.status == 1, "\(arguments): \(result.stdout)")
            #expect(result.stderr == Self.unreadableSettings(defaults) + "\n", "\(arguments)")
            // Nothing else is said: no answer on stdout (never "set a home"), only that sentence above.
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(try QuaketuiBinary.run(arguments, stateDirectory: dir.url).status == 0, "\(arguments) without the fault")
        }
        // `watch` runs until stopped: with the fault it must end by itself, at once.
        let watch = try ChildProcess(QuaketuiBinary.url, ["watch", "--state-dir", dir.path], environment: env)
        watch.closeInput()
        let ended = eventually(timeout: 20) { !watch.isRunning }
        if !ended { watch.kill() }
        #expect(watch.wait() == 1 && ended, "watch ran on with the settings unreadable: \(watch.stderr)")
        #expect(watch.stderr == Self.unreadableSettings(defaults) + "\n", "watch")
        #expect(watch.stdout.isEmpty, "watch: \(watch.stdout)")
        let watching = try QuaketuiBinary.startWatch(stateDirectory: dir.url)
        watching.kill()
        watching.wait()
        #expect(filesSetAside(in: dir.path).isEmpty)
        #expect(try Self.alertMagnitude(dir) == "M 6.5\n")
    }

    /// A directory or a FIFO where defaults.plist belongs: every command that reads the settings
    /// says so and fails, a save does not replace it, and it stays where it is (the read-only
    /// commands moved it aside and answered with the defaults, silently).
    @Test(arguments: ["directory", "FIFO"])
    func aDirectoryOrFIFOInPlaceOfTheSettingsIsNamedAndLeftAlone(kind: String) throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        let defaults = dir.url.appendingPathComponent("defaults.plist").path
        try FileManager.default.removeItem(atPath: defaults)
        if kind == "directory" {
            try FileManager.default.createDirectory(atPath: defaults, withIntermediateDirectories: false)
        } else {
            #expect(mkfifo(defaults, 0o600) == 0)
        }
        let what = kind == "directory" ? "a directory" : "a FIFO (named pipe)"
        let sentence = "Error: Could not read the settings: \(defaults) is \(what), not a file, and the answer depends on them: it is "
            + "not given with the defaults in their place. It is left as it is: remove it (rm -r '\(defaults)') and set the settings again."
        for arguments in [["config"], ["config", "home"], ["list"], ["list", "--sort", "distance"], ["stats"], ["status"]] {
            let result = try QuaketuiBinary.run(arguments, stateDirectory: dir.url)
            #expect(result.status == 1, "\(arguments): \(result.stdout)")
            #expect(result.stderr == sentence + "\n", "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
        let set = try QuaketuiBinary.run(["config", "home", "1,2"], stateDirectory: dir.url)
        #expect(set.status == 1, "\(set.stdout)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: defaults, isDirectory: &isDirectory) && isDirectory.boolValue == (kind == "directory"))
        #expect(filesSetAside(in: dir.path).isEmpty)
    }

    @Test func aLastingReadErrorIsReportedAndTheFileIsNeitherMovedNorOverwritten() throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        let env = try FaultShim.environment(calls: ["read"], path: "defaults.plist", nth: 1, times: 1_000)
        let set = try QuaketuiBinary.run(["config", "alertRadius", "300"], stateDirectory: dir.url, environment: env)
        #expect(set.status == 1, "\(set.stdout)")
        #expect(set.errorLines == [Self.unreadableSettings(dir.url.appendingPathComponent("defaults.plist").path)], "\(set.stderr)")
        let list = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
        #expect(list.status == 1, "\(list.stderr)")
        #expect(filesSetAside(in: dir.path).isEmpty)
        #expect(try Self.alertMagnitude(dir) == "M 6.5\n")
    }

    /// Every open under the state directory by `list` failed in turn, once: nothing is moved
    /// aside, the settings survive, and the command fails in one sentence or succeeds.
    @Test(arguments: ["EIO", "EINTR"])
    func eachOpenInTheStateDirectoryFailingOnceLosesNoSettings(errno: String) throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        let points = try FaultShim.countCalls(calls: ["open"], path: dir.url.path, in: dir.url) { env in
            _ = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
        }
        #expect(points > 2)
        for nth in 1...points {
            let env = try FaultShim.environment(calls: ["open"], path: dir.url.path, nth: nth, errno: errno)
            let list = try QuaketuiBinary.run(["list"], stateDirectory: dir.url, environment: env)
            #expect(list.status == 0 || (list.status == 1 && list.stderr.split(separator: "\n").count == 1),
                    "open #\(nth): \(list.status) \(list.stderr)")
            #expect(filesSetAside(in: dir.path).isEmpty, "open #\(nth)")
            #expect(try Self.alertMagnitude(dir) == "M 6.5\n", "open #\(nth)")
        }
    }

    /// Issue 57.5: EINTR is transient by nature (a signal came before the call did anything):
    /// each open, fsync and rename of a `config` write failing once with it, the setting is still
    /// written and the command exits 0. One EINTR used to fail the whole command.
    @Test func oneInterruptedCallInAConfigWriteIsMadeAgain() throws {
        let dir = try Self.stateWithSettings()
        defer { dir.remove() }
        for call in ["open", "fsync", "rename"] {
            let points = try FaultShim.countCalls(calls: [call], path: dir.url.path, in: dir.url) { env in
                _ = try QuaketuiBinary.run(["config", "nearRadius", "300"], stateDirectory: dir.url, environment: env)
            }
            #expect(points > 0, "\(call)")
            for nth in 1...max(1, points) {
                let env = try FaultShim.environment(calls: [call], path: dir.url.path, nth: nth, errno: "EINTR")
                let set = try QuaketuiBinary.run(["config", "nearRadius", "\(300 + nth)"], stateDirectory: dir.url, environment: env)
                #expect(set.status == 0 && set.stderr.isEmpty, "\(call) #\(nth): \(set.stderr)")
                let read = try QuaketuiBinary.run(["config", "nearRadius"], stateDirectory: dir.url)
                #expect(read.lines == ["\(300 + nth) km"], "\(call) #\(nth): \(read.stdout)")
            }
        }
    }

    /// Issue 57.8: SQLite retries EINTR in its reads, writes, opens and truncations but not in
    /// fsync; the store's VFS (`retryvfs.c`) makes an interrupted fsync again. Each fsync of an
    /// `import` and of a `delete` failing once with EINTR: the command exits 0 with the work done.
    /// So does an EINTR at the feed file's open (it failed `import` with "Interrupted system call").
    @Test func anInterruptedFsyncOfTheStoreIsMadeAgain() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let feed = dir.appending("feed.geojson")
        let quakes = (0..<300).map { RecentFeed.Quake("ei\($0)", magnitude: 3, latitude: 61, longitude: -150, place: "Alaska") }
        try Data(RecentFeed.geoJSON(quakes).utf8).write(to: feed)
        // The feed file itself: its open and its reads, each interrupted once.
        for call in ["open", "read"] {
            for nth in 1...3 {
                let env = try FaultShim.environment(calls: [call], path: feed.path, nth: nth, errno: "EINTR")
                let result = try QuaketuiBinary.run(["import", feed.path], stateDirectory: dir.appending("feed-\(call)\(nth)"), environment: env)
                #expect(result.status == 0 && result.stderr.isEmpty, "the feed's \(call) #\(nth): \(result.stderr)")
            }
        }
        let store = "quakes.sqlite"
        let imported = ["imported 300 quakes (300 new, 0 updated, 0 unchanged, 0 skipped)"]
        // Each command's own fsyncs (the shim counts per process), then each failing once.
        for (arguments, said) in [(["import", feed.path], imported), (["delete", "--all", "--yes"], ["deleted 300 quakes (0 left)"])] {
            let fresh = dir.appending("count")
            if arguments[0] == "delete" { _ = try QuaketuiBinary.run(["import", feed.path], stateDirectory: fresh) }
            let points = try FaultShim.countCalls(calls: ["fsync"], path: store, in: dir.url) { env in
                _ = try QuaketuiBinary.run(arguments, stateDirectory: fresh, environment: env)
            }
            try? FileManager.default.removeItem(at: fresh)
            #expect(points >= 1, "\(arguments[0])")
            for nth in 1...max(1, points) {
                let state = dir.appending("s\(nth)")
                if arguments[0] == "delete" { _ = try QuaketuiBinary.run(["import", feed.path], stateDirectory: state) }
                let env = try FaultShim.environment(calls: ["fsync"], path: store, nth: nth, errno: "EINTR")
                let result = try QuaketuiBinary.run(arguments, stateDirectory: state, environment: env)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments[0]) fsync #\(nth): \(result.stderr)")
                // The import's line ends with its time: compared up to it.
                #expect(result.lines.map { $0.components(separatedBy: " in ").first ?? $0 } == said,
                        "\(arguments[0]) fsync #\(nth): \(result.stdout)")
                try? FileManager.default.removeItem(at: state)
            }
        }
    }
}
