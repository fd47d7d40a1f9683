import Foundation
import Testing
import QuakeFeed
import QuakeTestSupport

/// Random damage to valid inputs never crashes the reader: it yields records or a positioned error.
@Suite struct FuzzTests {
    static let seeds: [String] = [
        Feed.collection([
            Feed.feature(),
            Feed.feature(id: "\"b\"", properties: #""mag":null,"place":"H\u00f6fn \ud83c\udf0b","time":1,"sig":"4","x":[{"y":[1e5,-0.5,true]}]"#),
        ]),
        "eqfeed_callback(" + Feed.collection([Feed.feature()]) + ");\n0\n",
        "time,latitude,longitude,depth,mag,id,place\n2019-07-19T02:52:13.590Z,1,2,3,4.5,a,\"x, \"\"y\"\"\"\r\n",
    ]

    @Test(arguments: 0..<4)
    func damagedInputsFailCleanly(_ seedIndex: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seedIndex) &+ 42)  // SplitMix64, so failures reproduce
        let original: [UInt8]
        if seedIndex < Self.seeds.count {
            original = Array(Self.seeds[seedIndex].utf8)
        } else {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            original = try Feed.gzip(Array(Self.seeds[0].utf8), in: dir, name: "seed.geojson")
        }
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.removeSubrange(i..<min(bytes.count, i + Int.random(in: 1...8, using: &rng)))
                case 2: bytes.insert(contentsOf: bytes[i..<min(bytes.count, i + 6)], at: i)
                default: bytes.insert([0x22, 0x5C, 0x7B, 0x5B, 0x2C, 0x0A][Int.random(in: 0..<6, using: &rng)], at: i)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            let chunk = [1, 3, 4096][Int.random(in: 0..<3, using: &rng)]
            if let error = Feed.error(bytes, name: "fuzz", chunkSize: chunk) {
                #expect(error.line >= 1 && error.column >= 1, "\(error)")
                #expect(error.description.hasPrefix("fuzz:\(error.line):\(error.column): "), "\(error)")
            }
        }
    }
}
