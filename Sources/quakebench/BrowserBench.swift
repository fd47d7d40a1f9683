import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore

/// The browser's figures at N quakes, measured in `--role browser` children (see `BrowserRole`):
/// first restored frame after launch, key press to frame (scroll, search keystroke, sort change)
/// and the browser's peak RSS — each beside the equivalent SQL in the `sqlite3` shell.
///
/// The scene restored is one a user left in the middle of the list: time order, the quake at
/// offset N/2 selected, the detail view open. Page cache warm (the store was just written).
struct BrowserBench {
    let store: URL
    let quakebench: String
    let runs: Int
    /// The list's height in rows at `BenchScreen.size` (the SQL peers fetch as many).
    let window = BenchScreen.size.rows - 4
    let scene = "bench"

    func run(n: Int) throws -> [Figure] {
        let middle = n / 2
        let selected = String(format: "bench%08d", middle), top = String(format: "bench%08d", max(0, middle - 10))
        try saveScene(selected: selected, top: top)
        warmPageCache(store)
        var figures: [Figure] = []
        let peer = Peers.sqlite3.map { ShellPeer(sqlite3: $0, database: store.appendingPathComponent("quakes.sqlite").path) }
        let sql = PeerSQL(window: window, selected: selected, middle: middle)

        // First restored frame, process start included, beside a sqlite3 process that runs the
        // same reads (sections, anchor, window, the detail's row) and exits.
        log("first frame N=\(n.formatted()) ×\(runs)")
        var launches: [Double] = [], inProcess: [Double] = []
        for _ in 0..<runs {
            let m = try Measured.run([quakebench, "--role", "browser", store.path, scene, "--first-frame-only"])
            guard m.status == 0, let drawn = Self.firstFrame(m.stdout) else {
                throw BenchError("browser child failed (exit \(m.status)): \(m.stdout.prefix(300))")
            }
            launches.append(Double(drawn - m.startedAt) / 1e9)
            if let start = Self.stamp("restore-start", m.stdout) { inProcess.append(Double(drawn - start) / 1e9) }
        }
        var peerLaunch: [Double] = []
        if let peer { peerLaunch = try peer.processWallTimes(sql.restore, runs: runs) }
        figures.append(Figure(name: "first restored frame after launch", n: n, ours: launches.median, ourMax: launches.maximum,
                              samples: runs, peer: peerLaunch.isEmpty ? nil : peerLaunch.median,
                              peerName: "sqlite3 process, same reads", unit: "s", target: "≤ 100 ms",
                              met: launches.median <= 0.1, note: peer == nil ? Self.missing : nil))
        figures.append(Figure(name: "  of which open store → first frame (in process)", n: n, ours: inProcess.median,
                              ourMax: inProcess.maximum, samples: inProcess.count, unit: "s",
                              target: "(breakdown)", met: nil))

        // Key presses, then the peak RSS of that whole browser process.
        log("key presses N=\(n.formatted()) ×\(runs)")
        let m = try Measured.run([quakebench, "--role", "browser", store.path, scene, "--repetitions", String(runs)],
                                 measureRSS: true)
        guard m.status == 0 else { throw BenchError("browser child failed (exit \(m.status)): \(m.stdout.prefix(300))") }
        var samples: [String: [Double]] = [:]
        for line in m.stdout.split(separator: "\n") where line.hasPrefix("sample ") {
            let parts = line.split(separator: " ")
            if parts.count == 3, let seconds = Double(parts[2]) { samples[String(parts[1]), default: []].append(seconds) }
        }
        var keys: [(kind: String, name: String, peerSQL: [String])] = [
            ("scroll-line", "key→frame: scroll a line (j)", sql.window(offset: middle + 20)),
            ("scroll-page", "key→frame: scroll a page (PgDn)", sql.window(offset: middle + 2 * window)),
        ]
        var typed = ""
        for character in BrowserRole.searchWord {
            typed.append(character)
            keys.append(("search-\(typed)", "key→frame: search \"\(typed)\"", sql.search(typed)))
        }
        keys.append(("search-esc", "key→frame: Esc clears search", sql.timeOrder))
        keys.append(("near-on", "key→frame: near home on (~, 300 km)", sql.nearHome))
        keys.append(("near-off", "key→frame: near home off (~)", sql.timeOrder))
        keys.append(("sort-magnitude", "key→frame: sort → magnitude (s)", sql.magnitudeOrder))
        keys.append(("sort-region", "key→frame: sort → region (s)", sql.regionOrder))
        keys.append(("sort-depth", "key→frame: sort → depth (s)", sql.depthOrder))
        keys.append(("sort-distance", "key→frame: sort → distance (s)", sql.distanceOrder))
        keys.append(("sort-intensity", "key→frame: sort → intensity (s)", sql.intensityOrder))
        keys.append(("sort-time", "key→frame: sort → time (s)", sql.timeOrder))
        keys.append(("collapse", "key→frame: fold / unfold a day (space)", sql.timeOrder))
        keys.append(("reverse", "key→frame: reverse the order (S)", sql.timeOrderAscending))
        keys.append(("min-magnitude", "key→frame: minimum magnitude (m, each preset)", sql.minimumMagnitude(2.5)))
        keys.append(("last", "key→frame: last quake (G)", sql.window(offset: max(0, n - window))))
        keys.append(("first", "key→frame: first quake (g)", sql.window(offset: 0)))
        typed = ""
        for character in BrowserRole.noMatchWord {
            typed.append(character)
            keys.append(("search-\(typed)", "key→frame: search \"\(typed)\"\(typed == BrowserRole.noMatchWord ? " (matches nothing)" : "")",
                         sql.search(typed)))
        }
        // With the statistics view open (issue 32): its frame, then the complete statistics.
        keys.append(("statsview-open", "key→frame: open the statistics (=)", sql.timeOrder))
        keys.append(("statsview-search", "key→frame: search \"a\" with the statistics open", sql.search("a")))
        keys.append(("statsview-search-esc", "key→frame: Esc clears it, statistics open", sql.timeOrder))
        keys.append(("statsview-sort", "key→frame: sort (s) with the statistics open", sql.magnitudeOrder))
        keys.append(("statsview-min-magnitude", "key→frame: m with the statistics open", sql.minimumMagnitude(2.5)))
        keys.append(("statsview-close", "key→frame: close the statistics (=)", sql.timeOrder))
        let statisticsPeer = try peer?.inShellTimes(StatsBench.statisticsSQL, runs: runs) ?? []
        for key in keys {
            let ours = samples[key.kind] ?? []
            guard !ours.isEmpty else {
                // QUAKEBENCH_ONLY (BrowserRole) played only some groups of keys.
                if ProcessInfo.processInfo.environment["QUAKEBENCH_ONLY"] != nil { continue }
                throw BenchError("browser child printed no \(key.kind) samples")
            }
            let peerTimes = try peer?.inShellTimes(key.peerSQL, runs: runs) ?? []
            figures.append(Figure(name: key.name, n: n, ours: ours.median, ourMax: ours.maximum, samples: ours.count,
                                  peer: peerTimes.isEmpty ? nil : peerTimes.median, peerName: "sqlite3 shell .timer",
                                  unit: "s", target: "≤ 16 ms", met: ours.median <= 0.016,
                                  note: peer == nil ? Self.missing : nil))
            // Never wait on a key (issue 11): the frame with complete counts follows the first one.
            let counted = samples["counted-" + key.kind] ?? []
            if !key.kind.hasPrefix("scroll"), !counted.isEmpty {
                figures.append(Figure(name: "  counts complete after it", n: n, ours: counted.median, ourMax: counted.maximum,
                                      samples: counted.count, peer: peerTimes.isEmpty ? nil : peerTimes.median,
                                      peerName: "sqlite3 shell .timer", unit: "s", target: "≤ 250 ms",
                                      met: counted.median <= 0.25, note: peer == nil ? Self.missing : nil))
            }
            // The statistics view shows the list's counts first, then the rest (composition,
            // moments, b-positive): both frames are timed, as the browser's runtime computes them.
            for (prefix, name, limit) in [("stats-first-", "  statistics' counts shown after it", nil),
                                          ("stats-", "  statistics complete after it", 0.25)] as [(String, String, Double?)] {
                let statistics = samples[prefix + key.kind] ?? []
                guard !statistics.isEmpty else { continue }
                figures.append(Figure(name: name, n: n, ours: statistics.median, ourMax: statistics.maximum,
                                      samples: statistics.count, peer: statisticsPeer.isEmpty ? nil : statisticsPeer.median,
                                      peerName: "sqlite3 shell .timer, 4 GROUP BYs", unit: "s",
                                      target: limit == nil ? "(first part)" : "≤ 250 ms",
                                      met: limit.map { statistics.median <= $0 }, note: peer == nil ? Self.missing : nil))
            }
            // A distance sort that builds its table shows its counts before its order, which
            // the keys that need the whole list (g, G, section jumps) wait for.
            let ordered = samples["ordered-" + key.kind] ?? []
            if !ordered.isEmpty, samples["counted-first-" + key.kind] != nil {
                figures.append(Figure(name: "  order complete after it (g, G, jumps)", n: n, ours: ordered.median,
                                      ourMax: ordered.maximum, samples: ordered.count,
                                      peer: peerTimes.isEmpty ? nil : peerTimes.median, peerName: "sqlite3 shell .timer",
                                      unit: "s", target: "—", met: nil, note: peer == nil ? Self.missing : nil))
            }
        }
        figures.append(Figure(name: "browser peak RSS (restore + all keys above)", n: n,
                              ours: m.peakRSSBytes.map { Double($0) / 1e6 } ?? .nan, samples: m.peakRSSBytes == nil ? 0 : 1,
                              unit: "MB", target: "≤ 64 MB", met: m.peakRSSBytes.map { Double($0) / 1e6 <= 64 },
                              note: m.peakRSSBytes == nil ? "not measured: GNU time missing (apt-get install -y time)" : nil))
        return figures
    }

