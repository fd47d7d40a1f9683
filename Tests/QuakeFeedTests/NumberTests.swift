import Foundation
import Testing
@testable import QuakeFeed
import QuakeTestSupport

@Suite struct NumberTests {
    static func parse(_ text: String) -> JSONNumber? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { parseJSONNumber($0.baseAddress!, $0.count) }
    }

    @Test(arguments: ["0", "-0", "7", "-1.64", "1563504733590", "37.167667388916", "-121.75633239746094",
                      "-1.98000001907349", "1e3", "2.5E-3", "-0.7581787108999999", "9007199254740993",
                      "123456789012345678901234567890", "0.000001", "1.7976931348623157e308", "5e-324",
                      "20.4836", "-66.9176", "0.35"])
    func decimalsAreCorrectlyRounded(_ text: String) throws {
        let number = try #require(Self.parse(text))
        #expect(number.double == Double(text)!)
    }

    @Test func randomDecimalsMatchTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...18, using: &generator)
            var text = Int.random(in: 0...1, using: &generator) == 0 ? "-" : ""
            text += String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &generator)) }
            let point = Int.random(in: 0...digits, using: &generator)
            if point > 0 && point < digits {
                text.insert(".", at: text.index(text.endIndex, offsetBy: -point))
            }
            if Int.random(in: 0...3, using: &generator) == 0 { text += "e\(Int.random(in: -30...30, using: &generator))" }
            #expect(Self.parse(text)?.double == Double(text), "\(text)")
        }
    }

    @Test func integersAreExact() {
        #expect(Self.parse("1563504733590")?.integer == 1_563_504_733_590)
        #expect(Self.parse("-42")?.integer == -42)
        #expect(Self.parse("9223372036854775807")?.integer == Int64.max)
        #expect(Self.parse("9223372036854775808")?.integer == nil)
        #expect(Self.parse("1.0")?.integer == nil)
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1.2.3", "--1", "1-2", "0x10"])
    func malformedLiteralsAreRejected(_ text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test func hugeExponentsOverflowToInfinity() {
        #expect(Self.parse("1e400")?.double == .infinity)
        #expect(Self.parse("-1e400")?.double == -.infinity)
        #expect(Self.parse("1e-400")?.double == 0)
    }

    /// Every magnitude literal in a real feed reads exactly as `Double(String)` reads it.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/usgs"))
    func realMagnitudesAreExact() throws {
        let url = SharedData.url("all_week-2023-04-17.geojson")
        let text = try String(contentsOf: url, encoding: .utf8)
        let regex = try NSRegularExpression(pattern: #""mag":(-?[0-9][0-9.eE+-]*)"#)
        let literals = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
        let records = try FeedReader(path: url.path).readAll()
        #expect(literals.count == records.count)
        for (literal, record) in zip(literals, records) {
            #expect(record.magnitude == Double(literal), "\(literal)")
        }
    }

    @Test(arguments: [
        ("2019-07-19T02:52:13.590Z", Int64(1_563_504_733_590)),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1921-12-18T15:29:20.000Z", -1_515_918_640_000),
        ("2000-02-29T12:00:00Z", 951_825_600_000),
        ("2019-07-19T02:52:13.5Z", 1_563_504_733_500),
        ("2019-07-19T04:52:13.590+02:00", 1_563_504_733_590),
        ("2019-07-19 02:52:13.590", 1_563_504_733_590),
    ])
    func iso8601TimesParseByHand(_ text: String, _ expected: Int64) {
        let bytes = Array(text.utf8)
        let ms = bytes.withUnsafeBufferPointer { parseISO8601Milliseconds($0.baseAddress!, $0.count) }
        #expect(ms == expected)
        if text.hasSuffix("Z"), !text.hasSuffix(".5Z") {
            #expect(ms == IndependentParse.isoMilliseconds(text))
        }
    }

    @Test(arguments: ["", "2019-07-19", "2019-13-01T00:00:00Z", "2019-07-19T02:52:13.Z", "yesterday",
                      "2019-07-19T02:52:13.590Zjunk"])
    func badTimesAreRejected(_ text: String) {
        let bytes = Array(text.utf8) + [0]
        let ms = bytes.withUnsafeBufferPointer { parseISO8601Milliseconds($0.baseAddress!, bytes.count - 1) }
        #expect(ms == nil)
    }
}
