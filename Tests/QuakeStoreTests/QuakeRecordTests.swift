import Testing
import QuakeModel
import QuakeStore

@Suite struct QuakeRecordTests {
    @Test(arguments: [
        ("105 km WNW of Höfn, Iceland", "Iceland"),
        ("Fiji region", "Fiji"),            // grouped (README "Region sections"): the trailing "region" goes
        ("5km N of A, B, CA ", "California"),
        ("", "Unknown"),
        ("trailing comma,", "Unknown"),
        ("1 km S of X,\tPerú\t", "Perú"),
        ("2 km E of Y, Ísland", "Ísland"),
        ("3 km W of Z,\u{00A0}Chile\u{2003}", "Chile"),
        ("   ", "Unknown"),
        ("a,\u{00A0}", "Unknown"),
    ])
    func regionIsTheLastCommaSeparatedPartGrouped(place: String, region: String) {
        #expect(QuakeRecord.region(ofPlace: place) == region)
    }
}
