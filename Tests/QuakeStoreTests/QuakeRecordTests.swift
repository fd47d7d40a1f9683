import Testing
import QuakeStore

@Suite struct QuakeRecordTests {
    @Test(arguments: [
        ("105 km WNW of Höfn, Iceland", "Iceland"),
        ("Fiji region", "Fiji region"),
        ("5km N of A, B, CA ", "CA"),
        ("", "Unknown"),
        ("trailing comma,", "Unknown"),
    ])
    func regionIsTheLastCommaSeparatedPart(place: String, region: String) {
        #expect(QuakeRecord.region(ofPlace: place) == region)
    }
}
