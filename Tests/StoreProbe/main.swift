// store-probe: a child process for QuakeStoreTests.
//
//   store-probe write DIR AUTHOR PREFIX COUNT [BATCH]   COUNT quakes PREFIX-0…, BATCH per transaction
//   store-probe hang DIR PREFIX COUNT                   inserts COUNT rows, prints "inserting", never commits
//   store-probe mutate DIR SEED                         one transaction of random inserts/updates/deletes/notes
//   store-probe open DIR                                opens the store, prints its quake count
//   store-probe misuse DIR bad-parameter               a bug in SQL use: must trap, not run
//   store-probe observe DIR                             prints "ready", then "change TOKEN AUTHOR code,code…"
//                                                       per merged transaction, until stdin closes
import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport

/// Unbuffered line output: the parent test reads it while this process runs.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write(Data("usage: store-probe write|hang|observe DIR ...\n".utf8))
    exit(64)
}
let container: PersistentContainer
do { container = try PersistentContainer(directory: URL(fileURLWithPath: args[2])) } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

func record(_ code: String, _ i: Int) -> QuakeRecord {
    QuakeRecord(code: code, magnitude: Double(i % 70) / 10, place: "\(i) km N of Probe, Testland",
                time: 1_700_000_000_000 + Int64(i) * 1000, updated: 1_700_000_000_000 + Int64(i) * 1000,
                latitude: 10, longitude: 20, depth: 5)
}

switch args[1] {
case "misuse":
    try container.viewContext.read { db in
        try db.prepare("SELECT ?").bind(Int64(1), at: 2)
    }
    say("ran")
case "write":
    let author = args[3], prefix = args[4], count = Int(args[5])!, batch = args.count > 6 ? Int(args[6])! : 1
    let context = try container.newBackgroundContext(author: author)
    var i = 0
    while i < count {
        let end = min(i + batch, count)
        try context.performAndWait { tx in
            for j in i..<end { try tx.upsert(record("\(prefix)-\(j)", j)) }
        }
        say("commit \(prefix) \(i) \(Date().timeIntervalSince1970)")
        i = end
    }
    context.close()
    say("done")
case "mutate":
    var rng = SeededGenerator(seed: UInt64(args[3])!)
    let reader = container.viewContext
    let codes: [String] = try reader.read { db in
        let s = try db.prepare("SELECT code FROM quake ORDER BY id")
        var codes: [String] = []
        while try s.step() { codes.append(s.text(at: 0)) }
        return codes
    }
    let places = ["Höfn, Iceland", "near México City, Mexico", "Fiji region", "São Paulo, Brazil", "Anchorage, Alaska", ""]
    let context = try container.newBackgroundContext(author: "mutate")
    try context.performAndWait { tx in
        let operations = Int(rng.next() % 12) + 1
        for _ in 0..<operations {
            let roll = rng.next() % 10
            let code = codes.isEmpty || roll < 4 ? "m\(rng.next() % 1_000_000)" : codes[Int(rng.next() % UInt64(codes.count))]
            if roll == 9 && !codes.isEmpty {
                try tx.deleteQuake(code: code)
            } else if roll == 8 && !codes.isEmpty {
                try tx.setNotes(rng.next() % 2 == 0 ? "" : "note \(rng.next() % 100)", forCode: code)
            } else {
                let time = 1_700_000_000_000 + Int64(rng.next() % (5 * 86_400_000))
                let magnitude: Double? = rng.next() % 8 == 0 ? nil : Double(rng.next() % 80) / 10
                try tx.upsert(QuakeRecord(code: code, magnitude: magnitude, place: places[Int(rng.next() % UInt64(places.count))],
                                          time: time, updated: 1_800_000_000_000 + Int64(rng.next() % 1_000_000),
                                          latitude: 1, longitude: 2, depth: 3))
            }
        }
    }
    context.close()
    say("done")
case "open":
    say(String(try container.viewContext.read { try $0.quakeCount() }))
case "hang":
    let prefix = args[3], count = Int(args[4])!
    let context = try container.newBackgroundContext(author: "hang")
    try context.performAndWait { tx in
        for j in 0..<count { try tx.upsert(record("\(prefix)-\(j)", j)) }
        say("inserting")
        while true { sleep(1) }
    }
case "observe":
    let reader = container.viewContext
    let token = LastSeenToken(try reader.read { try $0.currentHistoryToken() })
    let observer = try StoreChangeObserver(container: container) {
        let fetch = try? reader.read { try $0.history(after: token.value) }
        guard let fetch else { return }
        if case .transactions(let transactions, _) = fetch {
            for tx in transactions {
                let codes = tx.changes.map(\.code).sorted().joined(separator: ",")
                say("change \(tx.token) \(tx.author) \(tx.isBulk ? "bulk" : codes) \(Date().timeIntervalSince1970)")
            }
        } else {
            say("expired")
        }
        token.value = fetch.latest
    }
    say("ready")
    while readLine() != nil {}
    observer.stop()
default:
    exit(64)
}
container.close()

final class LastSeenToken: @unchecked Sendable {
    // @unchecked: only the observer's serial queue touches `value` after init.
    var value: HistoryToken
    init(_ value: HistoryToken) { self.value = value }
}
