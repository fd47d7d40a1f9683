import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// A read-only command on a state directory without a store (a mistyped `--state-dir`) says so
/// and creates nothing; the commands that write start a store there as before (issue 31).
@Suite(.waitsOnProcesses) struct ReadOnlyStateDirectoryTests {
    @Test(arguments: [["info"], ["info", "--json"], ["list"], ["stats"], ["scenes"], ["config"], ["config", "timeZone"]])
    func aReadOnlyCommandRefusesADirectoryWithoutAStoreAndCreatesNothing(_ command: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let typo = dir.appending("typo")
        let result = try QuaketuiBinary.run(["--state-dir", typo.path] + command)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: No store at \(typo.path)/quakes.sqlite: check --state-dir, "
            + "or start a store there with 'quaketui import FILE' or 'quaketui refresh'.\n")
        #expect(!FileManager.default.fileExists(atPath: typo.path), "nothing created")

        // An existing directory without a store: the commands that read the store refuse it;
        // `scenes` and `config` read none and answer; either way it stays empty.
        let result2 = try QuaketuiBinary.run(command, stateDirectory: dir.url)
        if ["scenes", "config"].contains(command[0]) {
            #expect(result2.status == 0, "\(result2.stderr)")
        } else {
            #expect(result2.status == 1)
            #expect(result2.stderr == "Error: No store at \(dir.url.path)/quakes.sqlite: run 'quaketui' (the browser), "
                + "'quaketui refresh' or 'quaketui import FILE' to start one.\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    @Test func importStartsAStoreInANewDirectoryAndReadsThenWork() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("new")
        let feed = dir.appending("one.geojson")
        try Data(RecentFeed.geoJSON([RecentFeed.Quake("us1", magnitude: 4, latitude: 1, longitude: 2, place: "A")]).utf8).write(to: feed)
        let imported = try QuaketuiBinary.run(["--state-dir", state.path, "import", feed.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent(PersistentContainer.fileName).path))
        let info = try QuaketuiBinary.run(["--state-dir", state.path, "info", "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(try info.json()["quakes"] as? Int == 1)
        #expect(try QuaketuiBinary.run(["--state-dir", state.path, "scenes"]).status == 0)
        #expect(try QuaketuiBinary.run(["--state-dir", state.path, "config"]).status == 0)
    }

    /// A state directory the user cannot write (another user's, or `chmod -R a-w`): the commands
    /// that only read answer as they do on a writable one (SQLite cannot make the WAL index
    /// there, so the store is read as a file no one can change). Run as `nobody` through
    /// `setpriv`, since root may write anything.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"),
          .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func theReadingCommandsAnswerInADirectoryTheUserCannotWrite() throws {
        // In /tmp, which `nobody` may enter ($TMPDIR may be private to this user, as in .ci/run).
        let dir = try TemporaryDirectory(in: URL(fileURLWithPath: "/tmp"))
        defer {
            _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+w", dir.url.path])
            dir.remove()
        }
        let state = dir.appending("state")
        let imported = try QuaketuiBinary.run(["--state-dir", state.path, "import", SharedData.url("all_hour-2017-12-03.geojson").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        _ = try QuaketuiBinary.config("home", "40.3,-121.2", stateDirectory: state)
        let commands = [["list", "--limit", "3"], ["info", "--json"], ["stats", "--json"],
                        ["status", "--at", "2017-12-03T23:30:00Z", "--format", "%m %c %d"]]
        let writable = try commands.map { try QuaketuiBinary.run(["--state-dir", state.path] + $0) }
        for result in writable { #expect(result.status == 0, "\(result.stderr)") }
        #expect(writable[3].stdout == "M1.9 nc72934355 79 km\n", "\(writable[3].stdout)")
        // As a store no process holds open is left: no WAL index (a reader may leave an empty
        // one behind; with it, SQLite reads through it).
        let wal = state.path + "/quakes.sqlite-wal"
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walSize == 0, "every commit checked back into the store")
        for file in [wal, state.path + "/quakes.sqlite-shm"] { try? FileManager.default.removeItem(atPath: file) }
        // Another user's store (root's, 644 in a 755 directory), then the same made read-only.
        for mode in ["a+rX", "a+rX,a-w"] {
            #expect(try ChildProcess.run(URL(fileURLWithPath: "/bin/chmod"), ["-R", mode, dir.url.path]).status == 0)
            for (command, expected) in zip(commands, writable) {
                let asNobody = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                                    ["--reuid=65534", "--regid=65534", "--clear-groups", QuaketuiBinary.url.path,
                                                     "--state-dir", state.path] + command)
                #expect(asNobody.status == 0 && asNobody.stderr.isEmpty, "\(mode) \(command): \(asNobody.stderr)")
                // `info` names the WAL's size, which the writable run may have left behind.
                if command[0] != "info" { #expect(asNobody.stdout == expected.stdout, "\(mode) \(command)") }
                else { #expect(try JSONSerialization.jsonObject(with: Data(asNobody.stdout.utf8)) is [String: Any]) }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: state.path + "/quakes.sqlite-shm"), "nothing written there")
    }
}
