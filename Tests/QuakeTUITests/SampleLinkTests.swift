import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// The bundled sample's quakes are invented (tools/sample-catalogue): they have no USGS event
/// page, so `o` says so instead of opening a dead link, and the detail shows no link (issue 31).
/// A store made before the sample dropped its links still holds them: the code decides.
@Suite struct SampleLinkTests {
    static let time = PureUpdateTests.time
    /// A sample quake as stores made from the older sample hold it: with a link that leads nowhere.
    static let sample = QuakeRecord(code: "sample00775", magnitude: 4.4, place: "83 km WNW of Sinabang, Indonesia",
                                    time: 0, updated: 0, latitude: 2.89, longitude: 95.76,
                                    url: "https://earthquake.usgs.gov/earthquakes/eventpage/sample00775")

    @Test func oOnASampleQuakeSaysItHasNoEventPage() {
        var state = PureUpdateTests.start()
        var expected = state
        let effects = state.update(.quakeRead(code: "sample00775", StoredQuake(id: 1, record: Self.sample, notes: nil), for: .openPage),
                                   at: Self.time)
        #expect(effects == [])
        expected.status.message = "sample00775 is a sample quake: no event page"
        expected.messageLog.append(expected.status.message!, isError: false, at: state.now)
        #expect(state == expected)
    }

    @Test func yOnASampleQuakeCopiesItsCodeNotTheDeadLink() {
        var state = PureUpdateTests.start()
        let effects = state.update(.quakeRead(code: "sample00775", StoredQuake(id: 1, record: Self.sample, notes: nil), for: .copyPage),
                                   at: Self.time)
        #expect(effects == [.copyToClipboard("sample00775")])
    }

    @Test func aRealQuakesPageIsStillOpened() {
        var state = PureUpdateTests.start()
        var real = Self.sample
        real.code = "us6000rka0"
        real.url = "https://earthquake.usgs.gov/earthquakes/eventpage/us6000rka0"
        let effects = state.update(.quakeRead(code: real.code, StoredQuake(id: 1, record: real, notes: nil), for: .openPage), at: Self.time)
        #expect(effects == [.openURL("https://earthquake.usgs.gov/earthquakes/eventpage/us6000rka0")])
    }

    @Test func theDetailOfASampleQuakeShowsNoLink() {
        let fields = DetailView.fields(Self.sample, hasNotes: false, display: Fixtures.display)
        let url = fields.first { $0.0 == "URL" }
        #expect(url?.1 == "none: a sample quake, not real data")
        #expect(!fields.contains { $0.1.contains("eventpage") })
    }
}
