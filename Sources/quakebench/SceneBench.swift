import Foundation
import QuakeScenes

/// Scene durability: `SceneStorage.set` → the new value in the file on disk.
///
/// Each sample changes `ContentView.selectedQuake` and polls the plist (every 0.5 ms, reading
/// the file as another process would) until it holds the new code. The storage coalesces
/// changes for `SceneStorage.coalescingDelay` (40 ms) and then writes temp file + fsync +
/// rename, so that delay is most of the figure. Samples are 150 ms apart, so none coalesce.
struct SceneBench {
    let work: URL
    let samples: Int

    func run() throws -> [Figure] {
        log("scene storage ×\(samples)")
        let state = StateDirectory(path: work.appendingPathComponent("scene-state").path)
        let storage = try SceneStorage(state: state, scene: SceneID(validating: "bench"), restoring: false)
        defer { try? storage.close() }
        var latencies: [Double] = []
        for i in 0..<samples {
            let code = String(format: "scene%08d", i)
            let needle = Data("<string>\(code)</string>".utf8)
            let start = monotonicNanoseconds()
            try storage.set(code, for: SceneKeys.selectedQuake)
            while true {
                if let data = FileManager.default.contents(atPath: storage.path), data.range(of: needle) != nil { break }
                if monotonicNanoseconds() - start > 5_000_000_000 { throw BenchError("scene change not on disk after 5 s") }
                usleep(500)
            }
            latencies.append(Double(monotonicNanoseconds() - start) / 1e9)
            usleep(150_000)
        }
        return [Figure(name: "scene change → on disk", n: 0, ours: latencies.median, ourMax: latencies.maximum,
                       samples: samples, unit: "s", target: "≤ 250 ms (max)", met: latencies.maximum <= 0.25)]
    }
}