    static let missing = "peer missing: sqlite3 not on PATH (apt-get install -y sqlite3)"

    static func firstFrame(_ stdout: String) -> UInt64? { stamp("first-frame", stdout) }

    /// A `NAME <ns>` line the browser child printed.
    static func stamp(_ name: String, _ stdout: String) -> UInt64? {
        stdout.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { UInt64($0.dropFirst(name.count + 1)) }
    }

    /// Writes the scene a user left: mid-list selection, detail open, default sort. Afresh:
    /// whatever else a browser left in it (a search, a filter, help open, folded sections)
    /// would change what every browser figure measures.
    private func saveScene(selected: String, top: String) throws {
        let state = StateDirectory(path: store.path), id = try SceneID(validating: scene)
        try? FileManager.default.removeItem(atPath: state.scenePlistPath(id))
        let storage = try SceneStorage(state: state, scene: id, restoring: false)
        try storage.set(selected, for: SceneKeys.selectedQuake)
        try storage.set(top, for: SceneKeys.topQuake)
        try storage.set("time", for: SceneKeys.sortOrder)
        try storage.set("", for: SceneKeys.searchText)
        try storage.set(true, for: SceneKeys.detailIsPresented)
        try storage.set("detail", for: SceneKeys.selectedTab)
        try storage.close()
    }
}

