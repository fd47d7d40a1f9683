import Foundation
import QuakeScenes

/// The browser's automatic refresh at N (issue 13), on the real `quaketui` on a pty: a local
/// mirror (`QUAKETUI_FEED_BASE_URL=file://…`, whose modification time is the validator, as an
/// ETag is over HTTP) polled every second.
///
/// - unchanged feed (the 304 path): key→frame (`j`/`k`, one every 20 ms) while the browser polls;
///   peer: the same keys in the same browser before the mirror exists (nothing polled since its
///   first failure backs off).
/// - changed feed of an `all_day` size (`quakes` new quakes): from publishing the file to the
///   first frame that shows them (includes up to one interval waiting for the poll), and the
///   key→frame latencies while it downloads and imports; peer: `quaketui import` of the same file
///   into the same store in the same run. The rows are deleted afterwards.
///
/// The browser's scene is sorted by depth, shallowest first, with no search or filter: the order
/// where placing 300 quakes at 10 km among millions costs the most (a band of a million rows).
struct AutoRefreshBench {
    let store: URL
    let quaketui: String
    let work: URL
    /// New quakes in the changed feed (a USGS `all_day` holds 200–400).
    var quakes = 300
    var seconds = 4.0

    func run(n: Int) throws -> [Figure] {
        log("automatic refresh in the browser N=\(n.formatted())")
        let mirror = work.appendingPathComponent("auto-refresh-mirror")
        try? FileManager.default.removeItem(at: mirror)
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        let feed = mirror.appendingPathComponent("all_day.geojson")
        let status = store.appendingPathComponent("refresh.plist")
        try? FileManager.default.removeItem(at: status)
        let maxID = try ImportBench.maxID(store)
        let bench = TerminalBench(store: store, quaketui: quaketui, runs: 1)
        try Self.sortByDepth(scene: bench.scene, in: store)
        let browser = try Browser(bench, environment: ["QUAKETUI_FEED_BASE_URL": mirror.absoluteString,
                                                       "QUAKETUI_AUTO_REFRESH_INTERVAL": "1"])
        _ = try browser.nextFrame(after: 0)
        // Baseline: no feed yet, the first failure backs off; then an empty feed, polled unchanged.
        let quiet = try keys(browser, for: seconds)
        try Data(#"{"type":"FeatureCollection","features":[]}"#.utf8).write(to: feed)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: feed.path)
        let firstPoll = Date()
        while Date().timeIntervalSince(firstPoll) < 10, !((try? String(contentsOf: status, encoding: .utf8)) ?? "").contains("lastSuccess") {
            usleep(10_000)
        }
        let unchanged = try keys(browser, for: seconds)
        // A changed feed: new quakes, newer than everything stored.
        let changed = work.appendingPathComponent("auto-refresh-day.geojson")
        try Data(Self.feed(count: quakes).utf8).write(to: changed)
        let published = monotonicNanoseconds()
        try FileManager.default.copyItem(at: changed, to: mirror.appendingPathComponent("next.geojson"))
        _ = rename(mirror.appendingPathComponent("next.geojson").path, feed.path)
        var during: [Double] = []
        var shown: UInt64?
        let deadline = monotonicNanoseconds() + 20_000_000_000
        while shown == nil, monotonicNanoseconds() < deadline {
            let sent = monotonicNanoseconds()
            browser.terminal.type(during.count % 2 == 0 ? "j" : "k")
            during.append(Double(try browser.nextFrame(after: sent) - sent) / 1e9)
            if try ImportBench.maxID(store) >= maxID + Int64(quakes) { shown = monotonicNanoseconds() }
            usleep(20_000)
        }
        during += try keys(browser, for: 1)
        try browser.quit()
        try? FileManager.default.removeItem(at: status)
        _ = try ImportBench.deleteRows(after: maxID, in: store)
        // The peer: the same file imported by `quaketui import` into the same store.
        let peer = try Measured.run([quaketui, "import", changed.path, "--state-dir", store.path])
        _ = try ImportBench.deleteRows(after: maxID, in: store)
        guard peer.status == 0 else { throw BenchError("quaketui import failed (exit \(peer.status))") }
        func late(_ samples: [Double]) -> String { "\(samples.filter { $0 > 0.016 }.count) of \(samples.count) frames over 16 ms" }
        return [
            Figure(name: "auto-refresh, unchanged feed (304): key→frame while polling", n: n, ours: unchanged.median,
                   ourMax: unchanged.maximum, samples: unchanged.count, peer: quiet.median, peerName: "no polling",
                   unit: "s", target: "≤ 16 ms, none delayed", met: unchanged.allSatisfy { $0 <= 0.016 },
                   note: late(unchanged) + String(format: "; peer worst %.1f ms", quiet.maximum * 1000)),
            Figure(name: "auto-refresh, changed feed (\(quakes) new): publish → rows in the store", n: n,
                   ours: shown.map { Double($0 - published) / 1e9 } ?? .nan, samples: shown == nil ? 0 : 1,
                   peer: peer.seconds, peerName: "quaketui import of the file", unit: "s",
                   target: "≤ interval (1 s) + peer", met: shown.map { Double($0 - published) / 1e9 <= 1 + peer.seconds + 0.25 },
                   note: "includes up to 1 s waiting for the next poll"),
            Figure(name: "auto-refresh, changed feed: key→frame during the refresh", n: n, ours: during.median,
                   ourMax: during.maximum, samples: during.count, peer: quiet.median, peerName: "no polling",
                   unit: "s", target: "≤ 16 ms, none delayed", met: during.allSatisfy { $0 <= 0.016 }, note: late(during)),
        ]
    }

    typealias Browser = TerminalBench.Browser

    /// Key→frame latencies of `j`/`k` typed every 20 ms for `seconds`.
    private func keys(_ browser: Browser, for seconds: Double) throws -> [Double] {
        var samples: [Double] = []
        let end = monotonicNanoseconds() + UInt64(seconds * 1e9)
        while monotonicNanoseconds() < end {
            let sent = monotonicNanoseconds()
            browser.terminal.type(samples.count % 2 == 0 ? "j" : "k")
            samples.append(Double(try browser.nextFrame(after: sent) - sent) / 1e9)
            usleep(20_000)
        }
        return samples
    }

    /// Sorts `scene` by depth, shallowest first, searching and filtering nothing; the rest of the
    /// scene stays as the rows before left it.
    private static func sortByDepth(scene: String, in store: URL) throws {
        let storage = try SceneStorage(state: StateDirectory(path: store.path), scene: try SceneID(validating: scene), restoring: true)
        try storage.set("depth", for: SceneKeys.sortOrder)
        try storage.set(true, for: SceneKeys.sortAscending)
        try storage.set("", for: SceneKeys.searchText)
        try storage.set([], for: SceneKeys.filters)
        try storage.close()
    }

    /// `count` quakes newer than any the benchmark generates, with unique codes.
    static func feed(count: Int) -> String {
        let base: Int64 = 1_767_225_600_000 + 7_200_000
        let features = (0..<count).map { i in
            let time = base + Int64(i) * 60_000
            return #"{"type":"Feature","id":"ar\#(UUID().uuidString.prefix(8))\#(i)","properties":{"mag":\#(Double(i % 50) / 10 + 1),"place":"\#(i) km N of Bench, Alaska","time":\#(time),"updated":\#(time),"type":"earthquake","magType":"ml","status":"automatic","tsunami":0,"net":"ak"},"geometry":{"type":"Point","coordinates":[-150.\#(i % 100),61.\#(i % 100),10.0]}}"#
        }
        return #"{"type":"FeatureCollection","metadata":{"generated":0},"features":["# + features.joined(separator: ",") + "]}"
    }
}
