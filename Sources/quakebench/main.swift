// quakebench: measures every SPEC §9 figure beside its peer in the same run.
//
//   swift run -c release quakebench [--quick] [--sizes 10000,100000,1000000] [--runs 3] [--json]
//                                   [--data DIR] [--work DIR] [--no-python]
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--role", arguments.count >= 4, arguments[1] == "writer" {
    try LiveBench.writer(store: URL(fileURLWithPath: arguments[2]), count: Int(arguments[3]) ?? 20)
    exit(0)
}
if arguments.contains("--help") {
    print("""
        USAGE: quakebench [--quick] [--sizes N,N,…] [--runs N] [--json] [--data DIR] [--work DIR] [--no-python]

        Generates feeds by replicating the real USGS features in ../shared/data/usgs and measures
        import, fetching and live propagation, each beside its peer from the same run.
          --quick      small sizes, one run: checks that the benchmark works (CI runs this)
          --sizes      quake counts to measure (default 10000,100000,1000000)
          --runs       runs per figure; figures are medians (default 3)
          --json       print the figures as JSON instead of a table
          --data DIR   the USGS snapshots (default ../shared/data/usgs from the current directory)
          --work DIR   where generated feeds and stores go (default a temp dir, removed afterwards)
          --no-python  skip the Python peer (it needs ~700 MB at 200k quakes)
        """)
    exit(0)
}

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let quick = arguments.contains("--quick")
let sizes = option("--sizes")?.split(separator: ",").compactMap { Int($0) } ?? (quick ? [2_000] : [10_000, 100_000, 1_000_000])
let runs = Int(option("--runs") ?? "") ?? (quick ? 1 : 3)
let data = URL(fileURLWithPath: option("--data") ?? FileManager.default.currentDirectoryPath + "/../shared/data/usgs")
let keepWork = option("--work") != nil
let work = URL(fileURLWithPath: option("--work") ?? NSTemporaryDirectory() + "quakebench-\(UUID().uuidString)")
let binaries = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
let quaketui = binaries.appendingPathComponent("quaketui").path
let python = !arguments.contains("--no-python")
let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Benchmarks/peers/python_import.py").path

do {
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { if !keepWork { try? FileManager.default.removeItem(at: work) } }
    FileHandle.standardError.write(Data("quakebench: reading templates from \(data.path)\n".utf8))
    let feed = try BenchFeed(dataDirectory: data)
    var figures: [Figure] = []
    for n in sizes {
        FileHandle.standardError.write(Data("quakebench: N = \(n)\n".utf8))
        let importBench = ImportBench(feed: feed, work: work, runs: runs, quaketui: quaketui, pythonPeer: peerScript)
        figures += try importBench.run(n: n, python: python && n <= 200_000)
        figures += try FetchBench(store: importBench.store(n: n), runs: max(3, runs)).run(n: n)
        figures += try LiveBench(store: importBench.store(n: n), commits: quick ? 10 : 40, quakebench: binaries.appendingPathComponent("quakebench").path).run(n: n)
    }
    if arguments.contains("--json") {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(figures), as: UTF8.self))
    } else {
        print(Report.table(figures))
    }
} catch {
    FileHandle.standardError.write(Data("quakebench: \(error)\n".utf8))
    exit(1)
}