/// The SQL a plain `sqlite3` user would run for the same frame: the section index by GROUP BY,
/// the selection's rank, the visible window, and the detail view's row.
struct PeerSQL {
    let window: Int
    let selected: String
    let middle: Int

    private var columns: String { "code, magnitude, place, time, depth, latitude, longitude, notes IS NOT NULL" }
    private var detail: String { "SELECT * FROM quake WHERE code = '\(selected)';" }

    var restore: [String] {
        ["SELECT time / 86400000 AS d, count(*) FROM quake GROUP BY d ORDER BY d DESC;",
         "SELECT count(*) FROM quake WHERE time > (SELECT time FROM quake WHERE code = '\(selected)');",
         "SELECT \(columns) FROM quake ORDER BY time DESC, id DESC LIMIT \(window) OFFSET \(max(0, middle - 10));",
         detail]
    }
    var timeOrder: [String] { restore }

    /// Oldest first: the day sections and the window from the other end.
    var timeOrderAscending: [String] {
        ["SELECT time / 86400000 AS d, count(*) FROM quake GROUP BY d ORDER BY d ASC;",
         "SELECT count(*) FROM quake WHERE time < (SELECT time FROM quake WHERE code = '\(selected)');",
         "SELECT \(columns) FROM quake ORDER BY time ASC, id ASC LIMIT \(window) OFFSET \(max(0, middle - 10));",
         detail]
    }

