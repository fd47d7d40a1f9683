import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

@Suite struct UserActivityTests {
    @Test(arguments: [
        ("us7000abcd", "us7000abcd"),
        ("  CI40123456 ", "ci40123456"),
        ("usp000h60h", "usp000h60h"),
        ("https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd", "us7000abcd"),
        ("https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd/executive", "us7000abcd"),
        ("https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd/", "us7000abcd"),
        ("https://earthquake.usgs.gov/earthquakes/eventpage/nc73456789/map?x=1#tab", "nc73456789"),
        ("https://earthquake.usgs.gov/earthquakes/eventpage/ak0234abcd#executive", "ak0234abcd"),
        ("http://EARTHQUAKE.USGS.GOV/earthquakes/eventpage/hv73000001?source=feed", "hv73000001"),
    ])
    func codesAndEventURLsReduceToTheCode(_ argument: String, _ code: String) throws {
        #expect(try QuakeCode.parse(argument) == code)
    }

    /// Every code the importer stores opens (issue 30): an agency's code keeps its id as
    /// stored (ids are case-sensitive), the agency lowercased as the importer writes it.
    @Test(arguments: [
        ("iris:958596", "iris:958596"),
        ("emsc:20240101_0000123", "emsc:20240101_0000123"),
        ("local:C201303010329A", "local:C201303010329A"),
        (" GEOFON:gfz2024abcd ", "geofon:gfz2024abcd"),
        ("example.org:2016p858000", "example.org:2016p858000"),
        ("isc-x:ev=1", "isc-x:ev=1"),
    ])
    func agencyCodesOpenAsStored(_ argument: String, _ code: String) throws {
        #expect(try QuakeCode.parse(argument) == code)
    }

    @Test func anyOtherCodeOpensWhenTheStoreHoldsIt() throws {
        #expect(try QuakeCode.parse(" 12345 ", isStored: { $0 == "12345" }) == "12345")
        #expect(throws: QuakeScenesError.self) { try QuakeCode.parse("12345") }
        #expect(throws: QuakeScenesError.self) { try QuakeCode.parse("12 345", isStored: { _ in true }) }
    }

    @Test(arguments: [
        "", "hello", "us", "us-7000", "7000abcd", "usabcdef", "../../etc/passwd", "us7000abcd; rm",
        "https://example.com/earthquakes/eventpage/us7000abcd",
        "https://earthquake.usgs.gov/earthquakes/map/",
        "https://earthquake.usgs.gov/earthquakes/eventpage/",
        "ftp://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd",
        String(repeating: "a1", count: 30),
        "iris:", ":958596", "iris:95 8596", "iris:958596\u{7}", "ftp://example.org/x", "http:x", "i ris:1",
    ])
    func anythingElseIsAUsageError(_ argument: String) {
        let error = #expect(throws: QuakeScenesError.self) { try QuakeCode.parse(argument) }
        #expect(error?.code == .invalidActivityTarget)
        #expect(error?.isUsageError == true)
        #expect(error?.description.contains("eventpage") == true)
    }

