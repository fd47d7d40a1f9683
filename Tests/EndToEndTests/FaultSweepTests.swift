import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// The bounded form of `tools/faults/sweep.sh` (issue 29): for import, delete, config and open,
/// a seeded sample of the system calls on the state directory fails (EIO, ENOSPC, EINTR), and
/// after each trial: no crash, exit 0 only with the work done, otherwise one sentence and the
/// state exactly before or after, `integrity_check` ok (and "damaged" said only when it is not),
/// the digest equal to the table, no good file moved aside.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct FaultSweepTests {
    static let calls = ["open", "read", "write", "pread", "pwrite", "fsync", "rename", "unlink", "ftruncate"]
    static let errnos = ["EIO", "ENOSPC", "EINTR"]

    enum Scenario: String, CaseIterable, Sendable {
        case importFile, delete, config, open

        var arguments: [String] {
            switch self {
            case .importFile: ["import", SharedData.url("1.0_day-2025-07-27.geojson").path]
            case .delete: ["delete", "--before", "2019-07-10"]
            case .config: ["config", "alertMagnitude", "7"]
            case .open: ["open", "us70004jyv", "--scene", "main"]
            }
        }

        /// A delete commits 200 quakes a batch (of 2,387), so faults also fall between batches.
        var environment: [String: String] { self == .delete ? ["QUAKETUI_BATCH_ROWS": "200"] : [:] }
    }

    /// `delete --before 2019-07-10` in ms since the epoch.
    static let deleteCutoff: Int64 = 1_562_716_800_000

    /// What a trial may change: the store's rows and notes, the settings, the pending activity.
    struct Fingerprint: Equatable {
        var rows: [String]
        var files: [Data?]
        /// Whether a fetch is finished (with every quake stored, its last, empty window may not be).
        var fetchDone: [String]

        init(_ dir: URL) throws {
            let store = dir.appendingPathComponent("quakes.sqlite").path
            let connection = try Connection(path: store, create: false)
            defer { connection.close() }
            let statement = try connection.prepare("SELECT code || ' ' || updated || ' ' || coalesce(notes, '') FROM quake ORDER BY code")
            var rows: [String] = []
            while try statement.step() { rows.append(statement.text(at: 0)) }
            self.rows = rows
            let fetches = try connection.prepare("SELECT value LIKE '%\"done\":true%' FROM meta WHERE key LIKE 'fetch.%'")
            var done: [String] = []
            while try fetches.step() { done.append(fetches.text(at: 0)) }
            fetchDone = done
            // The activity file holds the time it was sent: whether it holds the code is what counts.
            let activity = FileManager.default.contents(atPath: dir.appendingPathComponent("activity.plist").path)
            files = [FileManager.default.contents(atPath: dir.appendingPathComponent("defaults.plist").path),
                     activity.map { Data(String(decoding: $0, as: UTF8.self).contains("us70004jyv") ? [1] : [0]) }]
        }
    }

    /// A state directory with a month of quakes, a note and a setting.
    static func makeBase(_ dir: URL) throws {
        let seed = try QuaketuiBinary.run(["import", SharedData.url("2.5_month-2019-07-19.geojson").path], stateDirectory: dir)
        #expect(seed.status == 0, "\(seed.stderr)")
        let container = try PersistentContainer(directory: dir)
        let writer = try container.newBackgroundContext(author: "notes")
        _ = try writer.performAndWait { tx in
            try tx.connection.execute("UPDATE quake SET notes = 'felt it' WHERE rowid = 7")
        }
        writer.close()
        container.close()
        #expect(try QuaketuiBinary.run(["config", "alertMagnitude", "6.5"], stateDirectory: dir).status == 0)
    }

    static func copy(_ from: URL, to: URL) throws {
        try? FileManager.default.removeItem(at: to)
        try FileManager.default.copyItem(at: from, to: to)
    }

    /// A base state in `dir` (`makeBase`), and the state before and after `scenario` runs on a
    /// copy of it without faults.
    static func baseBeforeAndAfter(_ scenario: Scenario, in dir: TemporaryDirectory,
                                   environment: [String: String] = [:]) throws -> (base: URL, before: Fingerprint, after: Fingerprint) {
        let base = dir.appending("base"), clean = dir.appending("clean")
        try makeBase(base)
        try copy(base, to: clean)
        let done = try QuaketuiBinary.run(scenario.arguments, stateDirectory: clean, environment: environment)
        #expect(done.status == 0, "\(done.stderr)")
        return (base, try Fingerprint(base), try Fingerprint(clean))
    }

    /// Runs `scenario` on a fresh copy of `base` with call `nth` failing (0: none).
    static func trial(_ scenario: Scenario, base: URL, in dir: URL, nth: Int, errno: String, times: Int = 1,
                      count: String? = nil, environment: [String: String]? = nil) throws -> (QuaketuiBinary.Result, URL) {
        let state = dir.appendingPathComponent("trial")
        try copy(base, to: state)
        let env = try FaultShim.environment(calls: calls, path: state.path, nth: nth, times: times, errno: errno, count: count)
            .merging(environment ?? scenario.environment) { $1 }
        return (try QuaketuiBinary.run(scenario.arguments, stateDirectory: state, environment: env), state)
    }

    /// A failed `delete` that kept some batches: every "after" row and some "before" rows, none
    /// other, the deleted ones the oldest (a delete before an earlier time); it does not say
    /// nothing was changed, and the same command run again finishes it exactly (issue 57).
    static func partialDeleteProblems(_ result: QuaketuiBinary.Result, state: URL, base: URL, got: Fingerprint,
                                      before: Fingerprint, after: Fingerprint) throws -> [String] {
        var problems: [String] = []
        guard got.files == before.files, Set(got.rows).isSubset(of: Set(before.rows)), Set(after.rows).isSubset(of: Set(got.rows)) else {
            return ["neither before nor after, nor between"]
        }
        let connection = try Connection(path: state.appendingPathComponent("quakes.sqlite").path, create: false)
        try connection.execute("ATTACH '\(base.appendingPathComponent("quakes.sqlite").path)' AS b")
        let newer = try connection.scalar("""
            SELECT count(*) FROM b.quake o WHERE o.time < ?1 AND o.code NOT IN (SELECT code FROM main.quake)
              AND o.time > (SELECT coalesce(min(time), ?1) FROM main.quake WHERE time < ?1)
            """, [.integer(deleteCutoff)]).int64 ?? -1
        try connection.execute("DETACH b")
        connection.close()
        if newer != 0 { problems.append("not the oldest deleted first: \(newer) deleted quakes are newer than one kept") }
        if result.stderr.lowercased().contains("nothing was changed") { problems.append("says nothing was changed: \(result.stderr)") }
        let again = try QuaketuiBinary.run(Scenario.delete.arguments, stateDirectory: state)
        if again.status != 0 { problems.append("the next delete failed: \(again.stderr)") }
        if try Fingerprint(state) != after { problems.append("the next delete did not finish it exactly") }
        return problems
    }

    /// The sweep's checks on one trial; returns the problems found. With `partial` (a fetch,
    /// whose finished windows stay), a failed run may also leave the "before" rows plus some of
    /// the "after" rows, and its notes (`fetch: …` lines) may come before its one error line.
    static func problems(_ result: QuaketuiBinary.Result, state: URL, base: URL,
                         before: Fingerprint, after: Fingerprint, partial: Bool = false) throws -> [String] {
        var problems: [String] = []
        let got = try Fingerprint(state)
        if result.status >= 128 { problems.append("crashed (exit \(result.status))") }
        if result.status == 0 && got != after { problems.append("exit 0 but the work was not done") }
        if result.status != 0 {
            if got != before && got != after && result.stdout.isEmpty && got.rows.count < before.rows.count
                && got.rows.count > after.rows.count && Set(after.rows).isSubset(of: Set(got.rows)) && !partial {
                problems += try partialDeleteProblems(result, state: state, base: base, got: got, before: before, after: after)
            } else if got != before && got != after {
                let allowed = Set(before.rows).union(after.rows)
                if !partial || got.files != before.files || !Set(got.rows).isSubset(of: allowed)
                    || !Set(before.rows).isSubset(of: Set(got.rows)) {
                    problems.append("neither before nor after")
                } else if result.stderr.lowercased().contains("nothing was changed") {
                    problems.append("says nothing was changed, but \(got.rows.count - before.rows.count) quakes are kept: \(result.stderr)")
                }
            }
            if got == after { problems.append("exit \(result.status) after the work was done: \(result.stderr)") }
            let lines = result.stderr.split(separator: "\n").filter { !(partial && $0.hasPrefix("fetch: ")) }
            if lines.count != 1 || !lines[0].hasPrefix("Error: ") { problems.append("not one sentence: \(result.stderr)") }
        }
        let connection = try Connection(path: state.appendingPathComponent("quakes.sqlite").path, create: false)
        let check = try connection.scalar("PRAGMA integrity_check").string
        // The digest holds every row as the table does, whatever the fault hit (it is patched in
        // the write's transaction).
        let digest = check == "ok" ? try SearchDigest.mismatches(connection) : []
        connection.close()
        if check != "ok" { problems.append("integrity_check: \(check ?? "nil")") }
        if !digest.isEmpty { problems.append("digest: \(digest.prefix(3).joined(separator: "; "))") }
        if check == "ok" && ["is damaged", "malformed", "disk image"].contains(where: result.stderr.contains) {
            problems.append("called damaged on a sound store: \(result.stderr)")
        }
        let good = FileManager.default.contents(atPath: base.appendingPathComponent("defaults.plist").path)
        for name in filesSetAside(in: state.path) {
            if FileManager.default.contents(atPath: state.appendingPathComponent(name).path) == good {
                problems.append("a good file was moved aside: \(name)")
            }
        }
        return problems
    }

    @Test(.timeLimit(.minutes(5)), arguments: Scenario.allCases)
    func aSeededSampleOfFaultPointsNeverCrashesLiesOrLoses(scenario: Scenario) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (base, before, after) = try Self.baseBeforeAndAfter(scenario, in: dir, environment: scenario.environment)
        #expect(before != after)
        let countFile = dir.appending("count").path
        _ = try Self.trial(scenario, base: base, in: dir.url, nth: 0, errno: "EIO", count: countFile)
        let points = Int((try String(contentsOfFile: countFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(points > 0)
        // Seeded: the same points every run (SplitMix64 from the scenario), spread over the range.
        var generator = SeededGenerator(seed: UInt64(Scenario.allCases.firstIndex(of: scenario)!) + 29)
        let sample = (0..<30).map { _ in Int.random(in: 1...points, using: &generator) }
        var failures: [String] = []
        for (index, nth) in sample.enumerated() {
            let errno = Self.errnos[index % Self.errnos.count]
            let (result, state) = try Self.trial(scenario, base: base, in: dir.url, nth: nth, errno: errno)
            for problem in try Self.problems(result, state: state, base: base, before: before, after: after) {
                failures.append("\(scenario) \(errno) call #\(nth) of \(points): \(problem)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// `fetch` from a local FDSN service (Benchmarks/peers/fdsnws_server.py, never the network)
    /// paging through several windows (a limit of 150 a request over 400 quakes): 30 seeded
    /// fault points. A failed fetch keeps its finished windows whole and says so, and the same
    /// command run again without faults finishes it exactly.
    @Test(.timeLimit(.minutes(5)))
    func aSeededSampleOfFetchFaultPointsKeepsWholeWindowsAndTheNextRunFinishes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalogue = GeneratedCatalogue(count: 400, days: 60)
        let file = dir.appending("catalogue.txt")
        try catalogue.write(to: file)
        let serverDir = dir.appending("server")
        try FileManager.default.createDirectory(at: serverDir, withIntermediateDirectories: true)
        let server = try LocalHTTPServer(fdsnCatalogue: file, limit: 100_000, in: serverDir)
        defer { server.stop() }
        let arguments = ["fetch", "--start", IndependentParse.commandTime(milliseconds: catalogue.start), "--end", IndependentParse.commandTime(milliseconds: catalogue.end), "--json"]
        // A commit per window (a commit otherwise waits up to 5 s for more of them): faults then
        // fall between commits too, the case that keeps windows and needs the resume.
        let service = ["QUAKETUI_FDSN_BASE_URL": server.fdsnBaseURL, "QUAKETUI_FDSN_LIMIT": "150",
                       "QUAKETUI_FETCH_COMMIT_SECONDS": "0.000001"]
        func run(_ state: URL, _ faults: [String: String] = [:]) throws -> QuaketuiBinary.Result {
            try QuaketuiBinary.run(arguments, stateDirectory: state, environment: service.merging(faults) { $1 })
        }
        let base = dir.appending("base"), clean = dir.appending("clean")
        try Self.makeBase(base)
        try Self.copy(base, to: clean)
        let done = try run(clean)
        #expect(done.status == 0, "\(done.stderr)")
        let before = try Fingerprint(base), after = try Fingerprint(clean)
        #expect(after.rows.count == before.rows.count + 400)
        let state = dir.appending("trial")
        try Self.copy(base, to: state)
        let points = try FaultShim.countCalls(calls: Self.calls, path: state.path, in: dir.url) { _ = try run(state, $0) }
        #expect(points > 0)
        var generator = SeededGenerator(seed: 2_929)
        var failures: [String] = [], kept = 0
        for index in 0..<30 {
            let nth = Int.random(in: 1...points, using: &generator), errno = Self.errnos[index % Self.errnos.count]
            try Self.copy(base, to: state)
            let result = try run(state, try FaultShim.environment(calls: Self.calls, path: state.path, nth: nth, errno: errno))
            var problems = try Self.problems(result, state: state, base: base, before: before, after: after, partial: true)
            if result.status != 0 && result.status < 128 {
                if try Fingerprint(state).rows.count > before.rows.count { kept += 1 }
                let again = try run(state)
                if again.status != 0 { problems.append("the next fetch failed too: \(again.stderr)") }
                if try Fingerprint(state) != after { problems.append("the next fetch did not finish it exactly") }
            }
            failures += problems.map { "fetch \(errno) call #\(nth) of \(points): \($0)" }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // The sample reached failures that kept some windows (the case that needs the resume).
        #expect(kept > 0)
    }

    /// Found by the fault sweep in `fetch` (issue 57): a read of the store that fails inside a
    /// write (ENOSPC at a `pread` is `SQLITE_IOERR_READ`, after which SQLite rolls the
    /// transaction back itself) was swallowed where the write asked the store whether it holds
    /// reports of several agencies, and the rest of the write then committed statement by
    /// statement, after which the command said "nothing was changed" (the 28th read), or left
    /// half an import (the 58th). Each of an import's first 80 reads of the store (the write's
    /// opening ones, where such questions are asked) and 20 seeded ones of the other ~570, failing
    /// once: exit 0 with the work done, or one sentence with the store as before.
    @Test(.timeLimit(.minutes(5)))
    func eachReadOfTheStoreFailingInsideAnImportLeavesItBeforeOrAfter() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (base, before, after) = try Self.baseBeforeAndAfter(.importFile, in: dir)
        let store = "quakes.sqlite"
        let countFile = dir.appending("count").path
        let state = dir.appending("trial")
        try Self.copy(base, to: state)
        let env = try FaultShim.environment(calls: ["pread"], path: store, nth: 0, count: countFile)
        _ = try QuaketuiBinary.run(Scenario.importFile.arguments, stateDirectory: state, environment: env)
        let points = Int((try String(contentsOfFile: countFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(points > 0)
        var generator = SeededGenerator(seed: 57)
        let opening = Array(1...min(80, points))
        let sample = points > 80 ? (0..<20).map { _ in Int.random(in: 81...points, using: &generator) } : []
        var failures: [String] = []
        for nth in opening + sample {
            try Self.copy(base, to: state)
            let faults = try FaultShim.environment(calls: ["pread"], path: store, nth: nth, errno: "ENOSPC")
            let result = try QuaketuiBinary.run(Scenario.importFile.arguments, stateDirectory: state, environment: faults)
            failures += try Self.problems(result, state: state, base: base, before: before, after: after)
                .map { "pread #\(nth) of \(points): \($0)" }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Issue 29, point 5: once the delete has committed (its last WAL frame written and, with
    /// `synchronous = FULL`, synced), every later call fails (counting what is left, the
    /// checkpoint at close): the command succeeds with a warning, the quakes deleted.
    @Test(.timeLimit(.minutes(5)))
    func failuresAfterTheDeleteCommittedAreAWarningAndExit0() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (base, before, after) = try Self.baseBeforeAndAfter(.delete, in: dir)
        // Trace a clean run: the commit is the last WAL write before the checkpoint's first write
        // to the store file (and the WAL's fsync right after it, when the count's reads follow).
        let state = dir.appending("trial")
        try Self.copy(base, to: state)
        let tracePath = dir.appending("trace").path
        // One batch (the point is after the delete's last commit; between batches is the sample's).
        let oneBatch = ["QUAKETUI_BATCH_ROWS": "1000000"]
        var env = try FaultShim.environment(calls: Self.calls, path: state.path, nth: 0).merging(oneBatch) { $1 }
        env["FAULT_TRACE"] = tracePath
        #expect(try QuaketuiBinary.run(Scenario.delete.arguments, stateDirectory: state, environment: env).status == 0)
        let trace = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let store = state.appendingPathComponent("quakes.sqlite").path
        let checkpoint = try #require(trace.firstIndex { $0[1] == "pwrite" && $0[2] == store })
        var commit = try #require(trace[..<checkpoint].lastIndex { $0[1] == "pwrite" && $0[2] == store + "-wal" })
        // The WAL's fsync right after it is the commit's too (synchronous = FULL).
        if trace[commit + 1][1] == "fsync" && trace[commit + 1][2] == store + "-wal" { commit += 1 }
        let nth = Int(trace[commit][0])! + 1

        let (result, trial) = try Self.trial(.delete, base: base, in: dir.url, nth: nth, errno: "EIO", times: 1_000_000,
                                             environment: oneBatch)
        #expect(result.status == 0, "\(result.stderr)")
        let warning: String = result.stderr, output: String = result.stdout
        #expect(warning.hasPrefix("Warning: "), "\(warning)")
        #expect(warning.split(separator: "\n").count == 1, "\(warning)")
        // Issue 57.9: what it is, the delete committed and only the count failed; never the
        // failed write's "Nothing was changed … run the command again".
        #expect(warning.hasPrefix("Warning: the delete is committed (2,387 quakes deleted); only counting the quakes left failed: "),
                "\(warning)")
        #expect(!warning.contains("Nothing was changed") && !warning.contains("run the command again"), "\(warning)")
        #expect(warning.hasSuffix("Nothing needs to be run again.\n"), "\(warning)")
        #expect(output.hasPrefix("deleted 2,387 quakes"), "\(output)")
        #expect(try Self.problems(result, state: trial, base: base, before: before, after: after).isEmpty)
    }
}

/// One EIO reading the store, in a command that only reads it: SQLite often reports it as
/// SQLITE_CORRUPT, and `list` said "(database disk image is malformed)" of a sound store, or let
/// SQLite's error through raw, SQL and all, on two lines ("SQLite error 11: … (in: SELECT code,
/// …)"). It names the errno, in one sentence, and nothing calls the store damaged (issue 29).
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct ReadFaultWordingTests {
    @Test(.timeLimit(.minutes(5)))
    func aReadErrorIsSaidAsTheErrnoNeverAsSQLitesMalformed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let base = dir.appending("base"), state = dir.appending("trial")
        #expect(try QuaketuiBinary.run(["import", SharedData.url("2.5_month-2019-07-19.geojson").path], stateDirectory: base).status == 0)
        let store = state.appendingPathComponent("quakes.sqlite").path
        var failed = 0, problems: [String] = []
        // The first 45 reads of the store file: the opening, the meta and history reads, the page.
        for nth in 1...45 {
            try FaultSweepTests.copy(base, to: state)
            let env = try FaultShim.environment(calls: ["pread"], path: store, nth: nth, errno: "EIO")
            let result = try QuaketuiBinary.run(["list"], stateDirectory: state, environment: env)
            guard result.status != 0 else { continue }
            failed += 1
            let text = result.stderr
            if result.status != 1 || text.split(separator: "\n").count != 1 || !text.hasPrefix("Error: ") {
                problems.append("#\(nth): exit \(result.status), not one sentence: \(text)")
            }
            if ["malformed", "disk image", "SQLite error", "SELECT", "is damaged"].contains(where: text.contains) {
                problems.append("#\(nth): \(text)")
            }
            if !text.contains("(Input/output error)") { problems.append("#\(nth): the errno is not named: \(text)") }
        }
        #expect(failed > 20, "most of these reads fail the command")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}

/// Issue 29, point 8: what a writer reports as saved is on disk, even while another connection
/// (a browser) keeps the WAL from being checkpointed and synced at close.
@Suite(.waitsOnProcesses, .enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
struct DurabilityTests {
    @Test func anImportWhileABrowserHoldsTheStoreSyncsTheWALAfterItsLastWrite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let state = dir.appending("state")
        #expect(try QuaketuiBinary.run(["import", SharedData.url("4.5_month-2014-03-21.geojson").path], stateDirectory: state).status == 0)
        // The "browser": a connection that stays open, so the import's close is not the last.
        let browser = try PersistentContainer(directory: state)
        defer { browser.close() }
        _ = try browser.viewContext.read { try $0.quakeCount() }
        let tracePath = dir.appending("trace").path
        var env = try FaultShim.environment(calls: ["pwrite", "fsync"], path: "quakes.sqlite-wal", nth: 0)
        env["FAULT_TRACE"] = tracePath
        let result = try QuaketuiBinary.run(["import", SharedData.url("1.0_day-2025-07-27.geojson").path], stateDirectory: state,
                                            environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let calls = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ")[1] }
        let lastWrite = try #require(calls.lastIndex(of: "pwrite"))
        #expect(calls.lastIndex(of: "fsync").map { $0 > lastWrite } == true, "\(calls.suffix(5))")
    }

    @Test func everyWriterConnectionCommitsWithSynchronousFull() throws {
        let store = try TestStore()
        defer { store.remove() }
        let writer = try store.container.newBackgroundContext(author: "notes")
        defer { writer.close() }
        // 2 is FULL: the WAL is synced at every commit (https://www.sqlite.org/pragma.html#pragma_synchronous).
        #expect(try writer.performAndWait { try $0.connection.scalar("PRAGMA synchronous").int64 } == 2)
    }
}