    func minimumMagnitude(_ shown: Double) -> [String] {
        // The quakes shown at the minimum or more, as the browser takes them (`MagnitudeBin`).
        let minimum = MagnitudeBin.lowestStored(shownAtLeast: shown)
        return ["SELECT time / 86400000 AS d, count(*) FROM quake WHERE magnitude >= \(minimum) GROUP BY d ORDER BY d DESC;",
         "SELECT count(*) FROM quake WHERE magnitude >= \(minimum) AND time > (SELECT time FROM quake WHERE code = '\(selected)');",
         "SELECT \(columns) FROM quake WHERE magnitude >= \(minimum) ORDER BY time DESC, id DESC LIMIT \(window) OFFSET \(max(0, middle / 4));",
         detail]
    }

    func window(offset: Int) -> [String] {
        ["SELECT \(columns) FROM quake ORDER BY time DESC, id DESC LIMIT \(window) OFFSET \(offset);", detail]
    }

    func search(_ text: String) -> [String] {
        let like = "'%\(text)%'"
        return ["SELECT time / 86400000 AS d, count(*) FROM quake WHERE placeKey LIKE \(like) GROUP BY d ORDER BY d DESC;",
                "SELECT \(columns) FROM quake WHERE placeKey LIKE \(like) ORDER BY time DESC, id DESC LIMIT \(window);",
                detail]
    }

    var magnitudeOrder: [String] {
        ["SELECT \(PersistentContainer.magnitudeSectionSQL("magnitude")) AS b, count(*) FROM quake GROUP BY b ORDER BY b DESC;",
         "SELECT count(*) FROM quake WHERE magnitude > (SELECT magnitude FROM quake WHERE code = '\(selected)');",
         "SELECT \(columns) FROM quake ORDER BY magnitude DESC, time DESC, id DESC LIMIT \(window) OFFSET \(middle);",
         detail]
    }

    /// The depth sort: bands of the depth as shown (to a tenth rounded half up) counted by `GROUP
    /// BY` (10 km to 100 km, then 100 km), the rank, the window.
    var depthOrder: [String] {
        ["SELECT \(PersistentContainer.depthSectionSQL("depth")) AS b, count(*) FROM quake GROUP BY b ORDER BY b;",
         "SELECT count(*) FROM quake WHERE depth < (SELECT depth FROM quake WHERE code = '\(selected)');",
         "SELECT \(columns) FROM quake ORDER BY depth ASC, time ASC, id ASC LIMIT \(window) OFFSET \(middle);",
         detail]
    }

    /// The near-home filter: bounding box on `quake_location` plus the exact haversine, as a
    /// `sqlite3` user would write it with the math functions.
    var nearHome: [String] {
        let within = BrowserRole.home.mathFunctionsWithinSQL(radiusKm: 300)
        return ["SELECT time / 86400000 AS d, count(*) FROM quake WHERE \(within) GROUP BY d ORDER BY d DESC;",
                "SELECT \(columns) FROM quake WHERE \(within) ORDER BY time DESC, id DESC LIMIT \(window);",
                detail]
    }

    /// The distance sort: every row's distance computed and sorted, bands by `GROUP BY`.
    var distanceOrder: [String] {
        let km = BrowserRole.home.mathFunctionsDistanceSQL()
        return ["SELECT (km >= 100) + (km >= 300) + (km >= 1000) + (km >= 3000) AS band, count(*) FROM (SELECT \(km) AS km FROM quake) GROUP BY band;",
                "SELECT \(columns) FROM quake ORDER BY \(km), id LIMIT \(window) OFFSET \(middle);",
                detail]
    }

