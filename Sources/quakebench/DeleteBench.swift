import Foundation
import QuakeModel
import QuakeStore

/// Issue 57: a long delete shares the store. `quaketui delete --before DATE` of the oldest half
/// of the N-quake store (its median origin time), beside its peer, the same `DELETE` in the
/// `sqlite3` shell in one transaction (the store's own triggers keep the FTS index and the
/// section counts, as an expert's one statement would; a 64 MB page cache,
/// `synchronous = NORMAL`); then the same delete again with a notes saver beside it: the
/// browser's save (a new writer, one durable transaction on the newest quake, which the delete
/// keeps) every 0.2 s, each timed from the call to its commit. That save's worst time is the
/// longest a writer waited for the lock (issue 57: within a second; the peer's one transaction
/// would keep it out for the whole delete).
///
/// A delete destroys the rows the other figures need, so every run works on a copy of the store
/// (its WAL checkpointed first, then `quakes.sqlite` and the small state files copied), made
/// before the run and removed after it; the copy's time is in the note. The N store itself is
/// left as it was. The page cache is warm for every run (the copy was just written).
struct DeleteBench {
    let store: URL
    let work: URL
    let quaketui: String
    /// Runs of our delete and of the peer's each; the delete beside the saver runs once.
    let runs: Int
    /// How often the saver beside the delete saves.
    var saveInterval = 0.2

