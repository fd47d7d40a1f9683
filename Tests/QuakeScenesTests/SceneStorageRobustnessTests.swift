import Foundation
import QuakeTestSupport
import Testing
@testable import QuakeScenes

/// A kind of bad scene file and its bytes.
struct BadFile: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let bytes: @Sendable () -> Data

    static let validXML = try! PropertyListItem.xmlData(for: SampleScene.items)

    static let all: [BadFile] = [
        BadFile(testDescription: "corrupt XML") {
            Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key><string>unterminated".utf8)
        },
        BadFile(testDescription: "truncated") { validXML.prefix(validXML.count / 2) },
        BadFile(testDescription: "empty") { Data() },
        BadFile(testDescription: "JSON") { Data("{\"ContentView.sortOrder\": \"time\"}".utf8) },
        BadFile(testDescription: "binary plist with an array root") {
            try! PropertyListSerialization.data(fromPropertyList: ["time", "region"], format: .binary, options: 0)
        },
        BadFile(testDescription: "XML plist with an array root") {
            try! PropertyListSerialization.data(fromPropertyList: ["ContentView.sortOrder"], format: .xml, options: 0)
        },
        BadFile(testDescription: "XML plist with a string root") {
            try! PropertyListSerialization.data(fromPropertyList: "time", format: .xml, options: 0)
        },
        BadFile(testDescription: "random bytes") { Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7919) }) },
        BadFile(testDescription: "oversized (70 KiB) but valid") {
            try! PropertyListItem.xmlData(for: ["ContentView.searchText": .string(String(repeating: "y", count: 70_000))])
        },
    ]
}

@Suite struct SceneStorageRobustnessTests {
    @Test(arguments: BadFile.all)
    func aBadFileIsSetAsideAndTheSceneStartsFromDefaults(_ bad: BadFile) throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let original = bad.bytes()
        try original.write(to: URL(fileURLWithPath: state.scenePlistPath(.main)))

        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(storage.value(for: SceneKeys.sortOrder) == "time")
        #expect(storage.value(for: SceneKeys.searchText) == "")
        let notice = try #require(storage.takeNotice())
        #expect(notice.contains("scene main"))
        #expect(notice.contains("main.plist.corrupt-"))
        #expect(storage.takeNotice() == nil, "the message is shown once")

        let aside = files(in: state.scenesPath, withPrefix: "main.plist.corrupt-")
        #expect(aside.count == 1)
        let preserved = FileManager.default.contents(atPath: state.scenesPath + "/" + (aside.first ?? ""))
        #expect(preserved == original, "the bad file is preserved byte for byte")

        // The API keeps working and writes a good file.
        try storage.set("region", for: SceneKeys.sortOrder)
        try storage.flush()
        #expect(readPlist(state.scenePlistPath(.main)) == ["ContentView.sortOrder": .string("region")])
        let reopened = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(reopened.value(for: SceneKeys.sortOrder) == "region")
        #expect(reopened.takeNotice() == nil)
    }

    @Test func wrongTypedValuesFallBackToDefaultsAndTheFileIsPreserved() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let root: [String: PropertyListItem] = [
            "ContentView.sortOrder": .int(5),                 // wrong type
            "ContentView.sortAscending": .string("yes"),      // wrong type
            "DetailView.selectedTab": .string("banana"),      // not one of the tabs
            "EditView.draft": .dictionary(["code": .string("x")]),   // missing text and cursor
            "ContentView.searchText": .string("Chile"),       // fine
            "Custom.unknownKey": .data(Data([1])),            // unknown keys are kept
        ]
        let original = try PropertyListItem.xmlData(for: root)
        try original.write(to: URL(fileURLWithPath: state.scenePlistPath(.main)))

        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(storage.value(for: SceneKeys.sortOrder) == "time")
        #expect(storage.value(for: SceneKeys.sortAscending) == false)
        #expect(storage.value(for: SceneKeys.selectedTab) == "detail")
        #expect(storage.value(for: SceneKeys.editDraft) == nil)
        #expect(storage.value(for: SceneKeys.searchText) == "Chile")
        let notice = try #require(storage.takeNotice())
        for name in ["ContentView.sortOrder", "ContentView.sortAscending", "DetailView.selectedTab", "EditView.draft"] {
            #expect(notice.contains(name))
        }
        #expect(storage.takeNotice() == nil)

        let aside = files(in: state.scenesPath, withPrefix: "main.plist.corrupt-")
        #expect(aside.count == 1)
        #expect(FileManager.default.contents(atPath: state.scenesPath + "/" + (aside.first ?? "")) == original)

        // The bad keys are dropped from the live file; the good and unknown ones stay.
        #expect(eventually { storage.isFlushed })
        let rewritten = try #require(readPlist(state.scenePlistPath(.main)))
        #expect(rewritten == ["ContentView.searchText": .string("Chile"), "Custom.unknownKey": .data(Data([1]))])
    }

    @Test func aWrongTypedUnknownKeyReadsAsItsDefaultOnce() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        try PropertyListItem.xmlData(for: ["Custom.count": .string("seven")])
            .write(to: URL(fileURLWithPath: state.scenePlistPath(.main)))
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        let key = SceneKey<Int>("Custom.count", default: 3)
        #expect(storage.value(for: key) == 3)
        #expect(storage.takeNotice()?.contains("Custom.count") == true)
        #expect(storage.value(for: key) == 3)
        #expect(storage.takeNotice() == nil)
        try storage.set(8, for: key)
        #expect(storage.value(for: key) == 8)
        // Written now: a coalesced write after `dir.remove()` would create the directory again.
        try storage.flush()
    }

    @Test func aMissingFileIsSilentlyEmpty() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(storage.allItems.isEmpty)
        #expect(storage.takeNotice() == nil)
        #expect(files(in: state.scenesPath, withPrefix: "main.plist").isEmpty)
    }

    @Test func aBinaryPlistDictionaryIsReadAndRewrittenAsXML() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        let binary = try PropertyListSerialization.data(
            fromPropertyList: ["ContentView.sortOrder": "region"], format: .binary, options: 0)
        try binary.write(to: URL(fileURLWithPath: state.scenePlistPath(.main)))
        let storage = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(storage.value(for: SceneKeys.sortOrder) == "region")
        try storage.set("x", for: SceneKeys.searchText)
        try storage.flush()
        let text = try String(contentsOfFile: state.scenePlistPath(.main), encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
    }

    @Test func staleTemporaryFilesOfDeadWritersAreCleanedUp() throws {
        let (dir, state) = try makeState()
        defer { dir.remove() }
        // PID 2^22+1 is above the default pid_max, so no live process has it.
        let stale = state.scenesPath + "/\(AtomicFile.temporaryPrefix)main.plist-4194305-123"
        try Data("<?xml".utf8).write(to: URL(fileURLWithPath: stale))
        _ = try SceneStorage(state: state, scene: .main, restoring: false)
        #expect(!FileManager.default.fileExists(atPath: stale))
    }
}
