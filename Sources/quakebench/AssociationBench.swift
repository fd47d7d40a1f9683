import Foundation
import QuakeFeed
import QuakeModel
import QuakeStore

/// Association's cost (issue 53, point 7): another agency's month of the same earthquakes
/// imported into the N-quake store that holds USGS's month, beside the same file into an empty
/// store (nothing to associate) and the USGS month into N (one agency: nothing to associate).
extension ImportBench {
    /// `other-month.txt`: the real month as EMSC reports it, in FDSN text (`Author` EMSC, so the
    /// codes become `emsc:…`): each report moved within the association window, by less than
    /// half the way to the month's nearest other report (so its own stays the nearest), as
    /// `AssociationTests` moves a real week. Deterministic.
    func otherAgencyMonth(of monthFile: URL) throws -> URL {
        let url = work.appendingPathComponent("other-month.txt")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let month = try FeedReader(path: monthFile.path).readAll().sorted { ($0.time, $0.code) < ($1.time, $1.code) }
        let out = try Writer(url)
        out.write("#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType\n")
        var state: UInt64 = 53
        func random() -> Double {  // SplitMix64 in [0, 1)
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        for (i, r) in month.enumerated() {
            var nearest = 1.0  // in window units: sqrt((Δt/16 s)² + (Δd/100 km)²)
            var j = i - 1
            while j >= 0, r.time - month[j].time <= Association.window {
                nearest = min(nearest, Association.distance(r, month[j]).map { $0.squareRoot() } ?? 1); j -= 1
            }
            j = i + 1
            while j < month.count, month[j].time - r.time <= Association.window {
                nearest = min(nearest, Association.distance(r, month[j]).map { $0.squareRoot() } ?? 1); j += 1
            }
            let reach = min(0.9, nearest / 2.5), angle = 2 * Double.pi * random(), radius = reach * random()
            let time = r.time + Int64((radius * cos(angle) * Double(Association.window)).rounded(.towardZero))
            let latitude = max(-90, min(90, r.latitude + radius * sin(angle) * Association.radius / (GeoPoint.earthRadius * .pi / 180) * 0.99))
            var seconds = time_t(time / 1000)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let iso = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                             parts.tm_hour, parts.tm_min, parts.tm_sec, Int32(((time % 1000) + 1000) % 1000))
            let magnitude = r.magnitude.map { String(format: "%.2f", $0 + 0.1) } ?? ""
            let place = r.place.replacingOccurrences(of: "|", with: " ")
            out.write("e\(r.code)|\(iso)|\(latitude)|\(r.longitude)|\(r.depth.map { String($0) } ?? "")|EMSC|EMSC|||"
                      + "\(r.magType ?? "")|\(magnitude)|EMSC|\(place)|earthquake\n")
        }
        try out.close()
        return url
    }

    /// Another agency's month into N plus the USGS month, beside the same file into an empty
    /// store; `usgsMonth` is the USGS month into N of the same runs (`incremental`). After each
    /// run the rows above `maxID` (both months) go again.
    func anotherAgency(n: Int, monthFile: URL, maxID: Int64, usgsMonth: [Double]) throws -> [Figure] {
        let other = try otherAgencyMonth(of: monthFile)
        let state = store(n: n)
        var into: [Double] = [], intoCPU: [Double] = [], intoRSS: [Double] = [], empty: [Double] = [], emptyCPU: [Double] = []
        // The USGS month imported just before into the same store: the same caches and WAL, the
        // peer that association's cost is measured against.
        var usgsBefore: [Double] = []
        var joined = 0
        warmInputs([other])
        for run in 0..<runs {
            log("another agency's month into N=\(n.formatted()) run \(run + 1)/\(runs)")
            let emptyState = work.appendingPathComponent("other-month-empty")
            let e = try importIntoEmpty(other, at: emptyState, what: "the other agency's month")
            empty.append(e.seconds)
            emptyCPU.append(e.cpuSeconds)
            try? FileManager.default.removeItem(at: emptyState)
            let u = try Measured.run([quaketui, "import", monthFile.path, "--json", "--state-dir", state.path])
            guard u.status == 0 else { throw BenchError("quaketui import of the month failed (exit \(u.status)): \(u.stdout)") }
            usgsBefore.append(u.seconds)
            let m = try Measured.run([quaketui, "import", other.path, "--json", "--state-dir", state.path], measureRSS: true)
            guard m.status == 0 else { throw BenchError("quaketui import of the other agency's month failed (exit \(m.status)): \(m.stdout)") }
            into.append(m.seconds)
            intoCPU.append(m.cpuSeconds)
            if let rss = m.peakRSSBytes { intoRSS.append(Double(rss) / 1e6) }
            joined = try Self.sharedEvents(state)
            try Self.deleteRows(after: maxID, in: state)
        }
        let usgs = String(format: "; the USGS month just before, into the same store: %.3f s (%.2f×)", usgsBefore.median, into.median / usgsBefore.median)
            + (usgsMonth.isEmpty ? "" : "; the month-into-N row: \(String(format: "%.3f s", usgsMonth.median))")
        return [
            Figure(name: "import another agency's month into N (association)", n: n, ours: into.median, ourMax: into.maximum,
                   samples: into.count, peer: empty.median, peerName: "the same file into an empty store", unit: "s",
                   target: "≤ 2 s", met: into.median <= 2,
                   note: "\(joined.formatted()) events of two agencies; CPU (user+sys) \(String(format: "%.2f s", intoCPU.median)) vs "
                       + "\(String(format: "%.2f s", emptyCPU.median))" + usgs
                       + (intoRSS.isEmpty ? "" : String(format: "; peak RSS %.1f MB", intoRSS.median))),
        ]
    }

    /// Events of two or more agencies in the store.
    static func sharedEvents(_ state: URL) throws -> Int {
        let container = try PersistentContainer(directory: state)
        defer { container.close() }
        return Int(try container.viewContext.read { db in try db.scalar("SELECT count(*) FROM quake WHERE agencies > 1").int64 ?? 0 })
    }
}