    @Test func advertisingRecordsTheActivitySceneAndTime() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let center = try ActivityCenter(state: state)
        let left = try SceneID(validating: "left")
        let when = Date(timeIntervalSince1970: 1_763_800_000)
        try center.advertise(.showQuake(code: "us7000abcd"), from: left, now: when)
        let current = try #require(center.mostRecent())
        #expect(current == UserActivity(type: "quaketui.showQuake", payload: ["code": "us7000abcd"], sceneID: left, date: when))
        #expect(current.quakeCode == "us7000abcd")
        // The top level of activity.plist is the most recent activity, readable by a person.
        let root = try #require(readPlist(state.activityPath))
        #expect(root["type"] == .string("quaketui.showQuake"))
        #expect(root["payload"] == .dictionary(["code": .string("us7000abcd")]))
        #expect(root["scene"] == .string("left"))
        #expect(root["date"] == .date(when))
    }

    @Test func handoffPicksTheMostRecentActivityOfAnotherScene() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let center = try ActivityCenter(state: state)
        let left = try SceneID(validating: "left")
        let right = try SceneID(validating: "right")
        #expect(center.mostRecent(excludingScene: left) == nil)
        try center.advertise(.showQuake(code: "us0000left"), from: left)
        #expect(center.mostRecent(excludingScene: left) == nil, "a scene never hands off to itself")
        try center.advertise(.showQuake(code: "us000right"), from: right)
        try center.advertise(.showQuake(code: "us00left02"), from: left)
        #expect(center.mostRecent(excludingScene: left)?.quakeCode == "us000right")
        #expect(center.mostRecent(excludingScene: right)?.quakeCode == "us00left02")
        #expect(center.mostRecent()?.quakeCode == "us00left02")
    }

    @Test func openSendsTheQuakeToTheSceneOnce() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let center = try ActivityCenter(state: state)
        let scene = try SceneID(validating: "left")
        let summary = try center.open("https://earthquake.usgs.gov/earthquakes/eventpage/us7000abcd/executive", in: scene)
        #expect(summary == OpenSummary(code: "us7000abcd", scene: scene, isOpen: false, pid: nil))
        #expect(try center.takeActivity(for: .main) == nil, "addressed to another scene")
        let taken = try #require(try center.takeActivity(for: scene))
        #expect(taken.quakeCode == "us7000abcd")
        #expect(try center.takeActivity(for: scene) == nil, "taken once")
    }

    @Test func openReportsALiveSceneAndItsPID() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let lease = try SceneLease.acquire(SceneIdentity(id: .main, source: .fallback), in: state)
        defer { lease.release() }
        let summary = try ActivityCenter(state: state).open("us7000abcd", in: .main)
        #expect(summary.isOpen)
        #expect(summary.pid == getpid())
        let json = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
        #expect(json.contains("\"scene\":\"main\""))
    }

    /// Delivered, and once: a second open arrives after the first with nothing in between. (The
    /// "within a second" of SPEC §4.3 is a timing figure, not something a loaded test machine
    /// can promise.)
    @Test func aRunningSceneReceivesAnOpenOnce() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let browser = try ActivityCenter(state: state)
        let received = Collected<UserActivity>()
        let token = browser.onActivity(for: .main) { received.append($0) }
        defer { token.cancel() }
        _ = try ActivityCenter(state: state).open("us7000abcd", in: .main)
        #expect(eventually(timeout: 20) { received.values.compactMap(\.quakeCode) == ["us7000abcd"] })
        _ = try ActivityCenter(state: state).open("us7000efgh", in: .main)
        #expect(eventually(timeout: 20) { received.values.compactMap(\.quakeCode).count >= 2 })
        #expect(received.values.compactMap(\.quakeCode) == ["us7000abcd", "us7000efgh"], "each delivered once")
    }

    @Test func anActivitySentBeforeLaunchIsDeliveredAtOnce() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        _ = try ActivityCenter(state: state).open("ci40123456", in: .main)
        let received = Collected<UserActivity>()
        let token = try ActivityCenter(state: state).onActivity(for: .main) { received.append($0) }
        defer { token.cancel() }
        #expect(eventually(timeout: 1) { received.values.compactMap(\.quakeCode) == ["ci40123456"] })
    }

    @Test func aCorruptActivityFileIsSetAsideAndReplaced() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try Data("{\"not\": \"a plist\"}".utf8).write(to: URL(fileURLWithPath: state.activityPath))
        let center = try ActivityCenter(state: state)
        #expect(center.mostRecent() == nil)
        try center.advertise(.showQuake(code: "us7000abcd"), from: .main)
        #expect(center.mostRecent()?.quakeCode == "us7000abcd")
        #expect(files(in: state.path, withPrefix: "activity.plist.corrupt-").count == 1)
    }

    @Test func backgroundAdvertisementsKeepTheLatest() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let center = try ActivityCenter(state: state)
        for n in 0..<50 {
            center.advertiseInBackground(.showQuake(code: "us\(7_000_000 + n)"), from: .main)
        }
        try center.flushAdvertisements()
        #expect(center.mostRecent()?.quakeCode == "us7000049")
        #expect(center.mostRecent()?.sceneID == .main)
    }
}
