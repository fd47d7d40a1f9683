import QuakeModel
import Testing

/// A magnitude bin's label in `stats`' table (`MagnitudeBin.rangeText`): `-5.05–-4.95` read as
/// a range of dashes.
@Suite struct MagnitudeBinLabelTests {
    /// Magnitude bins below zero read as numbers, one formatter for every table.
    @Test func negativeMagnitudeBinsReadAsNumbers() {
        #expect(MagnitudeBin.rangeText(from: 4.45, to: 4.55) == "4.45–4.55")
        #expect(MagnitudeBin.rangeText(from: -5.05, to: -4.95) == "−5.05 to −4.95")
        #expect(MagnitudeBin.rangeText(from: -0.05, to: 0.05) == "−0.05 to 0.05")
        #expect(MagnitudeBin.rangeText(from: 0.05, to: 0.15) == "0.05–0.15")
    }
}
