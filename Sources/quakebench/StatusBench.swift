import Foundation

/// `quaketui status` (issue 55: one line for tmux's `status-right`, under 50 ms at any size)
/// beside its peer, the `sqlite3` shell reading the same rows (the quakes of the last 24 hours,
/// a range of `quake_time`) in a process of its own: both are a process started, a store opened,
/// a range read and an exit. The generated quakes are 30 s apart back from 2026-01-01, so the
/// day before that moment holds 2,880 of them at every N; home is set at the first template's
/// epicentre and alertMagnitude at 4.5 for the run (and unset after), so the line is computed
/// from real candidates.
struct StatusBench {
    let store: URL
    let quaketui: String
    let runs: Int

    /// The newest generated quake's time (`BenchFeed.quake(0)`), as `--at` takes it.
    static let at = "2026-01-01T00:00:00Z"
    static let atMs: Int64 = 1_767_225_600_000

    func run(n: Int) throws -> [Figure] {
        let database = store.appendingPathComponent("quakes.sqlite").path
        let home = try Self.firstEpicentre(database)
        func config(_ arguments: [String]) throws {
            let m = try Measured.run([quaketui, "config"] + arguments + ["--state-dir", store.path])
            guard m.status == 0 else { throw BenchError("quaketui config \(arguments.joined(separator: " ")) failed: \(m.stdout)") }
        }
        try config(["home", "\(home.latitude),\(home.longitude)"])
        try config(["alertMagnitude", "4.5"])
        defer {
            try? config(["home", "--unset"])
            try? config(["alertMagnitude", "--unset"])
        }
        var times: [Double] = []
        var line = ""
        _ = try Measured.run([quaketui, "status", "--at", Self.at, "--state-dir", store.path])  // a warm page cache for both
        for run in 0..<runs {
            log("status N=\(n.formatted()) run \(run + 1)/\(runs)")
            let m = try Measured.run([quaketui, "status", "--at", Self.at, "--state-dir", store.path])
            guard m.status == 0 else { throw BenchError("quaketui status failed (exit \(m.status)): \(m.stdout)") }
            times.append(m.seconds * 1000)
            line = m.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var peer: Double?
        if let sqlite3 = Peers.sqlite3 {
            let shell = ShellPeer(sqlite3: sqlite3, database: database)
            let sql = "SELECT code, magnitude, latitude, longitude, depth, alert, time FROM quake "
                + "WHERE time BETWEEN \(Self.atMs - 86_460_000) AND \(Self.atMs + 60_000);"
            _ = try shell.processWallTimes([sql], runs: 1)
            peer = try shell.processWallTimes([sql], runs: runs).median * 1000
        }
        return [Figure(name: "quaketui status (process, one line)", n: n, ours: times.median, ourMax: times.maximum, samples: runs,
                       peer: peer, peerName: peer == nil ? nil : "sqlite3 process reading the same day of quakes", unit: "ms",
                       target: "≤ 50 ms", met: times.isEmpty ? nil : times.median <= 50,
                       note: line.isEmpty ? "printed nothing" : "printed “\(line)”")]
    }

    /// The first generated quake's epicentre (home for the run).
    private static func firstEpicentre(_ database: String) throws -> (latitude: Double, longitude: Double) {
        guard let sqlite3 = Peers.sqlite3 else { return (35.68, 139.69) }
        let m = try Measured.run([sqlite3, "-readonly", database, "SELECT latitude, longitude FROM quake ORDER BY time DESC LIMIT 1;"])
        let parts = m.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Double($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (35.68, 139.69)
    }
}
