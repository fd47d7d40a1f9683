import Foundation
import QuakeModel
@testable import QuakeTUI
import Testing

/// The detail's Magnitude line shows the value every test of a magnitude tests (`MagnitudeBin`)
/// and, where the catalogue gave more digits, those digits beside it.
@Suite struct MagnitudeShownTests {
    static func magnitudeLine(_ magnitude: Double?) -> String? {
        var record = Fixtures.record
        record.magnitude = magnitude
        record.magType = "ml"
        return DetailView.fields(record, hasNotes: false, display: Fixtures.display).first { $0.0 == "Magnitude" }?.1
    }

    @Test func theDetailGivesTheCataloguesDigitsWhereTheyDiffer() {
        #expect(Self.magnitudeLine(2.96) == "3.0 ml  (reported 2.96)")
        #expect(Self.magnitudeLine(2.25) == "2.3 ml  (reported 2.25)")
        #expect(Self.magnitudeLine(3.0) == "3.0 ml")
        #expect(Self.magnitudeLine(-0.4) == "-0.4 ml")
        #expect(Self.magnitudeLine(nil) == "— ml")
    }

    /// A depth of -0.01 km (the feeds' above-sea-level depths) shows `0.0 km`, not `-0.0 km`.
    @Test func aDepthThatRoundsToZeroHasNoSign() {
        #expect(QuakeFormat.depth(kilometres: -0.01, unit: .km) == "0.0 km")
        #expect(QuakeFormat.depth(kilometres: -0.01, unit: .mi) == "0.0 mi")
        #expect(QuakeFormat.depth(kilometres: -0.06, unit: .km) == "-0.1 km")
    }
}
