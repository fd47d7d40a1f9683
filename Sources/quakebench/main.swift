// quakebench: measures every SPEC §9 figure beside its peer in the same run.
//
//   swift run -c release quakebench [--quick] [--import-only | --month-only | --month-live | --live-only | --auto-refresh-only | --browser-only | --stats-only | --terminal-only | --delete-only] [--sizes 10000,200000,1000000] [--runs 5] [--json]
//                                   [--data DIR] [--work DIR] [--no-python]
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

// Child roles: the benchmark's own processes.
if arguments.first == "--role", arguments.count >= 2 {
    do {
        switch arguments[1] {
        case "writer" where arguments.count >= 4:
            try LiveBench.writer(store: URL(fileURLWithPath: arguments[2]), count: Int(arguments[3]) ?? 20,
                                 milliseconds: arguments.count > 4 ? Int(arguments[4]) ?? 40 : 40)
        case "sort-key" where arguments.count >= 4:
            try SortKeyRole.run(stateDirectory: arguments[2], code: arguments[3], repetitions: Int(option("--repetitions") ?? "") ?? 3)
        case "browser" where arguments.count >= 4:
            try BrowserRole.run(stateDirectory: arguments[2], scene: arguments[3],
                                firstFrameOnly: arguments.contains("--first-frame-only"),
                                repetitions: Int(option("--repetitions") ?? "") ?? 5)
        default:
            FileHandle.standardError.write(Data("quakebench: unknown role \(arguments.dropFirst().joined(separator: " "))\n".utf8))
            exit(64)
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("quakebench (\(arguments[1])): \(error)\n".utf8))
        exit(1)
    }
}

