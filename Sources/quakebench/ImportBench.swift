import Foundation
import QuakeStore

/// Import throughput and peak RSS: `quaketui import` of generated GeoJSON, beside the `sqlite3`
/// shell's `.import` of the same rows as CSV into the same schema, and a Python importer.
struct ImportBench {
    let feed: BenchFeed
    let work: URL
    let runs: Int
    let quaketui: String
    let pythonPeer: String

    /// Our schema, as `.schema` prints it from a fresh store (minus what SQLite makes itself).
    func schemaFile() throws -> URL {
        let dir = work.appendingPathComponent("schema-store")
        let container = try PersistentContainer(directory: dir)
        container.close()
        let dump = try Measured.run(["/usr/bin/sqlite3", dir.appendingPathComponent("quakes.sqlite").path, ".schema"])
        let schema = dump.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("CREATE TABLE sqlite_sequence") }.joined(separator: "\n")
        let url = work.appendingPathComponent("schema.sql")
        try schema.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The store the last import run left, for the fetch figures.
    func store(n: Int) -> URL { work.appendingPathComponent("import-\(n)-\(runs - 1)") }

    func run(n: Int, python: Bool) throws -> [Figure] {
        let geojson = work.appendingPathComponent("feed-\(n).geojson")
        let csv = work.appendingPathComponent("rows-\(n).csv")
        if !FileManager.default.fileExists(atPath: geojson.path) { try feed.writeGeoJSON(count: n, to: geojson) }
        if !FileManager.default.fileExists(atPath: csv.path) { try feed.writeTableCSV(count: n, to: csv) }
        let schema = try schemaFile()

        var ours: [Double] = [], oursRSS: [Double] = [], peer: [Double] = [], py: [Double] = [], pyRSS: [Double] = []
        for run in 0..<runs {
            let state = work.appendingPathComponent("import-\(n)-\(run)")
            try? FileManager.default.removeItem(at: state)
            let m = try Measured.run([quaketui, "import", geojson.path, "--json", "--state-dir", state.path])
            guard m.status == 0 else { throw BenchError("quaketui import failed (exit \(m.status)): \(m.stdout)") }
            ours.append(m.seconds)
            oursRSS.append(Double(m.peakRSSBytes) / 1e6)
            if run < runs - 1 { try? FileManager.default.removeItem(at: state) }  // the last one feeds FetchBench

            let peerDB = work.appendingPathComponent("peer-\(n)-\(run).sqlite")
            let script = work.appendingPathComponent("peer.sql")
            try """
                PRAGMA journal_mode = WAL;
                PRAGMA synchronous = NORMAL;
                .read \(schema.path)
                .mode csv
                .import \(csv.path) quake
                """.write(to: script, atomically: true, encoding: .utf8)
            let p = try Measured.run(["/usr/bin/sqlite3", peerDB.path], stdinPath: script.path)
            guard p.status == 0 else { throw BenchError("sqlite3 .import failed (exit \(p.status))") }
            peer.append(p.seconds)
            removeStore(peerDB)

            if python {
                let pyDB = work.appendingPathComponent("python-\(n)-\(run).sqlite")
                let r = try Measured.run(["/usr/bin/env", "python3", pythonPeer, schema.path, pyDB.path, geojson.path])
                guard r.status == 0 else { throw BenchError("python peer failed (exit \(r.status))") }
                py.append(r.seconds)
                pyRSS.append(Double(r.peakRSSBytes) / 1e6)
                removeStore(pyDB)
            }
        }
        var figures = [
            Figure(name: "import GeoJSON (time)", n: n, ours: ours.median, peer: peer.median, peerName: "sqlite3 .import CSV",
                   unit: "s", target: "≤ 1.25× peer", met: ours.median <= 1.25 * peer.median),
            Figure(name: "import peak RSS", n: n, ours: oursRSS.median, peer: python ? pyRSS.median : nil,
                   peerName: python ? "python json+sqlite3" : nil, unit: "MB", target: "≤ 64 MB", met: oursRSS.median <= 64),
        ]
        if python {
            figures.append(Figure(name: "import GeoJSON vs Python", n: n, ours: ours.median, peer: py.median,
                                  peerName: "python json+sqlite3", unit: "s", target: "≤ 0.25× peer", met: ours.median <= 0.25 * py.median))
        }
        return figures
    }

    private func removeStore(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}
