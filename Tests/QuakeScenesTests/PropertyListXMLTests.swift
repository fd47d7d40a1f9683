import Foundation
import Testing
@testable import QuakeScenes

/// The scene writer (`PropertyListItem.xmlData(for:)`) against Foundation's: the same bytes for
/// seeded random trees of every kind it writes itself, and Foundation reads each back unchanged.
@Suite struct PropertyListXMLTests {
    private static func foundationXML(_ root: [String: PropertyListItem]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: root.mapValues(\.foundationValue), format: .xml, options: 0)
    }

    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        static let pieces = ["a", "Z", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{1}", "\u{7f}", "é", "ß", "🌋",
                             "]]>", "&amp;", "M 4.5 - 10 km SSW of Ōtsuchi, Japan", "ContentView.", "", "\u{FEFF}"]

        mutating func text() -> String { (0..<next(6)).map { _ in Self.pieces[next(Self.pieces.count)] }.joined() }

        mutating func item(depth: Int) -> PropertyListItem {
            switch next(depth > 2 ? 4 : 6) {
            case 0: return .string(text())
            case 1: return .bool(next(2) == 0)
            case 2: return .int([0, 1, -1, Int.max, Int.min, 42, -123_456_789][next(7)])
            case 3:
                // Whole and fractional seconds, before and after 1970 and 2001.
                let seconds = [0, 0.5, -0.5, -86_400.25, 978_307_200, 1_795_000_000.999, -2_208_988_800, 1e10][next(8)]
                return .date(Date(timeIntervalSince1970: seconds))
            case 4: return .array((0..<next(4)).map { _ in item(depth: depth + 1) })
            default: return .dictionary(dictionary(depth: depth + 1))
            }
        }

        mutating func dictionary(depth: Int) -> [String: PropertyListItem] {
            var result: [String: PropertyListItem] = [:]
            for _ in 0..<next(5) { result[text()] = item(depth: depth) }
            return result
        }
    }

    @Test(arguments: 0..<200)
    func writesWhatFoundationWrites(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &+ 0x9E37_79B9)
        let root = generator.dictionary(depth: 0)
        let ours = try PropertyListItem.xmlData(for: root)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: try Self.foundationXML(root), as: UTF8.self))
        let back = try #require(PropertyListItem.rootDictionary(from: ours))
        let expected = PropertyListItem.rootDictionary(from: try Self.foundationXML(root))
        #expect(back == expected)
    }

    @Test func aSceneLikeTheBrowsersIsWrittenAsFoundationWritesIt() throws {
        let log = (0..<60).map { i in
            PropertyListItem.dictionary(["isError": .bool(i % 3 == 0), "text": .string("Refresh of all_month failed: <\(i)> & more"),
                                         "time": .date(Date(timeIntervalSince1970: 1_795_000_000 + Double(i) * 61.7))])
        }
        let root: [String: PropertyListItem] = [
            "ContentView.messageLog": .array(log), "ContentView.collapsedSections": .array([]),
            "ContentView.selectedQuake": .string("us7000abcd"), "ContentView.selectionLine": .int(12),
            "EditView.draft": .dictionary([:]), "DetailView.isPresented": .bool(true),
        ]
        #expect(try PropertyListItem.xmlData(for: root) == (try Self.foundationXML(root)))
    }

    @Test func realsAndDataAreWrittenByFoundation() throws {
        let root: [String: PropertyListItem] = ["home": .dictionary(["latitude": .double(-0.0), "longitude": .double(0.1)]),
                                                "blob": .data(Data(repeating: 7, count: 100)), "name": .string("x")]
        #expect(try PropertyListItem.xmlData(for: root) == (try Self.foundationXML(root)))
    }
}
