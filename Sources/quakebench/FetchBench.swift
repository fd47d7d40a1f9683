import Foundation
import QuakeFeed

/// `quaketui fetch` of N events from a local FDSN event service (Benchmarks/peers/fdsnws_server.py,
/// the 20,000-event limit of USGS), beside `quaketui import` of the same events from one FDSN
/// text file: what paging through windows, one HTTP request each, several to a transaction, costs.
struct FetchBench {
    let work: URL
    let runs: Int
    let quaketui: String
    let serverScript: String

    func run(n: Int) throws -> [Figure] {
        guard let python3 = Peers.python3 else {
            return [Figure(name: "fetch from a local FDSN service (time)", n: n, ours: .nan, samples: 0, unit: "s",
                           target: "reported", met: nil, note: "not measured: the local service needs python3")]
        }
        let catalogue = work.appendingPathComponent("fdsn-\(n).txt")
        let (start, end) = try writeCatalogue(count: n, to: catalogue)
        let serverDir = work.appendingPathComponent("fdsn-server-\(n)")
        try FileManager.default.createDirectory(at: serverDir, withIntermediateDirectories: true)
        let faults = serverDir.appendingPathComponent("faults.json")
        try Data("{}".utf8).write(to: faults)
        let (server, port) = try startServer(python3, catalogue: catalogue, log: serverDir.appendingPathComponent("requests.jsonl"),
                                             faults: faults)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        var fetchTimes: [Double] = [], fetchRSS: [Double] = [], importTimes: [Double] = [], importRSS: [Double] = []
        var windows = 0
        for run in 0..<runs {
            log("fetch N=\(n.formatted()) run \(run + 1)/\(runs)")
            let state = work.appendingPathComponent("fetch-\(n)")
            try? FileManager.default.removeItem(at: state)
            let m = try Measured.run([quaketui, "fetch", "--service", "usgs", "--start", FDSNQuery.format(start),
                                      "--end", FDSNQuery.format(end), "--json", "--state-dir", state.path],
                                     environment: ["QUAKETUI_FDSN_BASE_URL": "http://127.0.0.1:\(port)/fdsnws/event/1/query"],
                                     measureRSS: true)
            guard m.status == 0 else { throw BenchError("quaketui fetch failed (exit \(m.status)): \(m.stdout)") }
            fetchTimes.append(m.seconds)
            if let rss = m.peakRSSBytes { fetchRSS.append(Double(rss) / 1e6) }
            if let object = try? JSONSerialization.jsonObject(with: Data(m.stdout.utf8)) as? [String: Any] {
                windows = object["windows"] as? Int ?? 0
            }
            let importState = work.appendingPathComponent("fetch-import-\(n)")
            try? FileManager.default.removeItem(at: importState)
            let i = try Measured.run([quaketui, "import", catalogue.path, "--json", "--state-dir", importState.path], measureRSS: true)
            guard i.status == 0 else { throw BenchError("quaketui import failed (exit \(i.status)): \(i.stdout)") }
            importTimes.append(i.seconds)
            if let rss = i.peakRSSBytes { importRSS.append(Double(rss) / 1e6) }
        }
        let peerName = "import of the same events from one FDSN text file"
        return [
            Figure(name: "fetch from a local FDSN service (time)", n: n, ours: fetchTimes.median, ourMax: fetchTimes.maximum,
                   samples: runs, peer: importTimes.median, peerName: peerName, unit: "s", target: "reported", met: nil,
                   note: "\(windows) windows under a 20,000-event limit, one request each, several to a transaction"),
            Figure(name: "fetch peak RSS", n: n, ours: fetchRSS.median, ourMax: fetchRSS.maximum, samples: fetchRSS.count,
                   peer: importRSS.isEmpty ? nil : importRSS.median, peerName: peerName, unit: "MB", target: "≤ 64 MB",
                   met: fetchRSS.isEmpty ? nil : fetchRSS.median <= 64,
                   note: Measured.timeTool == nil ? "not measured: GNU time missing (apt-get install -y time)" : nil),
        ]
    }

    /// `count` events over two years as FDSN text; returns the time range (ms).
    private func writeCatalogue(count: Int, to url: URL) throws -> (Int64, Int64) {
        let start: Int64 = 1_672_531_200_000, span: Int64 = 730 * 86_400_000
        var state: UInt64 = 0x5DEE_CE66_D
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let times = (0..<count).map { _ in start + Int64(random() * Double(span)) }.sorted()
        var text = "#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName\n"
        text.reserveCapacity(count * 120)
        for (i, time) in times.enumerated() {
            let code = "bf" + String(i + 1)
            let latitude = ((random() * 180 - 90) * 1e4).rounded() / 1e4
            let longitude = ((random() * 360 - 180) * 1e4).rounded() / 1e4
            text += "\(code)|\(FDSNQuery.format(time))|\(latitude)|\(longitude)|\((random() * 7000).rounded() / 10)|bf|bf|bf|\(code)|ml|"
                + "\(((2 + 5 * pow(random(), 3)) * 10).rounded() / 10)|bf|\(Int(random() * 300)) km N of Benchville, Region \(i % 97)\n"
        }
        try text.write(to: url, atomically: false, encoding: .utf8)
        return (start, start + span)
    }

    private func startServer(_ python3: String, catalogue: URL, log: URL, faults: URL) throws -> (Process, Int) {
        for _ in 0..<20 {
            let port = Int.random(in: 20_000..<60_000)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python3)
            process.arguments = [serverScript, catalogue.path, String(port), "20000", faults.path, log.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && process.isRunning {
                if answers(port) {
                    return (process, port)
                }
                usleep(50_000)
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        throw BenchError("could not start the local FDSN service (\(serverScript))")
    }

    private func answers(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
