import Testing
@testable import QuakeModel

/// The statistics sum one seismic moment a quake through `SeismicMoment.Memo`: it must give
/// `newtonMetres(magnitude:)` bit for bit, whatever the slots hold before.
@Suite struct SeismicMomentMemoTests {
    @Test func theMemoGivesEveryMomentBitForBit() {
        var memo = SeismicMoment.Memo()
        var generator = SystemRandomNumberGenerator()
        // Catalogue-like magnitudes (two decimals, repeating) and arbitrary ones, in turn, so
        // that slots are filled, met again and taken over by other magnitudes.
        let magnitudes = (0..<200_000).map { i in
            i % 2 == 0 ? Double(Int.random(in: -200...950, using: &generator)) / 100
                       : Double.random(in: -5...10, using: &generator)
        } + [0, -0.0, 10, -5, 1e-300, 5.55]
        let differing = (magnitudes + magnitudes.reversed()).filter { magnitude in
            memo.newtonMetres(magnitude: magnitude).bitPattern != SeismicMoment.newtonMetres(magnitude: magnitude).bitPattern
        }
        #expect(differing.isEmpty)
    }
}
