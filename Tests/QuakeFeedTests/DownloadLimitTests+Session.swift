import Foundation
@testable import QuakeFeed
import QuakeTestSupport
import Testing

/// One `quaketui-http` for a run of downloads (a fetch's windows): every body arrives whole
/// and in order through the frames, and a helper that broke or was left mid-body is replaced.
/// Each test finds its helper by its stream's or session's process id: other suites of the
/// process download too.
extension DownloadLimitTests {
    /// Bytes that look like the frames themselves ("0\n", "1f\n") and every byte value.
    static func body(_ size: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<size).map { index in
            if index % 97 < 3 { return Array("0\n".utf8)[index % 2] }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    static func readAll(_ stream: HTTPByteStream) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 7_777)
        while case let n = try chunk.withUnsafeMutableBytes({ try stream.read(into: $0) }), n > 0 { received += chunk[0..<n] }
        return received
    }

    @Test func manyDownloadsGoThroughOneHelper() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sizes = [0, 1, 2, 4_095, 16_384, 16_385, 300_000, 2_000_000]
        for (index, size) in sizes.enumerated() { try Data(Self.body(size, seed: UInt64(index + 1))).write(to: dir.appending("b\(index)")) }
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let session = DownloadSession(timeout: 30)
        var helpers: Set<pid_t> = []
        for round in 0..<2 {
            for (index, size) in sizes.enumerated() {
                let url = try #require(URL(string: "\(server.baseURL)/file/b\(index)"))
                let stream = try HTTPByteStream(url: url, session: session)
                #expect(stream.statusCode == 200)
                #expect(try Self.readAll(stream) == Self.body(size, seed: UInt64(index + 1)), "round \(round), \(size) bytes")
                stream.close()
                helpers.formUnion([session.helperProcessID].compactMap { $0 })
            }
            // A gzip-encoded answer, an empty one (204, closed unread as a fetch does) and an error
            // status (whose body is read for its reason) in between.
            let encoded = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/gzip/b6")), session: session)
            #expect(try Self.readAll(encoded) == Self.body(300_000, seed: 7))
            let empty = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/empty/window")), session: session)
            #expect(empty.statusCode == 204)
            empty.close()
            #expect(throws: FeedError.self) { try HTTPByteStream(url: URL(string: "\(server.baseURL)/nothing/here")!, session: session) }
        }
        #expect(helpers.count == 1, "one helper for every download, got \(helpers.sorted())")
    }

    @Test func aBodyLeftUnreadOrAHelperKilledStartsAnother() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let big = Self.body(3_000_000, seed: 9), small = Self.body(10_000, seed: 10)
        try Data(big).write(to: dir.appending("big"))
        try Data(small).write(to: dir.appending("small"))
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let session = DownloadSession(timeout: 30)
        let bigURL = try #require(URL(string: "\(server.baseURL)/file/big"))
        let smallURL = try #require(URL(string: "\(server.baseURL)/file/small"))

        // Left after its first bytes: the helper is stopped, the next download gets a new one.
        let partial = try HTTPByteStream(url: bigURL, session: session)
        var chunk = [UInt8](repeating: 0, count: 1_000)
        _ = try chunk.withUnsafeMutableBytes { try partial.read(into: $0) }
        let first = try #require(session.helperProcessID)
        partial.close()
        #expect(try Self.readAll(try HTTPByteStream(url: smallURL, session: session)) == small)
        let second = try #require(session.helperProcessID)
        #expect(second != first)

        // Killed from outside between downloads (perhaps still exiting when the request goes
        // out): the next download starts a helper of its own.
        kill(second, SIGKILL)
        #expect(eventually(timeout: 10) { ChildProcess.isGone(second) })
        #expect(try Self.readAll(try HTTPByteStream(url: bigURL, session: session)) == big)

        // Killed mid-body: the read fails (the fetch asks for the window again), then all is well.
        let broken = try HTTPByteStream(url: bigURL, session: session)
        _ = try chunk.withUnsafeMutableBytes { try broken.read(into: $0) }
        kill(try #require(session.helperProcessID), SIGKILL)
        #expect(throws: (any Error).self) { _ = try Self.readAll(broken) }
        #expect(try Self.readAll(try HTTPByteStream(url: smallURL, session: session)) == small)
    }

    /// A service that keeps its connection open serves every download of a session over one
    /// connection, and the limits still count each answer alone: a bomb after three kept-alive
    /// downloads is stopped as the first download of a helper would be.
    @Test func downloadsShareAKeptAliveConnectionAndTheLimitsStillHold() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let body = Self.body(200_000, seed: 11)
        try Data(body).write(to: dir.appending("k"))
        let log = dir.appending("server.log")
        let server = try LocalHTTPServer(hostileIn: dir.url, log: log.path)
        defer { server.stop() }
        let session = DownloadSession(timeout: 30)
        for mode in ["keep", "keep-gzip", "keep"] {
            let stream = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/\(mode)/k")), session: session)
            #expect(try Self.readAll(stream) == body, "\(mode)")
        }
        let ports = Set(((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.hasPrefix("keep ") }.map { $0.split(separator: " ")[1] })
        #expect(ports.count == 1, "one connection for the three downloads, got ports \(ports.sorted())")
        let bomb = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/gzip-bomb/feed.geojson")), session: session)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let error = #expect(throws: (any Error).self) {
            while case let n = try chunk.withUnsafeMutableBytes({ try bomb.read(into: $0) }), n > 0 {}
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("decompression bomb"))
    }

    /// A single download (no session) leaves no helper behind once its body is read.
    @Test func aSingleDownloadsHelperExitsAfterItsBody() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Larger than a pipe holds: the helper is still writing it when we look for it.
        try Data(Self.body(2_000_000, seed: 3)).write(to: dir.appending("one"))
        let server = try LocalHTTPServer(hostileIn: dir.url)
        defer { server.stop() }
        let stream = try HTTPByteStream(url: try #require(URL(string: "\(server.baseURL)/file/one")))
        let helper = stream.helperProcessID
        #expect(try Self.readAll(stream) == Self.body(2_000_000, seed: 3))
        #expect(ChildProcess.isGone(helper))
    }
}