if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        USAGE: quakebench [--quick] [--import-only | --month-only | --month-live | --live-only | --auto-refresh-only | --browser-only | --stats-only | --terminal-only | --delete-only] [--sizes N,N,…] [--runs N] [--json] [--data DIR] [--work DIR] [--no-python] [--no-fetch]

        Generates feeds by replicating the real USGS features in ../shared/data/usgs and measures
        every SPEC §9 figure (import, first frame, key press to frame, live change, RSS, scene
        storage), each beside its peer from the same run. Prints a table (or JSON) on stdout,
        progress on stderr. Exits 1 only if something fails to run; a missed target is reported,
        never an error. Missing peers (sqlite3, python3, GNU time for RSS) are named in the table.
          --quick      10,000 quakes, 3 runs, no Python: checks that the benchmark works (CI runs this,
                       on the debug build: its figures are then only a check that every row runs)
          --sizes      quake counts to measure (default 10000,200000,1000000)
          --runs       runs per figure; figures are medians (default 5; imports use min(runs, 3) at ≥ 500k)
          --json       print the figures as JSON instead of a table
          --data DIR   the USGS snapshots (default ../shared/data/usgs from the current directory)
          --work DIR   where generated feeds and stores go, kept afterwards (default a temp dir, removed)
          --import-only  only the import figures (empty store, a month into N, re-import)
          --month-only   only a month into N beside the same file into an empty store (and its re-import), on
                       the store of an earlier run in --work DIR
          --month-live   only the import figures and a month import watched by a browser model
          --live-only    only the live rows (single commits, then a month, imported by another process and
                       watched by a browser model), on a store as --browser-only finds or makes it
          --auto-refresh-only  one import to make each store, then only the browser's automatic refresh rows
          --browser-only only the in-process browser figures (restore, key→frame, RSS) and quaketui status, on the store of an
                       earlier run in --work DIR if there is one, else after one import
          --stats-only only the statistics, density and science rows (issues 32, 54), on a store as --browser-only finds or
                       makes it
          --terminal-only the real quaketui on a pseudo-terminal only (launch → first frame, keys, idle CPU
                       over 60 s, RSS), on a store as --browser-only finds or makes it
          --delete-only  only the delete rows (issue 57: delete --before of the oldest half beside the sqlite3
                       shell's one DELETE, and the longest wait of a notes save every 0.2 s during it), each run
                       on a copy of a store as --browser-only finds or makes it; the whole run measures them
                       last at each size
          --no-python  skip the Python peer (it runs only up to 200,000 quakes: ~700 MB there)
          --no-fetch   skip the fetch row (fetch of 200,000 events from a local FDSN service, python3)
        The import peer is an expert's sqlite3 load (bare table, .import, then indexes, FTS rebuild,
        triggers); the naive .import into the full schema is reported beside it up to 200,000.
        """)
    exit(0)
}

let known: Set<String> = ["--import-only", "--month-only", "--month-live", "--live-only", "--auto-refresh-only", "--browser-only", "--stats-only", "--terminal-only", "--delete-only", "--quick", "--sizes", "--runs", "--json", "--data", "--work", "--no-python", "--no-fetch"]
for (index, argument) in arguments.enumerated() where argument.hasPrefix("-") && !known.contains(argument) {
    let previous = index > 0 ? arguments[index - 1] : ""
    guard ["--sizes", "--runs", "--data", "--work"].contains(previous) else {
        FileHandle.standardError.write(Data("quakebench: unknown option \(argument); see --help\n".utf8))
        exit(64)
    }
}

let quick = arguments.contains("--quick")
let importOnly = arguments.contains("--import-only")
let monthOnly = arguments.contains("--month-only")
let monthLiveOnly = arguments.contains("--month-live")
let autoRefreshOnly = arguments.contains("--auto-refresh-only")
let liveOnly = arguments.contains("--live-only")
let browserOnly = arguments.contains("--browser-only")
let terminalOnly = arguments.contains("--terminal-only")
let statsOnly = arguments.contains("--stats-only")
let deleteOnly = arguments.contains("--delete-only")
let sizes = option("--sizes")?.split(separator: ",").compactMap { Int($0) } ?? (quick ? [10_000] : [10_000, 200_000, 1_000_000])
let runs = max(1, Int(option("--runs") ?? "") ?? (quick ? 3 : 5))
/// An unoptimized build (`swift build`, as CI's --quick run uses) runs every row, but its times
/// say nothing about the targets: the report says so.
#if DEBUG
let unoptimized = true
#else
let unoptimized = false
#endif
let data = URL(fileURLWithPath: option("--data") ?? FileManager.default.currentDirectoryPath + "/../shared/data/usgs")
let keepWork = option("--work") != nil
let work = URL(fileURLWithPath: option("--work") ?? NSTemporaryDirectory() + "quakebench-\(UUID().uuidString)")
let binaries = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
let quaketui = binaries.appendingPathComponent("quaketui").path
let quakebench = binaries.appendingPathComponent("quakebench").path
let python = !arguments.contains("--no-python") && !quick
let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Benchmarks/peers/python_import.py").path
let scienceScript = URL(fileURLWithPath: peerScript).deletingLastPathComponent().appendingPathComponent("science_numpy.py").path
let fetchServerScript = URL(fileURLWithPath: peerScript).deletingLastPathComponent().appendingPathComponent("fdsnws_server.py").path

do {
    guard FileManager.default.isExecutableFile(atPath: quaketui) else {
        throw BenchError("\(quaketui) is missing: build it first (swift build -c release --product quaketui)")
    }
    if unoptimized { log("a debug build: every row runs, but its figures are not quaketui's (build with -c release to measure)") }
    if Peers.sqlite3 == nil { log("peer missing: sqlite3 is not on PATH; its figures are left out (apt-get install -y sqlite3)") }
    if Measured.timeTool == nil { log("GNU time is missing: peak RSS figures are left out (apt-get install -y time)") }
    if python && Peers.python3 == nil { log("peer missing: python3 is not on PATH; the Python figures are left out") }
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { if !keepWork { try? FileManager.default.removeItem(at: work) } }
    let feed: BenchFeed
    if FileManager.default.fileExists(atPath: data.path) {
        log("reading templates from \(data.path)")
        feed = try BenchFeed(dataDirectory: data)
    } else {
        log("\(data.path) not found: using the bundled sample catalogue as templates (say --data DIR for real USGS data)")
        feed = try BenchFeed(bundledSampleIn: work.appendingPathComponent("sample-store"))
    }
    var figures: [Figure] = []
    /// The real quaketui on a pseudo-terminal (a 2 s idle watch with --quick, else SPEC's 60 s).
    func terminalFigures(_ store: URL, _ n: Int) throws -> [Figure] {
        var bench = TerminalBench(store: store, quaketui: quaketui, runs: runs)
        if quick { bench.idleSeconds = 2 }
        return try bench.run(n: n)
    }
    let monthFile = data.appendingPathComponent("all_month-2023-04-04.csv")
    /// The delete rows (issue 57), each run on a copy of the store. One run of each at ≥ 1M: at
    /// 200k (load 7) a run of ours took 9.2 s, the peer's 5.3 s, the one beside the saver 13.6 s,
    /// so at 5M the three take about ten minutes. One with --quick too (CI: it checks the rows run).
    func deleteFigures(_ store: URL, _ n: Int) throws -> [Figure] {
        try DeleteBench(store: store, work: work, quaketui: quaketui, runs: n >= 1_000_000 || quick ? 1 : min(runs, 3)).run(n: n)
    }
    for n in sizes {
        log("N = \(n.formatted())")
        if autoRefreshOnly {
            // One import to make the store, then only the automatic-refresh rows.
            let geojson = work.appendingPathComponent("feed-\(n).geojson")
            let store = work.appendingPathComponent("import-\(n)")
            if !FileManager.default.fileExists(atPath: store.path) {
                log("writing \(n.formatted()) quakes and importing them")
                try feed.writeGeoJSON(count: n, to: geojson)
                let m = try Measured.run([quaketui, "import", geojson.path, "--state-dir", store.path])
                guard m.status == 0 else { throw BenchError("quaketui import failed (exit \(m.status))") }
            }
            figures += try AutoRefreshBench(store: store, quaketui: quaketui, work: work, seconds: quick ? 2 : 4).run(n: n)
            continue
        }
        let importRuns = n >= 500_000 ? min(runs, 3) : runs
        let importBench = ImportBench(feed: feed, work: work, runs: importRuns, quaketui: quaketui, pythonPeer: peerScript,
                                      monthFile: monthFile)
        let store = importBench.store(n: n)
        if monthOnly {
            guard FileManager.default.fileExists(atPath: store.appendingPathComponent("quakes.sqlite").path) else {
                throw BenchError("--month-only needs the store of an earlier run: \(store.path) is missing (run --import-only with --work first)")
            }
            figures += try importBench.incremental(n: n)
            continue
        }
        if browserOnly || statsOnly || terminalOnly || deleteOnly || liveOnly {
            let database = store.appendingPathComponent("quakes.sqlite").path
            if !FileManager.default.fileExists(atPath: database) {
                let feedFile = work.appendingPathComponent("feed-\(n).geojson")
                if !FileManager.default.fileExists(atPath: feedFile.path) { try feed.writeGeoJSON(count: n, to: feedFile) }
                let m = try Measured.run([quaketui, "import", feedFile.path, "--json", "--state-dir", store.path])
                guard m.status == 0 else { throw BenchError("quaketui import failed (exit \(m.status)): \(m.stdout)") }
            }
            if deleteOnly {
                figures += try deleteFigures(store, n)
            } else if liveOnly {
                let live = LiveBench(store: store, commits: quick ? 10 : 40, quakebench: quakebench, quaketui: quaketui,
                                     monthFile: monthFile, monthRuns: quick ? 1 : 3)
                figures += try live.run(n: n)
                figures += try live.runOnPTY(n: n)
                figures += try live.runMonth(n: n)
            } else if terminalOnly {
                figures += try terminalFigures(store, n)
            } else if statsOnly {
                // QUAKEBENCH_ONLY=stats: the `stats` row alone (ScienceBench), for profiling it.
                let statsRowOnly = ProcessInfo.processInfo.environment["QUAKEBENCH_ONLY"] == "stats"
                if !statsRowOnly { figures += try StatsBench(store: store, runs: runs).run(n: n) }
                figures += try ScienceBench(store: store, runs: runs, peerScript: scienceScript, statsRowOnly: statsRowOnly).run(n: n)
            } else {
                figures += try BrowserBench(store: store, quakebench: quakebench, runs: runs).run(n: n)
                figures += try StatsBench(store: store, runs: runs).run(n: n)
                figures += try ScienceBench(store: store, runs: runs, peerScript: scienceScript).run(n: n)
                figures += try StatusBench(store: store, quaketui: quaketui, runs: runs).run(n: n)
            }
            continue
        }
        figures += try importBench.run(n: n, python: python && n <= 200_000)
        figures += try NotesBench(store: store, samples: quick ? 10 : 40).run(n: n)
        if monthLiveOnly {
            figures += try LiveBench(store: store, commits: 0, quakebench: quakebench, quaketui: quaketui,
                                     monthFile: monthFile, monthRuns: 3).runMonth(n: n)
        }
        if importOnly || monthLiveOnly { continue }
        figures += try BrowserBench(store: store, quakebench: quakebench, runs: runs).run(n: n)
        figures += try StatsBench(store: store, runs: runs).run(n: n)
        figures += try ScienceBench(store: store, runs: runs, peerScript: scienceScript).run(n: n)
        figures += try StatusBench(store: store, quaketui: quaketui, runs: runs).run(n: n)
        figures += try terminalFigures(store, n)
        figures += try AutoRefreshBench(store: store, quaketui: quaketui, work: work, seconds: quick ? 2 : 4).run(n: n)
        let live = LiveBench(store: store, commits: quick ? 10 : 40, quakebench: quakebench, quaketui: quaketui,
                             monthFile: monthFile, monthRuns: quick ? 1 : 3)
        figures += try live.run(n: n)
        figures += try live.runOnPTY(n: n)
        figures += try live.runMonth(n: n)
        // Last: it works on copies of the store, and at 5M a copy is ~3 GB.
        figures += try deleteFigures(store, n)
        // A long run's results so far, in case it is interrupted.
        log("figures so far:\n" + Report.table(figures))
    }
    // Import RSS must stay flat from the smallest size to the largest.
    let rss = figures.filter { $0.name == "import peak RSS" && !$0.ours.isNaN }
    if let small = rss.first, let large = rss.last, large.n > small.n {
        figures.append(Figure(name: "import peak RSS growth \(small.n.formatted())→\(large.n.formatted())", n: large.n,
                              ours: large.ours / small.ours, samples: large.samples, unit: "×",
                              target: "flat (≤ 64 MB at every N)", met: rss.allSatisfy { $0.ours <= 64 }))
    }
    // Paging through a local FDSN service beside importing the same events from one file (issue 14).
    if !arguments.contains("--no-fetch") && !importOnly && !monthOnly && !monthLiveOnly && !browserOnly && !statsOnly && !terminalOnly && !deleteOnly {
        let fetchN = quick ? 10_000 : 200_000
        log("fetch N = \(fetchN.formatted())")
        figures += try FetchBench(work: work, runs: min(runs, 3), quaketui: quaketui, serverScript: fetchServerScript).run(n: fetchN)
    }
    if !importOnly && !monthOnly && !monthLiveOnly && !browserOnly && !statsOnly && !terminalOnly && !deleteOnly { figures += try SceneBench(work: work, samples: quick ? 10 : 40).run() }
    if arguments.contains("--json") {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(figures), as: UTF8.self))
    } else {
        print(Report.table(figures))
        let missed = figures.filter { $0.met == false }.map { "\($0.name) at \($0.n.formatted())" }
        print(missed.isEmpty ? "\nall targets met" : "\nmissed: " + missed.joined(separator: "; "))
        if unoptimized { print("(a debug build: these figures are not quaketui's; build with -c release to measure)") }
    }
} catch {
    log("\(error)")
    exit(1)
}
