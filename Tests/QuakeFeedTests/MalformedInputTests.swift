import Foundation
import Testing
import QuakeFeed
import QuakeTestSupport

/// Broken inputs: each gives a FeedError with a code, a position and a full sentence.
@Suite struct MalformedInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var text: String
        var code: FeedError.Code
        var line: Int
        var column: Int
        var says: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "bad token", text: "{\"type\":\"FeatureCollection\",\n\"features\":[@]}", code: .syntax,
             line: 2, column: 13, says: "expected a value, found '@'"),
        Case(label: "missing comma", text: "{\"features\":[{\"id\":\"a\" \"x\":1}]}", code: .syntax,
             line: 1, column: 24, says: "expected ',' or '}' in a feature, found '\"'"),
        Case(label: "unterminated string", text: "{\"features\":[{\"id\":\"abc", code: .unexpectedEnd,
             line: 1, column: 24, says: "unexpected end of input inside a string; the file looks truncated"),
        Case(label: "truncated after a value", text: "{\"features\":[{\"id\":\"abc\"}\n", code: .unexpectedEnd,
             line: 2, column: 1, says: "unexpected end of input in the \"features\" array"),
        Case(label: "features is not an array", text: "{\"type\":\"FeatureCollection\",\"features\":{}}",
             code: .notFeatureCollection, line: 1, column: 40, says: "\"features\" is not an array"),
        Case(label: "no features", text: "{\"type\":\"Feature\",\"id\":\"x\"}", code: .notFeatureCollection,
             line: 1, column: 27, says: "no \"features\" array"),
        Case(label: "top-level array", text: "[{\"id\":\"x\"}]", code: .unknownFormat, line: 1, column: 1,
             says: "starts with '['"),
        Case(label: "empty file", text: "", code: .emptyInput, line: 1, column: 1, says: "the input is empty"),
        Case(label: "only whitespace", text: "\n\n   ", code: .emptyInput, line: 3, column: 4, says: "the input is empty"),
        Case(label: "binary garbage", text: "\u{89}PNG\r\n\u{1A}\n", code: .unknownFormat, line: 1, column: 1,
             says: "starts with byte 0xC2"),
        Case(label: "HTML error page", text: "<!DOCTYPE html><html>", code: .unknownFormat, line: 1, column: 1,
             says: "this is an HTML page (a Wi-Fi login page or a server's error page?), not a catalogue; nothing was changed"),
        Case(label: "QuakeML tag with '=' where an attribute name belongs",
             text: "<q:quakeml xmlns:q=\"http://quakeml.org/xmlns/quakeml/1.2\">\n<eventParameters =\"x\">", code: .syntax,
             line: 2, column: 18, says: "expected an attribute name or '>', found '='"),
        Case(label: "lone high surrogate", text: "{\"features\":[{\"id\":\"a\\uD83Dx\"}]}", code: .invalidString,
             line: 1, column: 22, says: "lone UTF-16 high surrogate \\uD83D"),
        Case(label: "lone low surrogate", text: "{\"features\":[{\"id\":\"a\\uDE00\"}]}", code: .invalidString,
             line: 1, column: 22, says: "lone UTF-16 low surrogate \\uDE00"),
        Case(label: "bad escape", text: "{\"features\":[{\"id\":\"a\\x\"}]}", code: .invalidString,
             line: 1, column: 22, says: "invalid escape sequence '\\x'"),
        Case(label: "bad hex", text: "{\"features\":[{\"id\":\"a\\u12G4\"}]}", code: .invalidString,
             line: 1, column: 22, says: "'G' is not a hex digit"),
        Case(label: "control character in a string", text: "{\"features\":[{\"id\":\"a\u{01}b\"}]}",
             code: .invalidString, line: 1, column: 22, says: "control character byte 0x01 inside a string"),
        Case(label: "newline in a string", text: "{\"features\":[{\"id\":\"ab\n\"}]}", code: .invalidString,
             line: 1, column: 23, says: "control character a newline inside a string"),
        Case(label: "bad number", text: "{\"features\":[{\"properties\":{\"mag\":1.2.3}}]}", code: .invalidNumber,
             line: 1, column: 35, says: "invalid number '1.2.3'"),
        Case(label: "leading zero", text: "{\"features\":[{\"properties\":{\"mag\":012}}]}", code: .invalidNumber,
             line: 1, column: 35, says: "invalid number '012'"),
        Case(label: "bad literal", text: "{\"features\":[{\"properties\":{\"mag\":nul}}]}", code: .syntax,
             line: 1, column: 35, says: "invalid literal: expected 'null'"),
        Case(label: "trailing comma", text: "{\"features\":[{\"id\":\"a\"},]}", code: .syntax,
             line: 1, column: 25, says: "expected a value, found ']'"),
        Case(label: "garbage after the document", text: "{\"features\":[]}\nnull", code: .syntax,
             line: 2, column: 1, says: "unexpected 'n' after the end of the FeatureCollection"),
        Case(label: "JSONP without parenthesis", text: "eqfeed_callback {\"features\":[]}", code: .unknownFormat,
             line: 1, column: 1, says: "neither a JSONP callback nor a CSV header"),
        Case(label: "JSONP not closed", text: "eqfeed_callback({\"features\":[]};", code: .syntax,
             line: 1, column: 32, says: "expected ')' closing the JSONP callback, found ';'"),
        Case(label: "JSONP followed by a second callback",
             text: "eqfeed_callback({\"features\":[]});eqfeed_callback({\"features\":[]});", code: .syntax,
             line: 1, column: 34, says: "unexpected 'e' after the JSONP callback's closing ')'"),
        Case(label: "JSONP followed by garbage", text: "eqfeed_callback({\"features\":[]})\n]}", code: .syntax,
             line: 2, column: 1, says: "unexpected ']' after the JSONP callback's closing ')'"),
        Case(label: "JSONP chunk marker followed by more", text: "eqfeed_callback({\"features\":[]});\n0\n1", code: .syntax,
             line: 3, column: 1, says: "unexpected '1' after the JSONP callback's closing ')'"),
        Case(label: "JSONP with a number other than the chunk marker", text: "eqfeed_callback({\"features\":[]});\n07\n",
             code: .syntax, line: 2, column: 2, says: "unexpected '7' after the JSONP callback's closing ')'"),
        Case(label: "a Markdown file", text: "# Notes\n\nThis is *not* a catalogue | nor a table.\n", code: .unknownFormat,
             line: 1, column: 1, says: "the input starts with '# Notes', a line without the '|' columns of FDSN text, and is none of the formats"),
        Case(label: "FDSN text without the columns it needs", text: "#Id|When|Where\n1|2|3\n", code: .missingColumns,
             line: 1, column: 1, says: "the FDSN text header has no"),
        Case(label: "CSV without id column", text: "time,latitude,longitude\n2019-07-19T02:52:13.590Z,1,2\n",
             code: .missingColumns, line: 1, column: 1, says: "the CSV header has no \"id\" column"),
        Case(label: "CSV unterminated quote", text: "time,latitude,longitude,id,place\n2019-07-19T02:52:13.590Z,1,2,x,\"Somewhere, CA\n",
             code: .unexpectedEnd, line: 3, column: 1, says: "unexpected end of input inside a quoted CSV field"),
        Case(label: "CSV junk after quote", text: "time,latitude,longitude,id,place\n2019-07-19T02:52:13.590Z,1,2,x,\"A\"B\n",
             code: .syntax, line: 2, column: 35, says: "expected ',' or the end of the line after a closing quote, found 'B'"),
    ]

    @Test(arguments: cases)
    func brokenInputFailsWithAPosition(_ c: Case) throws {
        for chunkSize in [FeedReader.defaultChunkSize, 1, 3] {
            let error = try #require(Feed.error(c.text, name: "bad.geojson", chunkSize: chunkSize), "\(c.label)")
            #expect(error.code == c.code, "\(c.label) (chunk \(chunkSize)): \(error)")
            #expect(error.line == c.line && error.column == c.column, "\(c.label) (chunk \(chunkSize)): \(error)")
            #expect(error.description.contains(c.says), "\(c.label): \(error)")
            #expect(error.description.hasPrefix("bad.geojson:\(c.line):\(c.column): "), "\(error)")
            #expect(error.description.hasSuffix("."))
        }
    }

    @Test func deeplyNestedGarbageIsAnErrorNotACrash() throws {
        let depth = 200_000
        let text = "{\"features\":[{\"properties\":{\"x\":" + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}}]}"
        let error = try #require(Feed.error(text))
        #expect(error.code == .nestingTooDeep)
        // The prefix is 32 bytes; the 513th `[` is the one too deep.
        #expect(error.column == 32 + FeedReader.maximumNestingDepth + 1)
        #expect(error.description.contains("nested more than 512 deep"))
        // Just under the limit is fine.
        let ok = FeedReader.maximumNestingDepth
        let fine = Feed.collection([Feed.feature(properties: Feed.defaultProperties + ",\"x\":"
            + String(repeating: "[{\"a\":", count: ok / 2) + "1" + String(repeating: "}]", count: ok / 2))])
        #expect(try Feed.read(fine).count == 1)
    }

    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00], "starts with byte 0x89"),  // PNG
        ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], "starts with 'PK' but is neither"),               // zip
        ([0x00, 0x00, 0x00, 0x00], "starts with byte 0x00"),
        ([0xFF, 0xD8, 0xFF, 0xE0], "starts with byte 0xFF"),                                    // a JPEG
    ] as [([UInt8], String)])
    func binaryGarbageIsAnUnknownFormat(_ bytes: [UInt8], _ says: String) throws {
        let error = try #require(Feed.error(bytes, name: "junk.bin"))
        #expect(error.code == .unknownFormat)
        #expect(error.line == 1 && error.column == 1)
        #expect(error.description.contains(says), "\(error)")
        #expect(error.description.hasSuffix("or one of those gzip-compressed."))
    }

    /// What may follow a JSONP callback's `)`: whitespace, one `;`, and the `0` line that ends an
    /// HTTP chunked body saved with it (the legacy 2012 feed ends `);\n0\n`). Anything else is refused.
    @Test(arguments: [")", ");", ");\n", ")\r\n;\r\n", ");\n0\n", ");\r\n0\r\n\r\n", ")\n0"])
    func jsonpEndingsThatAreNotGarbageAreAccepted(_ ending: String) throws {
        let text = "eqfeed_callback(" + Feed.collection([Feed.feature()]) + ending
        for chunkSize in [FeedReader.defaultChunkSize, 1, 3] {
            #expect(try Feed.read(text, chunkSize: chunkSize).count == 1)
        }
    }

    @Test func binaryBytesInsideADocumentAreASyntaxError() throws {
        let bytes = Array(#"{"features":[{"id":"a"},"#.utf8) + [0x00, 0xFF] + Array("]}".utf8)
        let error = try #require(Feed.error(bytes))
        #expect(error.code == .syntax)
        #expect(error.column == 25)
        #expect(error.description.contains("expected a value, found byte 0x00"))
    }

    @Test func missingFileCannotBeOpened() {
        let error = #expect(throws: FeedError.self) { try FeedReader(path: "/nonexistent/all_month.geojson") }
        #expect(error?.code == .cannotOpen)
        #expect(error?.description == "/nonexistent/all_month.geojson: cannot open the file: No such file or directory; check the path.")
    }

    @Test func directoryCannotBeOpened() {
        let error = #expect(throws: FeedError.self) { try FeedReader(path: "/tmp") }
        #expect(error?.code == .cannotOpen)
    }

    struct Failing: Error, CustomStringConvertible {
        var description: String { "connection reset by peer" }
    }

    @Test func aStreamThatFailsMidwayReportsWhereItStopped() throws {
        let text = Array(Feed.collection([Feed.feature(), Feed.feature(id: "\"us2\"")]).utf8)
        var served = 0
        let source = FeedSource.reading { buffer in
            // Serve the first 150 bytes, then fail like a dropped connection.
            if served == 150 { throw Failing() }
            let n = min(buffer.count, 150 - served)
            buffer.copyBytes(from: text[served..<(served + n)])
            served += n
            return n
        }
        let reader = try FeedReader(source: source, name: "https://example.org/feed.geojson", chunkSize: 4096)
        let error = #expect(throws: FeedError.self) { _ = try reader.readAll() }
        #expect(error?.code == .readFailed)
        #expect(error?.column == 151)
        #expect(error?.description.contains("https://example.org/feed.geojson:1:151: read failed: connection reset by peer") == true)
        #expect(error?.underlyingError is Failing)
    }
}
