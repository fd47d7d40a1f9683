import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

/// One value type's round trip through a scene file and a fresh `SceneStorage`.
struct RoundTrip: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let run: @Sendable (StateDirectory) throws -> Bool

    init<V: PropertyListStorable & Equatable>(_ name: String, _ value: V, default defaultValue: V) {
        testDescription = name
        run = { state in
            let key = SceneKey<V>("Test.\(name)", default: defaultValue)
            let writer = try SceneStorage(state: state, scene: .main, restoring: false)
            #expect(writer.value(for: key) == defaultValue)
            try writer.set(value, for: key)
            #expect(writer.value(for: key) == value)
            try writer.flush()
            let reader = try SceneStorage(state: state, scene: .main, restoring: false)
            return reader.value(for: key) == value && reader.takeNotice() == nil
        }
    }
}

@Suite struct SceneStorageTests {
    static let wholeSecond = Date(timeIntervalSince1970: 1_763_800_000)

    static let roundTrips: [RoundTrip] = [
        RoundTrip("String", "105 km WNW of Höfn, Iceland — <b>&amp;</b> 🌋", default: ""),
        RoundTrip("empty String", "", default: "x"),
        RoundTrip("Bool true", true, default: false),
        RoundTrip("Bool false", false, default: true),
        RoundTrip("Int", -42, default: 0),
        RoundTrip("Int.max", Int.max, default: 0),
        RoundTrip("Double", 6.25, default: 0),
        RoundTrip("tiny Double", -1.5e-300, default: 0),
        RoundTrip("Date", wholeSecond, default: Date(timeIntervalSince1970: 0)),
        RoundTrip("Data", Data([0, 1, 2, 255, 10, 13, 60]), default: Data()),
        RoundTrip("[String]", ["2026-11-21", "M 6+", ""], default: []),
        RoundTrip("[Int]", [3, -1, 0], default: []),
        RoundTrip("[Double]", [0.5, 7.0], default: []),
        RoundTrip("[Bool]", [true, false], default: []),
        RoundTrip("[Date]", [wholeSecond], default: []),
        RoundTrip("[Data]", [Data([1]), Data()], default: []),
        RoundTrip("[String: String]", ["a": "b", "ü": "<>"], default: [:]),
        RoundTrip("[String: Int]", ["cursor": 3], default: [:]),
        RoundTrip("[String: Double]", ["m": 4.5], default: [:]),
        RoundTrip("[String: Bool]", ["on": true], default: [:]),
        RoundTrip("[String: [String]]", ["x": ["y", "z"]], default: [:]),
        RoundTrip("[[String: Int]]", [["a": 1], ["b": 2]], default: []),
        RoundTrip("EditDraft", SampleScene.draft, default: EditDraft(code: "", text: "", cursor: 0)),
        RoundTrip("Optional some", Optional("x"), default: nil),
    ]

