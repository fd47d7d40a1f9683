import Foundation
import QuakeModel
import QuakeStore

/// The statistics view's and the Map tab's background counts at N quakes (issue 32), in this
/// process on the store's own reader, each beside the same numbers by `GROUP BY` in the
/// `sqlite3` shell: the complete statistics of the whole list (magnitude bins, days, depth bins,
/// top regions) and the world density grid (1° cells).
///
/// What is measured is the computation the runtime starts after the frame: the frame itself
/// never waits for it (it draws `…`), so its key→frame figure is the list's.
struct StatsBench {
    let store: URL
    let runs: Int

    /// The peer's statements: the same four distributions as `Connection.catalogueStatistics`.
    static let statisticsSQL = [
        "SELECT CAST(magnitude * 10 + 0.5 + 1000 AS INTEGER) - 1000 AS t, count(*) FROM quake WHERE magnitude IS NOT NULL GROUP BY t;",
        "SELECT date(time / 1000, 'unixepoch') AS d, count(*) FROM quake GROUP BY d;",
        "SELECT \(PersistentContainer.depthSectionSQL("depth")) AS b, count(*) FROM quake WHERE depth IS NOT NULL GROUP BY b;",
        "SELECT region, count(*) AS c FROM quake GROUP BY region ORDER BY c DESC LIMIT 10;",
    ]
    static let densitySQL = [
        "SELECT CAST((latitude + 90) / 1.0 AS INTEGER) AS r, CAST((longitude + 180) / 1.0 AS INTEGER) AS c, count(*), max(magnitude) FROM quake GROUP BY r, c;",
    ]

    func run(n: Int) throws -> [Figure] {
        warmPageCache(store)
        let container = try PersistentContainer(readingFrom: store)
        defer { container.close() }
        let request = SectionedFetchRequest(timeZone: TimeZone(identifier: "UTC")!)
        log("statistics and density N=\(n.formatted()) ×\(runs)")
        func time<T: Sendable>(_ body: @escaping (Connection) throws -> T) throws -> [Double] {
            try (0..<runs).map { _ in
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try container.viewContext.read(body)
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            }
        }
        // The view's counts (its first frame), and the whole view as the runtime computes it.
        let counts = try time { try $0.catalogueStatistics(of: request).count }
        let statistics = try time { try $0.catalogueSummary(of: request).0.count }
        let density = try time { try $0.densityGrid(of: request, in: .world(cellDegrees: 1)).cells.count }
        let peer = Peers.sqlite3.map { ShellPeer(sqlite3: $0, database: store.appendingPathComponent("quakes.sqlite").path) }
        let peerStatistics = try peer?.inShellTimes(Self.statisticsSQL, runs: runs) ?? []
        let peerDensity = try peer?.inShellTimes(Self.densitySQL, runs: runs) ?? []
        let note = peer == nil ? BrowserBench.missing : nil
        return [
            Figure(name: "statistics view: the list's counts first (=)", n: n, ours: counts.median,
                   ourMax: counts.maximum, samples: runs, peer: peerStatistics.isEmpty ? nil : peerStatistics.median,
                   peerName: "sqlite3 shell .timer, 4 GROUP BYs", unit: "s", target: "(first part)", met: nil, note: note),
            Figure(name: "statistics view: complete statistics of the list (=)", n: n, ours: statistics.median,
                   ourMax: statistics.maximum, samples: runs, peer: peerStatistics.isEmpty ? nil : peerStatistics.median,
                   peerName: "sqlite3 shell .timer, 4 GROUP BYs", unit: "s", target: "≤ 250 ms",
                   met: statistics.median <= 0.25, note: note),
            Figure(name: "map of the list: world density grid", n: n, ours: density.median, ourMax: density.maximum,
                   samples: runs, peer: peerDensity.isEmpty ? nil : peerDensity.median,
                   peerName: "sqlite3 shell .timer, GROUP BY cell", unit: "s", target: "≤ 250 ms",
                   met: density.median <= 0.25, note: note),
        ]
    }
}
