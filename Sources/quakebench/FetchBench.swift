import Foundation
import QuakeStore

/// The list's reads at N quakes — section index, first window, search keystrokes, sort change,
/// paging — by our results controller, beside the equivalent plain SQL in the `sqlite3` shell
/// on the same file (its own `.timer`, so process start-up is not counted).
struct FetchBench {
    let store: URL
    let runs: Int
    let window = 50

    func run(n: Int) throws -> [Figure] {
        let container = try PersistentContainer(directory: store)
        defer { container.close() }
        let utc = TimeZone(identifier: "UTC")!
        var figures: [Figure] = []

        func measure(_ name: String, target: Double, peerSQL: String, _ body: () throws -> Void) throws {
            var ours: [Double] = []
            for _ in 0..<runs { ours.append(try Measured.time(body).1) }
            let peer = try sqlite3Time(peerSQL)
            figures.append(Figure(name: name, n: n, ours: ours.median, peer: peer, peerName: "sqlite3 shell SQL", unit: "s",
                                  target: "≤ \(Int(target * 1000)) ms", met: ours.median <= target))
        }

        let dayGroups = "SELECT time / 86400000 AS d, count(*) FROM quake GROUP BY d ORDER BY d DESC;"
        let firstWindow = "SELECT code, magnitude, place, time, depth, latitude, longitude FROM quake ORDER BY time DESC, id DESC LIMIT \(window);"
        try measure("first window (sections + rows)", target: 0.1, peerSQL: dayGroups + firstWindow) {
            let controller = try FetchedResultsController(container: container, request: SectionedFetchRequest(timeZone: utc))
            _ = try controller.rows(in: 0..<window)
            controller.close()
        }

        let controller = try FetchedResultsController(container: container, request: SectionedFetchRequest(timeZone: utc))
        defer { controller.close() }
        for search in ["a", "al", "ala", "alaska"] {
            let like = "'%\(search)%'"
            try measure("search keystroke \"\(search)\"", target: 0.016,
                        peerSQL: "SELECT time / 86400000 AS d, count(*) FROM quake WHERE placeKey LIKE \(like) GROUP BY d ORDER BY d DESC; SELECT code, place FROM quake WHERE placeKey LIKE \(like) ORDER BY time DESC LIMIT \(window);") {
                var request = SectionedFetchRequest(timeZone: utc)
                request.predicate.searchText = search
                try controller.configure(request)
                _ = try controller.rows(in: 0..<window)
            }
        }
        try measure("sort change to magnitude", target: 0.016,
                    peerSQL: "SELECT CAST(magnitude AS INT), count(*) FROM quake GROUP BY 1 ORDER BY 1 DESC; SELECT code, place FROM quake ORDER BY magnitude DESC, time DESC LIMIT \(window);") {
            try controller.configure(SectionedFetchRequest(sortDescriptor: .init(.magnitude), timeZone: utc))
            _ = try controller.rows(in: 0..<window)
            try controller.configure(SectionedFetchRequest(timeZone: utc))
        }
        let middle = n / 2
        try measure("scroll a page (middle, cold)", target: 0.016,
                    peerSQL: "SELECT code, place FROM quake ORDER BY time DESC, id DESC LIMIT \(window) OFFSET \(middle);") {
            try controller.configure(SectionedFetchRequest(timeZone: utc))  // drops the window cache
            _ = try controller.rows(in: middle..<middle + window)
        }
        return figures
    }

    /// Runs SQL in the sqlite3 shell with `.timer on` and returns the median summed real time.
    private func sqlite3Time(_ sql: String) throws -> Double {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("quakebench-\(UUID().uuidString).sql")
        defer { try? FileManager.default.removeItem(at: script) }
        try ".timer on\n.output /dev/null\n\(sql)\n".write(to: script, atomically: true, encoding: .utf8)
        var times: [Double] = []
        for _ in 0..<runs {
            let m = try Measured.run(["/usr/bin/sqlite3", "-readonly", store.appendingPathComponent("quakes.sqlite").path],
                                     stdinPath: script.path)
            // `.timer` writes "Run Time: real 0.012 user … sys …" to stdout even with .output redirected? No: to the output.
            let total = m.stdout.split(separator: "\n").compactMap { line -> Double? in
                guard line.hasPrefix("Run Time: real ") else { return nil }
                return Double(line.dropFirst("Run Time: real ".count).split(separator: " ").first ?? "")
            }.reduce(0, +)
            times.append(total)
        }
        return times.median
    }
}