    /// The intensity sort (issue 55): every row's intensity predicted at home by Allen, Wald &
    /// Worden (2012) as `FeltIntensity.equation` writes it, with the math functions (no
    /// magnitude: no intensity, last), whole intensities I–X by `GROUP BY`, strongest first.
    var intensityOrder: [String] {
        typealias C = FeltIntensity.Coefficients
        let km = BrowserRole.home.mathFunctionsDistanceSQL()
        let r = "sqrt(\(km) * \(km) + coalesce(depth, 0) * coalesce(depth, 0))"
        let rm = "(\(C.m1) + \(C.m2) * exp(magnitude - 5))"
        let mmi = "(\(C.c0) + \(C.c1) * magnitude + \(C.c2) * ln(sqrt(r * r + \(rm) * \(rm)))"
            + " + CASE WHEN r > \(C.hinge) THEN \(C.c4) * ln(r / \(C.hinge)) ELSE 0 END)"
        let rows = "SELECT id, code, magnitude, place, time, depth, latitude, longitude, notes, \(mmi) AS mmi FROM (SELECT *, \(r) AS r FROM quake)"
        return ["SELECT max(1, min(10, round(mmi))) AS band, count(*) FROM (\(rows)) GROUP BY band ORDER BY band DESC;",
                "SELECT code, magnitude, place, time, depth, latitude, longitude, notes IS NOT NULL FROM (\(rows)) ORDER BY mmi IS NULL, mmi DESC, id LIMIT \(window) OFFSET \(middle);",
                detail]
    }

    var regionOrder: [String] {
        ["SELECT regionKey, min(region), count(*) FROM quake GROUP BY regionKey ORDER BY regionKey;",
         "SELECT count(*) FROM quake WHERE regionKey < (SELECT regionKey FROM quake WHERE code = '\(selected)');",
         "SELECT \(columns) FROM quake ORDER BY regionKey, time DESC, id LIMIT \(window) OFFSET \(middle);",
         detail]
    }
}

/// Runs SQL in the `sqlite3` shell on a read-only store.
struct ShellPeer {
    let sqlite3: String
    let database: String

    /// Wall time of a whole `sqlite3` process (start, the statements, exit), `runs` times.
    func processWallTimes(_ statements: [String], runs: Int) throws -> [Double] {
        try withScript(statements.joined(separator: "\n")) { script in
            try (0..<runs).map { _ in
                let m = try Measured.run([sqlite3, "-readonly", database], stdinPath: script)
                guard m.status == 0 else { throw BenchError("sqlite3 failed (exit \(m.status))") }
                return m.seconds
            }
        }
    }

    /// The statements' summed `.timer` real time, `runs` times in one warm shell session.
    /// `.timer` reports whole milliseconds in sqlite3 3.40, so sub-millisecond figures read 0.
    func inShellTimes(_ statements: [String], runs: Int) throws -> [Double] {
        let body = Array(repeating: statements.joined(separator: "\n"), count: runs).joined(separator: "\n")
        return try withScript(".timer on\n" + body) { script in
            let m = try Measured.run([sqlite3, "-readonly", database], stdinPath: script)
            guard m.status == 0 else { throw BenchError("sqlite3 failed (exit \(m.status))") }
            let times = m.stdout.split(separator: "\n").compactMap { line -> Double? in
                guard let range = line.range(of: "Run Time: real ") else { return nil }
                return Double(line[range.upperBound...].split(separator: " ").first ?? "")
            }
            guard times.count == statements.count * runs else {
                throw BenchError("sqlite3 printed \(times.count) timings for \(statements.count * runs) statements")
            }
            return stride(from: 0, to: times.count, by: statements.count).map { times[$0..<$0 + statements.count].reduce(0, +) }
        }
    }

    private func withScript<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quakebench-\(UUID().uuidString).sql")
        try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }
}
