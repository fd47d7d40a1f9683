import Foundation
@testable import QuakeFeed
import QuakeTestSupport
import Testing

/// The download helper's limits judge the server, never the reader (issue 29, finding 7).
@Suite(.serialized) struct DownloadLimitTests {
    /// A reader that stops reading for longer than the stall limit still gets the whole body:
    /// the chunks waiting for the pipe (and the server waiting on them) are the reader's delay,
    /// not a stalled server.
    @Test func aSlowReaderIsNotAStalledServer() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var body = [UInt8](repeating: 0, count: 8 << 20)
        for index in body.indices { body[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        try Data(body).write(to: dir.appending("big.bin"))
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let url = try #require(URL(string: "\(server.baseURL)/file/big.bin"))
        let stall: TimeInterval = 0.3
        let stream = try HTTPByteStream(url: url, timeout: stall)
        defer { stream.close() }
        // Nothing read yet: the helper must not give up while its chunks wait for us.
        let helper = stream.helperProcessID
        #expect(!eventually(timeout: stall * 5) { ChildProcess.isGone(helper) }, "the helper gave up on a slow reader")
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { break }
            received += chunk[0..<n]
        }
        #expect(received.count == body.count)
        #expect(received == body)
    }

    /// An endless uncompressed body, read slower than the server sends it: the helper holds a few
    /// chunks, not what the server has sent (it grew by 2.6 GB in 8 s, buffering it all for the
    /// reader), and the body arrives whole and in order. The bound is the helper's own size (35 MB
    /// in a debug build, whatever it downloads) and room to spare; the chunks are a few MiB at most.
    @Test func anEndlessBodyReadSlowlyKeepsTheHelperSmall() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let stream = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/endless/all_day.geojson")), timeout: 30)
        defer { stream.close() }
        let helper = stream.helperProcessID
        // The server's body, as `LocalHTTPServer+Hostile.swift` writes it.
        var expected = Array(#"{"type":"FeatureCollection","features":["#.utf8)
        for n in 0..<40_000 {
            expected += Array((#"{"type":"Feature","properties":{"mag":2.5,"place":"Alaska","time":1700000000000,"#
                + #""updated":1700000000000,"type":"earthquake"},"geometry":{"type":"Point","#
                + #""coordinates":[-150,61,10]},"id":"ak\#(n)"},"#).utf8)
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let start = Date()
        // About 3 MB/s, for 6 s: the server could send hundreds of MB a second.
        while Date().timeIntervalSince(start) < 6 {
            let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
            try #require(n > 0, "the endless body ended")
            if received.count < expected.count { received += chunk[0..<min(n, expected.count - received.count)] }
            Thread.sleep(forTimeInterval: 0.005)  // the slow reader under test, not a wait for a condition
        }
        let peak = try #require(Self.peakResidentKiB(of: helper), "no VmHWM for the helper \(helper)")
        #expect(peak < 64 << 10, "the helper's peak resident size is \(peak >> 10) MiB")
        #expect(received == Array(expected.prefix(received.count)), "the body is not the server's, in order")
        #expect(received.count > 1 << 20)
    }

    /// `VmHWM` of `/proc/PID/status`: the process's peak resident set size, in KiB.
    static func peakResidentKiB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) }
    }

    /// A gzip-encoded answer's `Content-Length` counts encoded bytes, but the stream hands out
    /// decoded ones: its size is unknown (nil), not the encoded size (progress past 100 %).
    @Test func anEncodedAnswerHasNoKnownSize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = String(repeating: #"{"type":"FeatureCollection","features":[]}"# + "\n", count: 2000)
        try Data(text.utf8).write(to: dir.appending("feed.geojson"))
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let plain = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/file/feed.geojson")))
        defer { plain.close() }
        #expect(plain.totalBytes == Int64(text.utf8.count))
        let encoded = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/gzip/feed.geojson")))
        defer { encoded.close() }
        #expect(encoded.responseHeaders["content-encoding"] == "gzip")
        #expect(encoded.totalBytes == nil)
        var count = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while case let n = try chunk.withUnsafeMutableBytes({ try encoded.read(into: $0) }), n > 0 { count += n }
        #expect(count == text.utf8.count)
    }

    /// The helper waits on a server at nice 10 or more: FoundationNetworking keeps a core busy
    /// while it waits, and the browser it downloads for is scheduled first.
    @Test func theHelperWaitsBelowItsParent() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let stream = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/stall/feed.geojson")), timeout: 5)
        defer { stream.close() }
        let helper = stream.helperProcessID
        // /proc/PID/stat: the niceness is the 19th field, the 17th after the command's ")".
        func niceness() -> Int? {
            guard let stat = try? String(contentsOfFile: "/proc/\(helper)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 16 ? Int(fields[16]) : nil
        }
        let own = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        #expect(eventually(timeout: 5) { (niceness() ?? 0) >= max(10, own) }, "the helper runs at nice \(niceness() ?? -99)")
    }

    /// The helper gets its stdin, stdout and stderr and no other descriptor of its parent's, even
    /// one opened without close-on-exec (the browser's terminal, /dev/pts/N, reached it as fd 20).
    @Test func theHelperInheritsNoOtherDescriptor() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let marker = dir.appending("not-for-the-helper")
        try Data().write(to: marker)
        let inherited = open(marker.path, O_RDONLY)  // no O_CLOEXEC, as a terminal opened by curses
        try #require(inherited >= 0)
        defer { close(inherited) }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let stream = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/stall/feed.geojson")), timeout: 5)
        defer { stream.close() }
        let helper = stream.helperProcessID
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(helper)/fd")
        let targets = fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(helper)/fd/\($0)") }
        #expect(!targets.contains(marker.path), "the helper holds \(targets)")
        // Its stdin is the request socket and its stdout and stderr pipes, from this process.
        for fd in ["0", "1", "2"] {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(helper)/fd/\(fd)")
            #expect(target.hasPrefix(fd == "0" ? "socket:" : "pipe:"), "fd \(fd) is \(target)")
        }
    }
}
