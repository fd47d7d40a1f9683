import Foundation
import QuakeModel
import QuakeStore

/// The statistics a seismologist reads at N quakes (issue 54, point 7), each from the store's
/// read to its numbers, beside the same computation scripted with numpy
/// (`Benchmarks/peers/science_numpy.py`):
///
/// - `stats`: the bins, Mc (maximum curvature), b with Shi–Bolt's error and a bootstrap of 200
///   resamples, and b-positive — what `quaketui stats` and the `=` view compute;
/// - `stats --decluster gk`: the same after Gardner–Knopoff declustering, the first time (the
///   browser computes it after the frame, with progress, so no key waits for it);
/// - the sequence view (`A`) after the list's largest quake: the quakes in its radius, counts per
///   day, the Omori fit and the forecast.
///
/// The browser never waits for any of them: they run on their own reader after the frame, which
/// draws `…` meanwhile; so the target (≤ 250 ms, SPEC §9's background budget) is about how soon
/// the complete numbers replace it.
struct ScienceBench {
    let store: URL
    let runs: Int
    let peerScript: String
    /// Only the `stats` row, without its peer (`QUAKEBENCH_ONLY=stats`: for profiling it).
    var statsRowOnly = false

    /// The numpy peer runs up to this size: its Gardner–Knopoff windows grow with the square of
    /// the quakes per window (88.7 s a run at 1M; stopped after 21 minutes at 5M, 2026-12-03).
    static let largestPeerSize = 1_000_000

    func run(n: Int) throws -> [Figure] {
        // Opened for writing once: a store of an older quaketui gets its digest in today's format.
        try PersistentContainer(directory: store).close()
        warmPageCache(store)
        let container = try PersistentContainer(readingFrom: store)
        defer { container.close() }
        let request = SectionedFetchRequest(timeZone: TimeZone(identifier: "UTC")!)
        log("science rows N=\(n.formatted()) ×\(runs)")
        func time(runs: Int, _ body: @escaping @Sendable (Connection) throws -> Void) throws -> [Double] {
            try (0..<runs).map { _ in
                let start = DispatchTime.now().uptimeNanoseconds
                try container.viewContext.read(body)
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            }
        }
        @Sendable func statistics(_ db: Connection, _ declustering: Declustering?) throws {
            let (statistics, positive) = try db.catalogueSummary(of: request, declustering: declustering)
            _ = MagnitudeFit(statistics.magnitudes.using(.maxc), positive: positive, composition: statistics.composition)
        }
        let mainshock = try container.viewContext.read { db in
            guard case .text(let code) = try db.scalar("SELECT code FROM quake WHERE magnitude BETWEEN -5 AND 10 ORDER BY magnitude DESC, time LIMIT 1")
            else { return String?.none }
            return code
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var peer: [String: [Double]] = [:]
        var note: String? = nil
        func figure(_ name: String, _ ours: [Double], _ key: String, _ peerName: String) -> Figure {
            Figure(name: name, n: n, ours: ours.median, ourMax: ours.maximum, samples: ours.count,
                   peer: peer[key].map(\.median), peerName: peerName, unit: "s", target: "≤ 250 ms",
                   met: ours.median <= 0.25, note: peer[key] == nil ? note : nil)
        }
        let stats = try time(runs: runs) { try statistics($0, nil) }
        let statsFigure = { figure("stats: Mc, b, bootstrap of 200, b-positive", stats, "stats", "numpy: unique, bootstrap, diff") }
        if statsRowOnly {
            note = "QUAKEBENCH_ONLY=stats: no peer run"
            return [statsFigure()]
        }
        // Declustering's first computation at 1M+ takes seconds: three samples are enough to say so.
        let declustered = try time(runs: min(runs, 3)) { try statistics($0, .gk) }
        // The windows alone, on the quakes already read: what the read costs is the other part.
        let events = try container.viewContext.read { db in try db.catalogueEvents(of: request) }
        let windows = (0..<min(runs, 3)).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            _ = Declustering.gk.decluster(events)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        // The browser keeps it (`StatisticsCache`): the same list with no commit since, again.
        let cache = StatisticsCache()
        try container.viewContext.read { db in _ = try db.catalogueStatistics(of: request, declustering: .gk, keptIn: cache) }
        let kept = try time(runs: runs) { db in
            let statistics = try db.catalogueStatistics(of: request, declustering: .gk, keptIn: cache)
            _ = MagnitudeFit(statistics.magnitudes.using(.maxc), composition: statistics.composition)
        }
        // The list declustered (`:decluster gk`): the kept ids applied as the request's filter,
        // the controller counted and sectioned (the declustering itself is the row above).
        let background = try container.viewContext.read { db in try db.declusteredSet(of: request, method: .gk) }
        var declusteredRequest = request
        declusteredRequest.predicate.rowFilters = [.declustered(background)]
        let listed = try (0..<runs).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            let controller = try FetchedResultsController(container: container, request: declusteredRequest)
            precondition(controller.count == background.keptCount)
            controller.close()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let sequence = try mainshock.map { code in try time(runs: runs) { _ = try $0.aftershockSequence(of: code, now: now) } } ?? []

        if n > Self.largestPeerSize {
            note = "peer not measured past \(Self.largestPeerSize.formatted()) quakes: numpy's Gardner–Knopoff took 88.7 s a run at 1M, and hours at 5M"
        } else if let python3 = Peers.python3, let mainshock {
            let m = try Measured.run([python3, peerScript, store.appendingPathComponent("quakes.sqlite").path, String(runs), mainshock])
            if m.status == 0, let object = try? JSONSerialization.jsonObject(with: Data(m.stdout.utf8)) as? [String: [Double]] {
                peer = object
            } else {
                note = "peer not measured: science_numpy.py failed (numpy and scipy needed): " + String(m.stdout.suffix(200))
            }
        } else {
            note = "peer not measured: needs python3 with numpy and scipy"
        }
        var figures = [
            statsFigure(),
            figure("stats --decluster gk (first computation)", declustered, "gk", "numpy: GK windows, searchsorted + haversine"),
            Figure(name: "gk windows alone (quakes already read)", n: n, ours: windows.median, ourMax: windows.maximum,
                   samples: windows.count, peer: nil, peerName: "—", unit: "s", target: "≤ 250 ms", met: windows.median <= 0.25,
                   note: "part of the row above"),
            Figure(name: "stats --decluster gk (kept: the view again, no commit since)", n: n, ours: kept.median, ourMax: kept.maximum,
                   samples: kept.count, peer: nil, peerName: "—", unit: "s", target: "≤ 250 ms", met: kept.median <= 0.25,
                   note: "no peer: a script declusters again"),
        ]
        figures.append(Figure(name: "the list declustered: the kept ids applied (count and sections)", n: n, ours: listed.median,
                              ourMax: listed.maximum, samples: listed.count, peer: nil, peerName: "—", unit: "s",
                              target: "≤ 250 ms", met: listed.median <= 0.25, note: "no peer: a script filters an array"))
        if !sequence.isEmpty {
            figures.append(figure("sequence view (A) after the largest quake", sequence, "sequence", "numpy + scipy: selection, Omori MLE"))
        }
        return figures
    }
}
