import Foundation
import Testing
@testable import QuakeFeed

/// What the QuakeML reader keeps between events stays the same size however long the file:
/// the codes it remembers to refuse two events that would merge are the last few thousand,
/// not every code of the file (issue 33: 66 MB at 200,000 events, growing with the file).
struct QuakeMLMemoryTests {
    /// `count` BED events with distinct codes (`example.org:evN`), one minute apart.
    static func document(_ count: Int, repeating: (index: Int, as: Int)? = nil) -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <q:quakeml xmlns:q="http://quakeml.org/xmlns/quakeml/1.2" xmlns="http://quakeml.org/xmlns/bed/1.2">
            <eventParameters publicID="smi:example.org/catalog">

            """
        text.reserveCapacity(count * 330)
        for i in 0..<count {
            let id = repeating.map { $0.index == i ? $0.as : i } ?? i
            let time = Date(timeIntervalSince1970: 1_600_000_000 + Double(i) * 60).formatted(.iso8601)
            text += "<event publicID=\"smi:example.org/events/ev\(id)\"><origin publicID=\"smi:example.org/origins/o\(i)\">"
                + "<time><value>\(time)</value></time><latitude><value>\(Double(i % 170) - 85)</value></latitude>"
                + "<longitude><value>\(Double(i % 350) - 175)</value></longitude><depth><value>10000</value></depth></origin>"
                + "<magnitude publicID=\"smi:example.org/magnitudes/m\(i)\"><mag><value>4.5</value></mag><type>Mw</type></magnitude>"
                + "</event>\n"
        }
        return Array((text + "</eventParameters>\n</q:quakeml>\n").utf8)
    }

    static func parser(_ bytes: [UInt8], rememberedCodes: Int? = nil) -> QuakeMLParser {
        let input = ByteInput(name: "long.xml", stream: MemoryByteStream(bytes), chunkSize: FeedReader.defaultChunkSize,
                              maximumStringLength: FeedReader.maximumStringLength, maximumDepth: FeedReader.maximumNestingDepth)
        if let rememberedCodes { return QuakeMLParser(input: input, agency: nil, rememberedCodes: rememberedCodes) }
        return QuakeMLParser(input: input, agency: nil)
    }

    static func readAll(_ parser: QuakeMLParser) throws(FeedError) -> Int {
        var skips = SkipLog(limit: 10)
        var count = 0
        while try parser.next(skips: &skips) != nil { count += 1 }
        #expect(skips.count == 0)
        return count
    }

    /// A document longer than the reader remembers: at its end the map holds no more codes
    /// than at 32,768 events (before: one entry per event of the file).
    @Test func aLongDocumentKeepsABoundedMapOfCodes() throws {
        let events = 40_000
        let parser = Self.parser(Self.document(events))
        #expect(try Self.readAll(parser) == events)
        #expect(parser.seen.count <= 32_768, "\(parser.seen.count) codes kept after \(events) events")
        #expect(parser.seen.count == QuakeMLParser.defaultRememberedCodes)
    }

    /// The map is the newest codes: the oldest is forgotten first, whatever the length.
    @Test func theMapHoldsTheNewestCodes() throws {
        let parser = Self.parser(Self.document(1_000), rememberedCodes: 100)
        #expect(try Self.readAll(parser) == 1_000)
        #expect(parser.seen.count == 100)
        #expect(Set(parser.seen.keys) == Set((900..<1_000).map { "example.org:ev\($0)" }))
    }

    /// Two events with one code and different origins are still refused when the second
    /// comes while the first is remembered, in a file far longer than the map.
    @Test func aMergeWithinTheRememberedCodesIsStillRefused() throws {
        let parser = Self.parser(Self.document(1_000, repeating: (index: 598, as: 500)), rememberedCodes: 100)
        do {
            _ = try Self.readAll(parser)
            Issue.record("the file was read although events ev500 and the 599th share a code")
        } catch {
            #expect(error.code == .ambiguousCode)
            #expect(error.message.hasPrefix("the events at lines 504 and 602 both get the code example.org:ev500"), "\(error.message)")
        }
    }
}
