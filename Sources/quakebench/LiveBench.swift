import Foundation
import QuakeStore

/// Live propagation: a commit in one process → the change delivered in another
/// (StoreChangeObserver), median and p95 over many single-row commits.
struct LiveBench {
    let store: URL
    let commits: Int
    let quakebench: String

    func run(n: Int) throws -> [Figure] {
        let container = try PersistentContainer(directory: store)
        defer { container.close() }
        let deliveries = DeliveryLog()
        let observer = try StoreChangeObserver(container: container) { deliveries.append(Date().timeIntervalSince1970) }
        defer { observer.stop() }
        let writer = try Measured.run([quakebench, "--role", "writer", store.path, String(commits)])
        guard writer.status == 0 else { throw BenchError("writer failed (exit \(writer.status))") }
        Thread.sleep(forTimeInterval: 0.3)
        let commitTimes = writer.stdout.split(separator: "\n").compactMap { Double($0) }
        let delivered = deliveries.values
        // Each commit's latency: the first delivery at or after it.
        var latencies: [Double] = []
        for commit in commitTimes {
            if let first = delivered.first(where: { $0 >= commit - 0.0005 }) { latencies.append(max(0, first - commit)) }
        }
        return [
            Figure(name: "live change → delivered (median)", n: n, ours: latencies.median, peer: nil, peerName: nil,
                   unit: "s", target: "≤ 250 ms (goal 50)", met: latencies.median <= 0.25),
            Figure(name: "live change → delivered (p95)", n: n, ours: latencies.percentile(0.95), peer: nil, peerName: nil,
                   unit: "s", target: "≤ 250 ms", met: latencies.percentile(0.95) <= 0.25),
        ]
    }

    /// The writer role: COUNT single-row commits 40 ms apart, printing each commit's wall time.
    static func writer(store: URL, count: Int) throws {
        let container = try PersistentContainer(directory: store)
        defer { container.close() }
        let context = try container.newBackgroundContext(author: "quakebench")
        defer { context.close() }
        var output = ""
        for i in 0..<count {
            try context.performAndWait { tx in
                try tx.upsert(QuakeRecord(code: "live\(i)", magnitude: 3, place: "Live, Bench", time: 1_767_225_600_000 + Int64(i),
                                          updated: 1_767_225_600_000, latitude: 0, longitude: 0))
            }
            output += "\(Date().timeIntervalSince1970)\n"
            Thread.sleep(forTimeInterval: 0.04)
        }
        print(output, terminator: "")
    }
}

final class DeliveryLog: @unchecked Sendable {
    // @unchecked: `times` is only touched under `lock`.
    private let lock = NSLock()
    private var times: [Double] = []
    func append(_ time: Double) { lock.lock(); times.append(time); lock.unlock() }
    var values: [Double] { lock.lock(); defer { lock.unlock() }; return times }
}
