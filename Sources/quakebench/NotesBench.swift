import Foundation
import QuakeModel
import QuakeStore

/// A notes save as the browser makes one (`BrowserApp.saveNotes`: a new writer, one transaction,
/// closed), while another connection holds the store open as a running browser does, from the
/// call to the commit being durable (`synchronous = FULL`: the WAL is synced before it returns).
/// The peer is the same `UPDATE` in the `sqlite3` shell with `synchronous = NORMAL`, which
/// returns before the WAL reaches the disk: the figure's difference is what durability costs.
struct NotesBench {
    let store: URL
    let samples: Int

    func run(n: Int) throws -> [Figure] {
        log("notes save ×\(samples) N=\(n.formatted())")
        let container = try PersistentContainer(directory: store)
        defer { container.close() }
        // The browser's reader, open the whole time.
        let code = try container.viewContext.read { db in try db.scalar("SELECT code FROM quake ORDER BY id LIMIT 1").string }
        guard let code else { throw BenchError("the store has no quake to write notes on") }
        var times: [Double] = []
        for i in 0..<samples {
            let start = monotonicNanoseconds()
            let writer = try container.newBackgroundContext(author: "notes")
            _ = try writer.performAndWait { try $0.setNotes("bench note \(i)", forCode: code) }
            writer.close()
            times.append(Double(monotonicNanoseconds() - start) / 1e9)
        }
        let cleaner = try container.newBackgroundContext(author: "notes")
        _ = try cleaner.performAndWait { try $0.setNotes("", forCode: code) }
        cleaner.close()
        var peer: Double?
        if let sqlite3 = Peers.sqlite3 {
            let statements = (0..<samples).map { "UPDATE quake SET notes = 'peer \($0)' WHERE code = '\(code)';" }
            let script = ".output /dev/null\nPRAGMA synchronous = NORMAL;\n.output stdout\n.timer on\n" + statements.joined(separator: "\n")
                + "\nUPDATE quake SET notes = NULL WHERE code = '\(code)';\n"
            let scriptFile = FileManager.default.temporaryDirectory.appendingPathComponent("quakebench-notes-\(UUID().uuidString).sql")
            try Data(script.utf8).write(to: scriptFile)
            defer { try? FileManager.default.removeItem(at: scriptFile) }
            let m = try Measured.run([sqlite3, store.appendingPathComponent("quakes.sqlite").path], stdinPath: scriptFile.path)
            let runs = m.stdout.split(separator: "\n").compactMap { line -> Double? in
                guard line.hasPrefix("Run Time: real ") else { return nil }
                return Double(line.dropFirst("Run Time: real ".count).split(separator: " ").first ?? "")
            }
            peer = runs.isEmpty ? nil : Array(runs.prefix(samples)).median
        }
        return [Figure(name: "notes save (one durable commit, a browser's connection open)", n: n, ours: times.median,
                       ourMax: times.maximum, samples: times.count, peer: peer,
                       peerName: "the same UPDATE in the sqlite3 shell, synchronous = NORMAL (not durable)",
                       unit: "s", target: "reported", met: nil)]
    }
}