    func run(n: Int) throws -> [Figure] {
        let database = store.appendingPathComponent("quakes.sqlite")
        let (cutoffSeconds, expected, newest) = try Self.half(of: database)
        let before = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(cutoffSeconds)))
        let copy = work.appendingPathComponent("delete-copy-\(n)")
        defer { try? FileManager.default.removeItem(at: copy) }
        var copies: [Double] = []
        /// A fresh copy of the N store at `copy`.
        func freshCopy() throws {
            copies.append(try Measured.time { try Self.copyStore(store, to: copy) }.1)
        }

        var ours: [Double] = [], oursCPU: [Double] = [], peer: [Double] = [], peerCPU: [Double] = []
        for run in 0..<runs {
            log("delete --before \(before) (\(expected.formatted()) of \(n.formatted())) run \(run + 1)/\(runs)")
            try freshCopy()
            let m = try deleteWithQuaketui(before: before, in: copy, expected: expected)
            ours.append(m.seconds)
            oursCPU.append(m.cpuSeconds)
            if let sqlite3 = Peers.sqlite3 {
                log("the same DELETE in the sqlite3 shell run \(run + 1)/\(runs)")
                try freshCopy()
                let p = try deleteWithSQLite3(sqlite3, before: cutoffSeconds * 1000, in: copy, expected: expected)
                peer.append(p.seconds)
                peerCPU.append(p.cpuSeconds)
            }
        }

        log("delete --before \(before) with a notes save every \(saveInterval) s beside it")
        try freshCopy()
        let saver = try NotesSaver(store: copy, code: newest, interval: saveInterval)
        let beside = try deleteWithQuaketui(before: before, in: copy, expected: expected)
        let saves = saver.stop()
        try? FileManager.default.removeItem(at: copy)
        guard saves.failures.isEmpty else {
            throw BenchError("a notes save beside the delete failed: \(saves.failures.first ?? "")")
        }

        let copyNote = String(format: "a copy of the store took %.2f s (median of %d)", copies.median, copies.count)
        let peerNote = Peers.sqlite3 == nil ? "peer missing: sqlite3 not on PATH (apt-get install -y sqlite3); " : ""
        return [
            Figure(name: "delete --before: the oldest half (\(expected.formatted()))", n: n, ours: ours.median, ourMax: ours.maximum,
                   samples: ours.count, peer: peer.isEmpty ? nil : peer.median,
                   peerName: "the same DELETE in the sqlite3 shell, one transaction (worst \(String(format: "%.2f s", peer.maximum)))",
                   unit: "s", target: "reported", met: nil,
                   note: peerNote + "CPU (user+sys) \(String(format: "%.2f s", oursCPU.median))"
                       + (peerCPU.isEmpty ? "" : " vs \(String(format: "%.2f s", peerCPU.median))") + "; " + copyNote),
            Figure(name: "a notes save every \(saveInterval) s during that delete: longest wait", n: n,
                   ours: saves.times.maximum, samples: saves.times.count, unit: "s", target: "≤ 1 s",
                   met: saves.times.isEmpty ? nil : saves.times.maximum <= 1,
                   note: "\(saves.times.count) saves, median \(String(format: "%.1f ms", saves.times.median * 1000)), none failed; "
                       + "the delete took \(String(format: "%.2f s", beside.seconds)) beside them"
                       + (peer.isEmpty ? "" : "; the peer's one transaction keeps a writer out for all of its \(String(format: "%.2f s", peer.median))")),
        ]
    }

    /// `quaketui delete --before DATE --json` on `state`, checked to have deleted `expected`.
    private func deleteWithQuaketui(before: String, in state: URL, expected: Int) throws -> Measurement {
        let m = try Measured.run([quaketui, "delete", "--before", before, "--json", "--state-dir", state.path])
        guard m.status == 0, m.stdout.contains("\"deleted\":\(expected)") || m.stdout.contains("\"deleted\" : \(expected)") else {
            throw BenchError("quaketui delete failed or deleted another number than \(expected) (exit \(m.status)): \(m.stdout.prefix(300))")
        }
        return m
    }

    /// The expert's delete: one `DELETE` in one transaction, the store's triggers keeping the
    /// FTS index and section counts, and the reports of the deleted events with them.
    private func deleteWithSQLite3(_ sqlite3: String, before ms: Int64, in state: URL, expected: Int) throws -> Measurement {
        let script = """
            .output /dev/null
            PRAGMA synchronous = NORMAL;
            PRAGMA cache_size = -65536;
            .output stdout
            BEGIN;
            DELETE FROM quake WHERE time < \(ms);
            SELECT changes();
            DELETE FROM report WHERE event NOT IN (SELECT id FROM quake);
            COMMIT;

            """
        let scriptURL = work.appendingPathComponent("delete-expert.sql")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let p = try Measured.run([sqlite3, "-bail", state.appendingPathComponent("quakes.sqlite").path], stdinPath: scriptURL.path)
        guard p.status == 0, Int(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == expected else {
            throw BenchError("sqlite3 delete failed (exit \(p.status), printed \(p.stdout.prefix(200)))")
        }
        return p
    }

    /// The median origin time (whole seconds, rounded up), how many quakes are older, and the
    /// newest quake's code (the saver's: the delete keeps it).
    static func half(of database: URL) throws -> (cutoffSeconds: Int64, older: Int, newest: String) {
        let db = try Connection(path: database.path, readOnly: true, create: false)
        defer { db.close() }
        let count = try db.scalar("SELECT count(*) FROM quake").int64 ?? 0
        guard count >= 2, let median = try db.scalar("SELECT time FROM quake ORDER BY time LIMIT 1 OFFSET ?", [.integer(count / 2)]).int64,
              let newest = try db.scalar("SELECT code FROM quake ORDER BY time DESC LIMIT 1").string
        else { throw BenchError("the store at \(database.path) has too few quakes to delete half") }
        let cutoff = (median + 999) / 1000
        let older = try db.scalar("SELECT count(*) FROM quake WHERE time < ?", [.integer(cutoff * 1000)]).int64 ?? 0
        return (cutoff, Int(older), newest)
    }

    /// Checkpoints `store`'s WAL into `quakes.sqlite` and copies the state directory to `copy`
    /// (replacing it), without the WAL and shared-memory files: the copy opens as the store is.
    static func copyStore(_ store: URL, to copy: URL) throws {
        let database = store.appendingPathComponent("quakes.sqlite").path
        let db = try Connection(path: database, create: false)
        db.setBusyTimeout(milliseconds: 60_000)
        defer { db.close() }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let files = FileManager.default
        try? files.removeItem(at: copy)
        try files.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: store.path)
        where !name.hasSuffix("-wal") && !name.hasSuffix("-shm") && !name.hasSuffix("-queue") {
            try files.copyItem(at: store.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
    }
}

/// The browser's notes save (`BrowserApp.saveNotes`: a new writer, one durable transaction,
/// closed) every `interval` seconds on its own thread until `stop`; each save timed from the
/// call to its commit, which includes any wait for the write lock.
final class NotesSaver: Sendable {
    /// Each save's time, the failures, and whether `stop` was asked.
    private let saves = LockedValue((times: [Double](), failures: [String](), stopping: false))
    private let done = DispatchSemaphore(value: 0)
    private let container: PersistentContainer

    init(store: URL, code: String, interval: Double) throws {
        container = try PersistentContainer(directory: store)
        let thread = Thread { [self] in
            var next = monotonicNanoseconds()
            var i = 0
            while !isStopping {
                let start = monotonicNanoseconds()
                do {
                    let writer = try container.newBackgroundContext(author: "notes")
                    _ = try writer.performAndWait { try $0.setNotes("saved beside the delete \(i)", forCode: code) }
                    writer.close()
                    record(Double(monotonicNanoseconds() - start) / 1e9, failure: nil)
                } catch {
                    record(0, failure: "\(error)")
                }
                i += 1
                next += UInt64(interval * 1e9)
                let now = monotonicNanoseconds()
                if next > now { usleep(UInt32((next - now) / 1000)) } else { next = now }
            }
            done.signal()
        }
        thread.start()
    }

    private var isStopping: Bool { saves.withLock { $0.stopping } }

    private func record(_ seconds: Double, failure: String?) {
        saves.withLock { if let failure { $0.failures.append(failure) } else { $0.times.append(seconds) } }
    }

    /// Stops after the save in progress; returns every save's time and the failures.
    func stop() -> (times: [Double], failures: [String]) {
        saves.withLock { $0.stopping = true }
        done.wait()
        container.close()
        return saves.withLock { ($0.times, $0.failures) }
    }
}