    @Test(arguments: roundTrips)
    func valueRoundTripsThroughTheFile(_ trip: RoundTrip) throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        #expect(try trip.run(state))
    }

    @Test func specKeysAppearVerbatimInTheXMLFile() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try SampleScene.apply(to: storage)
        try storage.flush()
        let text = try String(contentsOfFile: state.scenePlistPath(.main), encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
        #expect(text.contains("<plist"))
        for name in SampleScene.items.keys {
            #expect(text.contains("<key>\(name)</key>"), "missing \(name)")
        }
        #expect(readPlist(state.scenePlistPath(.main)) == SampleScene.items)
    }

    @Test func settingNilForAnOptionalRemovesTheKey() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try storage.set(SampleScene.draft, for: SceneKeys.editDraft)
        try storage.set(nil, for: SceneKeys.editDraft)
        try storage.flush()
        #expect(readPlist(state.scenePlistPath(.main))?["EditView.draft"] == nil)
        #expect(storage.value(for: SceneKeys.editDraft) == nil)
    }

    @Test func defaultsFollowTheSpec() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(storage.value(for: SceneKeys.sortOrder) == "time")
        #expect(storage.value(for: SceneKeys.selectedTab) == "detail")
        #expect(storage.value(for: SceneKeys.sortAscendingKey(for: "time")) == false)
        #expect(storage.value(for: SceneKeys.sortAscendingKey(for: "magnitude")) == false)
        #expect(storage.value(for: SceneKeys.sortAscendingKey(for: "region")) == true)
        #expect(storage.value(for: SceneKeys.detailIsPresented) == false)
        #expect(storage.value(for: SceneKeys.collapsedSections) == [])
        #expect(storage.value(for: SceneKeys.editDraft) == nil)
        #expect(storage.takeNotice() == nil)
    }

    /// The promise is a write due within 250 ms of a change; the clock is moved by hand, so a
    /// loaded machine cannot make this flaky (the pty benchmark times the real thing).
    @Test func aChangeReachesTheDiskWithin250Milliseconds() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let clock = ManualClock()
        let storage = try SceneStorage(state: state, scene: .main, restoring: false, clock: clock.clock)
        for n in 0..<5 {
            try storage.set("Iceland \(n)", for: SceneKeys.searchText)
            #expect(readPlist(state.scenePlistPath(.main))?["ContentView.searchText"] != .string("Iceland \(n)"),
                    "written at once, not coalesced")
            clock.advance(by: 0.25)
            #expect(readPlist(state.scenePlistPath(.main))?["ContentView.searchText"] == .string("Iceland \(n)"))
            #expect(storage.isFlushed)
        }
    }

    @Test func manyQuickChangesAreCoalescedIntoFewWrites() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        for n in 0..<200 { try storage.set("text \(n)", for: SceneKeys.searchText) }
        #expect(eventually { storage.isFlushed })
        #expect(readPlist(state.scenePlistPath(.main))?["ContentView.searchText"] == .string("text 199"))
    }

    @Test func filesAreMode0600AndNoTemporaryFilesRemain() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try storage.set("x", for: SceneKeys.searchText)
        try storage.flush()
        let attributes = try FileManager.default.attributesOfItem(atPath: state.scenePlistPath(.main))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(files(in: state.scenesPath, withPrefix: AtomicFile.temporaryPrefix).isEmpty)
    }

    @Test func aValueThatWouldPassTheSizeLimitIsRefused() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try storage.set("kept", for: SceneKeys.searchText)
        let huge = String(repeating: "x", count: 70_000)
        let error = #expect(throws: QuakeScenesError.self) {
            try storage.set(huge, for: SceneKeys.searchText)
        }
        #expect(error?.code == .valueTooLarge)
        #expect(error?.key == "ContentView.searchText")
        #expect(error?.description.contains("ContentView.searchText") == true)
        #expect(error?.description.contains(state.scenePlistPath(.main)) == true)
        #expect(storage.value(for: SceneKeys.searchText) == "kept")
        try storage.flush()
        let size = try FileManager.default.attributesOfItem(atPath: state.scenePlistPath(.main))[.size] as? Int
        #expect((size ?? .max) < SceneStorage.maximumFileSize)
    }

    /// `update` stores every value of a batch, or none: the whole scene a key saves, encoded once.
    @Test func anUpdateStoresAllOfItsValuesOrNone() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try storage.update { batch in
            batch.set("magnitude", for: SceneKeys.sortOrder)
            batch.set("alaska", for: SceneKeys.searchText)
            batch.set(true, for: SceneKeys.detailIsPresented)
        }
        #expect(storage.value(for: SceneKeys.sortOrder) == "magnitude")
        #expect(storage.value(for: SceneKeys.searchText) == "alaska")
        #expect(storage.value(for: SceneKeys.detailIsPresented))
        let error = #expect(throws: QuakeScenesError.self) {
            try storage.update { batch in
                batch.set("region", for: SceneKeys.sortOrder)
                batch.set(String(repeating: "x", count: 70_000), for: SceneKeys.searchText)
            }
        }
        #expect(error?.code == .valueTooLarge)
        #expect(error?.key == "ContentView.sortOrder", "the first changed key of the batch")
        #expect(storage.value(for: SceneKeys.sortOrder) == "magnitude")
        #expect(storage.value(for: SceneKeys.searchText) == "alaska")
        try storage.flush()
        let reopened = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(reopened.value(for: SceneKeys.sortOrder) == "magnitude" && reopened.value(for: SceneKeys.searchText) == "alaska")
    }

    @Test func destroyDeletesTheSceneFileAndStopsWriting() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main)
        try storage.set("x", for: SceneKeys.searchText)
        try storage.flush()
        try storage.set("y", for: SceneKeys.searchText)
        storage.destroy()
        try? storage.flush()  // nothing may be left to write: a pending save would recreate the file
        #expect(!FileManager.default.fileExists(atPath: state.scenePlistPath(.main)))
        #expect(!FileManager.default.fileExists(atPath: state.sceneRestoringPath(.main)))
    }

    @Test func scenesAreIndependent() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let left = try SceneStorage(state: state, scene: try SceneID(validating: "left"), restoring: false)
        let right = try SceneStorage(state: state, scene: try SceneID(validating: "right"), restoring: false)
        try left.set("magnitude", for: SceneKeys.sortOrder)
        try right.set("region", for: SceneKeys.sortOrder)
        try left.flush()
        try right.flush()
        let again = try SceneStorage(state: state, scene: try SceneID(validating: "left"), restoring: false)
        #expect(again.value(for: SceneKeys.sortOrder) == "magnitude")
        #expect(right.value(for: SceneKeys.sortOrder) == "region")
    }

    @Test func flushPutsEveryChangeOnDiskBeforeItReturns() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try SampleScene.apply(to: storage)
        try storage.flush()   // what the SIGTERM/SIGHUP handler does
        #expect(storage.isFlushed)
        #expect(readPlist(state.scenePlistPath(.main)) == SampleScene.items)
    }

    @Test func aRemovedScenesDirectoryIsRecreatedOnTheNextWrite() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        try FileManager.default.removeItem(atPath: state.scenesPath)
        try storage.set("x", for: SceneKeys.searchText)
        try storage.flush()
        #expect(readPlist(state.scenePlistPath(.main)) == ["ContentView.searchText": .string("x")])
    }
}
