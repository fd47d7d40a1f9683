import Foundation
import QuakeStore

/// Import time and peak RSS: `quaketui import` of generated GeoJSON, beside the `sqlite3`
/// shell's `.import` of the same rows as CSV into the same schema (indexes, FTS table and
/// triggers included), and a Python standard-library importer. Each run starts from an empty
/// store; the page cache is warm for all three (the feed was just written).
struct ImportBench {
    let feed: BenchFeed
    let work: URL
    let runs: Int
    let quaketui: String
    let pythonPeer: String

    /// Our schema, as `.schema` prints it from a fresh store. FTS5's shadow tables print as
    /// `CREATE TABLE IF NOT EXISTS`, so replaying the dump creates exactly our tables once.
    func schemaFile(sqlite3: String) throws -> URL {
        let dir = work.appendingPathComponent("schema-store")
        let container = try PersistentContainer(directory: dir)
        container.close()
        let dump = try Measured.run([sqlite3, dir.appendingPathComponent("quakes.sqlite").path, ".schema"])
        guard dump.status == 0 else { throw BenchError("sqlite3 .schema failed (exit \(dump.status))") }
        let schema = dump.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("CREATE TABLE sqlite_sequence") }.joined(separator: "\n")
        let url = work.appendingPathComponent("schema.sql")
        try schema.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The state directory the last import run left, for the browser figures.
    func store(n: Int) -> URL { work.appendingPathComponent("import-\(n)") }

    func run(n: Int, python: Bool) throws -> [Figure] {
        let geojson = work.appendingPathComponent("feed-\(n).geojson")
        let csv = work.appendingPathComponent("rows-\(n).csv")
        if !FileManager.default.fileExists(atPath: geojson.path) {
            log("writing \(n.formatted()) quakes as GeoJSON")
            try feed.writeGeoJSON(count: n, to: geojson)
        }
        let sqlite3 = Peers.sqlite3
        if sqlite3 != nil, !FileManager.default.fileExists(atPath: csv.path) {
            log("writing the same rows as CSV")
            try feed.writeTableCSV(count: n, to: csv)
        }
        let schema = try sqlite3.map(schemaFile(sqlite3:))
        let python = python && Peers.python3 != nil && schema != nil

        var ours: [Double] = [], oursRSS: [Double] = [], peer: [Double] = [], py: [Double] = [], pyRSS: [Double] = []
        for run in 0..<runs {
            log("import N=\(n.formatted()) run \(run + 1)/\(runs)")
            let state = store(n: n)
            try? FileManager.default.removeItem(at: state)
            let m = try Measured.run([quaketui, "import", geojson.path, "--json", "--state-dir", state.path], measureRSS: true)
            guard m.status == 0 else { throw BenchError("quaketui import failed (exit \(m.status)): \(m.stdout)") }
            ours.append(m.seconds)
            if let rss = m.peakRSSBytes { oursRSS.append(Double(rss) / 1e6) }

            if let sqlite3, let schema {
                let peerDB = work.appendingPathComponent("peer-\(n).sqlite")
                removeStore(peerDB)
                let script = work.appendingPathComponent("peer.sql")
                try """
                    .output /dev/null
                    PRAGMA journal_mode = WAL;
                    PRAGMA synchronous = NORMAL;
                    .output stdout
                    .read \(schema.path)
                    .mode csv
                    .import \(csv.path) quake
                    SELECT count(*) FROM quake;

                    """.write(to: script, atomically: true, encoding: .utf8)
                let p = try Measured.run([sqlite3, "-bail", peerDB.path], stdinPath: script.path)
                guard p.status == 0, Int(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == n else {
                    throw BenchError("sqlite3 .import failed (exit \(p.status), printed \(p.stdout.prefix(200)))")
                }
                peer.append(p.seconds)
                removeStore(peerDB)
            }
            if python, let schema, let python3 = Peers.python3 {
                let pyDB = work.appendingPathComponent("python-\(n).sqlite")
                removeStore(pyDB)
                let r = try Measured.run([python3, pythonPeer, schema.path, pyDB.path, geojson.path], measureRSS: true)
                guard r.status == 0 else { throw BenchError("python peer failed (exit \(r.status))") }
                py.append(r.seconds)
                if let rss = r.peakRSSBytes { pyRSS.append(Double(rss) / 1e6) }
                removeStore(pyDB)
            }
        }
        let peerNote = sqlite3 == nil ? "peer missing: sqlite3 not on PATH (apt-get install -y sqlite3)" : nil
        var figures = [
            Figure(name: "import GeoJSON (time)", n: n, ours: ours.median, ourMax: ours.maximum, samples: runs,
                   peer: peer.isEmpty ? nil : peer.median, peerName: "sqlite3 .import CSV",
                   unit: "s", target: "≤ 1.25× peer", met: peer.isEmpty ? nil : ours.median <= 1.25 * peer.median,
                   note: peerNote),
            Figure(name: "import peak RSS", n: n, ours: oursRSS.median, ourMax: oursRSS.maximum, samples: oursRSS.count,
                   peer: pyRSS.isEmpty ? nil : pyRSS.median, peerName: "python json+sqlite3", unit: "MB",
                   target: "≤ 64 MB", met: oursRSS.isEmpty ? nil : oursRSS.median <= 64,
                   note: Measured.timeTool == nil ? "not measured: GNU time missing (apt-get install -y time)" : nil),
        ]
        if python {
            figures.append(Figure(name: "import GeoJSON vs Python", n: n, ours: ours.median, ourMax: ours.maximum, samples: runs,
                                  peer: py.median, peerName: "python json+sqlite3", unit: "s", target: "≥ 4× faster",
                                  met: ours.median * 4 <= py.median))
        }
        return figures
    }

    private func removeStore(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}
