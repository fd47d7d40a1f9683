import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Issue 31: one line editor for the search field and the `:` line, its keys in the one key
/// table; whole values and whole states compared.
@Suite struct LineEditingTests {
    /// Keys as the user presses them, through `KeyMap`, into `model`.
    static func press(_ keys: [Key], _ model: BrowserModel) throws {
        for key in keys {
            let action = try #require(KeyMap.action(for: key, in: model.state), "\(key) in \(KeyMap.modes(for: model.state.app))")
            _ = try model.performReads(model.send(action))
        }
    }

    static func typing(_ text: String) -> [Key] { text.map(Key.character) }

    /// Where a refetch put the selection (BrowserUpdateTests follows it step by step).
    /// The selection, and the layout a refetch makes, as the model has them.
    static func keepSelection(of state: BrowserState, in expected: inout BrowserState) {
        expected.layout = state.layout
        expected.results = state.results
        expected.cursorLine = state.cursorLine
        expected.topLine = state.topLine
        expected.topCode = state.topCode
        expected.selectedCode = state.selectedCode
        expected.selectedSection = state.selectedSection
    }

    @Test(arguments: [
        (LineEdit.left, LineEditor(text: "near tokyo  japan", cursor: 10)),
        (.right, LineEditor(text: "near tokyo  japan", cursor: 12)),
        (.home, LineEditor(text: "near tokyo  japan", cursor: 0)),
        (.end, LineEditor(text: "near tokyo  japan", cursor: 17)),
        (.backspace, LineEditor(text: "near tokyo japan", cursor: 10)),
        (.deleteForward, LineEditor(text: "near tokyo japan", cursor: 11)),
        (.deleteWordBackward, LineEditor(text: "near  japan", cursor: 5)),
        (.deleteToStart, LineEditor(text: " japan", cursor: 0)),
    ])
    func eachEditOnTheMiddleOfALine(edit: LineEdit, expected: LineEditor) {
        var line = LineEditor(text: "near tokyo  japan", cursor: 11)
        line.apply(edit)
        #expect(line == expected)
    }

    @Test func editsAtTheEndsChangeNothing() {
        for edit in LineEdit.allCases {
            for cursor in [0, 3] {
                var line = LineEditor(text: "abc", cursor: cursor)
                let changed = line.apply(edit)
                #expect(changed == (line.text != "abc"), "\(edit) at \(cursor)")
            }
        }
        var start = LineEditor(text: "abc", cursor: 0)
        for edit in [LineEdit.left, .home, .backspace, .deleteWordBackward, .deleteToStart] { start.apply(edit) }
        #expect(start == LineEditor(text: "abc", cursor: 0))
        var end = LineEditor(text: "abc")
        for edit in [LineEdit.right, .end, .deleteForward] { end.apply(edit) }
        #expect(end == LineEditor(text: "abc", cursor: 3))
        var empty = LineEditor()
        for edit in LineEdit.allCases {
            let changed = empty.apply(edit)
            #expect(!changed)
        }
        #expect(empty == LineEditor())
    }

    /// The same keys in the search field and on the `:` line edit the same way: the table binds
    /// them once (`KeyTable.lineEditing`).
    @Test func theSearchAndTheCommandLineTakeTheSameEditingKeys() throws {
        let keys: [Key] = Self.typing("depth 0-70") + [.left, .left, .left, .control("w"), .home, .right, .delete]
            + Self.typing("E") + [.control("e"), .backspace, .control("a"), .end, .left, .control("u")]
        let search = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        try Self.press([.character("/")] + keys, search)
        let command = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        try Self.press([.character(":")] + keys, command)
        #expect(search.state.search == LineEditor(text: "7", cursor: 0))
        #expect(command.state.commandLine?.line == search.state.search)
        // The table's lines for them name every key they bind (help and README read them).
        let help = KeyHelp.entries.map(\.keys)
        #expect(help.contains("← → Home End ctrl-a ctrl-e") && help.contains("Delete  ctrl-w  ctrl-u"))
    }

    /// A search typed, then edited in its middle: each step is the state before it with the
    /// search (text and cursor) changed, and a move refetches nothing (no effect, same results).
    @Test func editingTheSearchInItsMiddleChangesOnlyTheSearch() throws {
        let source = BrowserUpdateTests.makeSource()
        let model = try BrowserUpdateTests.makeModel(source)
        try Self.press([.character("/")] + Self.typing("chle"), model)
        var expected = model.state
        // A move refetches nothing; the cursor is scene state (a relaunch draws it where it was).
        #expect(try model.send(#require(KeyMap.action(for: .left, in: model.state))) == [.saveScene])
        expected.search = LineEditor(text: "chle", cursor: 3)
        #expect(model.state == expected)
        #expect(try model.send(#require(KeyMap.action(for: .left, in: model.state))) == [.saveScene])
        try model.send(#require(KeyMap.action(for: .character("i"), in: model.state)))
        expected.search = LineEditor(text: "chile", cursor: 3)
        Self.keepSelection(of: model.state, in: &expected)
        #expect(model.state == expected)
        #expect(model.results.count == 6)  // the Chile half
        try Self.press([.control("a"), .control("w"), .control("e"), .control("w")], model)
        expected.search = LineEditor(text: "", cursor: 0)
        Self.keepSelection(of: model.state, in: &expected)
        #expect(model.state == expected)
        #expect(model.results.count == 12)
        // Home and End edit the field now; ↑ ↓ still move the list.
        #expect(KeyMap.action(for: .home, in: model.state) == .searchEdit(.home))
        #expect(KeyMap.action(for: .down, in: model.state) == .moveDown)
    }

    @Test func aSearchIsRestoredWithItsCursor() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let scene = try SceneID(validating: "cursor")
        var state = AppState(sceneID: "cursor", searchText: "tokyo")
        #expect(state.search == LineEditor(text: "tokyo", cursor: 5))
        state.search.apply(.left)
        let storage = try SceneStorage(state: try StateDirectory(path: dir.path).prepared(), scene: scene)
        try state.save(to: storage)
        try storage.close()
        var restored = AppState(sceneID: "cursor")
        _ = restored.restore(from: try SceneStorage(state: try StateDirectory(path: dir.path).prepared(), scene: scene), now: 0)
        #expect(restored.search == LineEditor(text: "tokyo", cursor: 4))
    }

    // MARK: The `:` line's Tab, "did you mean", types and days

    // `m` starts `mag`, `magtype` and `mc` (issue 54): it completes nothing, `ma` what `mag` and
    // `magtype` share, `mc` its own; `de` starts `depth` and `decluster`.
    @Test(arguments: [("de", nil), ("dep", "depth "), ("dec", "decluster "), ("  M", nil), ("  Ma", "mag"), ("magt", "magtype "),
                      ("i", "intensity "), ("mc", "mc "), ("t", nil), ("ti", "time "), ("s", nil), ("si", "since "), ("so", "sort "), ("q", "quit "),
                      ("depth ", nil), ("x", nil), ("", nil), ("c", "clear "), ("f", "felt ")])
    func tabCompletesCommandNames(typed: String, completed: String?) {
        #expect(FilterCommand.complete(typed) == completed)
    }

    @Test func tabOnTheLineCompletesTheNameAndPutsTheCursorAfterIt() throws {
        let model = try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource())
        try Self.press([.character(":"), .character("d"), .character("e"), .character("p")], model)
        var expected = model.state
        try Self.press([.tab], model)
        expected.commandLine = CommandPrompt(text: "depth ")
        #expect(model.state == expected)
        try Self.press([.tab], model)  // nothing more to complete
        #expect(model.state == expected)
    }

    @Test func aTypeNoStoredQuakeHasIsRefusedNamingTheTypesThereAre() throws {
        let (source, records) = try FilterCommandTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        try model.restore(selectedCode: nil, topCode: nil)
        try Self.press([.character(":")] + Self.typing("type xyzzy"), model)
        var expected = model.state
        // Enter asks for the store's types; the answer refuses the line.
        #expect(try model.send(.runCommand) == [.saveScene, .readStoredValues(.eventTypes, command: "type xyzzy")])
        _ = try model.performReads([.readStoredValues(.eventTypes, command: "type xyzzy")])
        expected.commandLine = nil
        expected.commandHistory = ["type xyzzy"]
        expected.status.message = "No quake has the type “xyzzy”: the store has earthquake, explosion, quarry blast"
        expected.status.isError = true
        expected.messageLog = model.state.messageLog
        #expect(model.state == expected)
        #expect(model.results.count == records.count)
        // A stored type, in any case, is run.
        try FilterCommandTests.run("type EXPLOSION", model)
        #expect(model.state.filters == ["type explosion"] && !model.state.status.isError)
        #expect(model.results.count == records.filter { $0.type == "explosion" }.count)

        // A magnitude type no stored quake has is refused the same way (it showed an empty list
        // with no hint); `unknown` (none given) and a stored one run.
        let magTypes = Set(records.compactMap { $0.magType?.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }).sorted()
        try Self.press([.character(":")] + Self.typing("magtype foo"), model)
        #expect(try model.send(.runCommand) == [.saveScene, .readStoredValues(.magnitudeTypes, command: "magtype foo")])
        _ = try model.performReads([.readStoredValues(.magnitudeTypes, command: "magtype foo")])
        #expect(model.state.status.message == "No quake has the magnitude type “foo”: the store has \(magTypes.joined(separator: ", ")) (unknown for none)")
        #expect(model.state.status.isError && model.state.filters == ["type explosion"])
        #expect(FilterCommand.unknown("unknown", of: .magnitudeTypes, among: magTypes) == nil)
        #expect(FilterCommand.unknown(magTypes[0].uppercased(), of: .magnitudeTypes, among: magTypes) == nil)
    }

    @Test func aTimeOfOneDateIsThatDayInTheListsZone() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let dayStart: Int64 = 1_704_034_800_000  // 2024-01-01 00:00 +09:00
        #expect(FilterCommand.parse("time 2024-01-01", now: 0, timeZone: tokyo)
            == .success(.filter(kind: "time", text: "time 2024-01-01", .time(from: dayStart, until: dayStart + 86_400_000))))
        #expect(FilterCommand.parse("time 2024-01-01", now: 0)
            == .success(.filter(kind: "time", text: "time 2024-01-01", .time(from: 1_704_067_200_000, until: 1_704_153_600_000))))
        // A day the clocks change on is 23 hours long.
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        guard case .success(.filter(_, _, .time(let from, let until?))) = FilterCommand.parse("time 2024-03-31", now: 0, timeZone: berlin)
        else { Issue.record("2024-03-31 refused"); return }
        #expect(until - from == 23 * 3_600_000)
        guard case .failure(let error) = FilterCommand.parse("time 2024-13-01", now: 0) else { Issue.record("accepted"); return }
        #expect(error.message == "2024-13-01 has no month 13; time takes a day or FROM..TO (the end excluded), in the list's time zone: "
                + ":time 2025-01-01, :time 2025-01-01..2025-02-01")
        guard case .failure(let leap) = FilterCommand.parse("time 2024-01-01..2023-02-29", now: 0) else { Issue.record("accepted"); return }
        #expect(leap.message.hasPrefix("2023-02-29: February 2023 has 28 days; time takes"), "\(leap.message)")
        guard case .failure(let other) = FilterCommand.parse("time yesterday", now: 0) else { Issue.record("accepted"); return }
        #expect(other.message.hasPrefix("time takes a day"), "\(other.message)")
        #expect(FilterCommand.impossibleDay("2024-02-29") == nil && FilterCommand.impossibleDay("2025-04-31") == "2025-04-31: April 2025 has 30 days")
    }

    /// Issue 57.1: a one-line field holds `LineEditor.capacity` characters; a longer paste keeps
    /// its start, and the status line says how much was left out. A megabyte is taken and drawn
    /// in well under a frame's budget of work (linear in the line: it took minutes at 1 MB).
    @Test func aMegabytePastedIntoALineFieldIsCutToItsCapacityAndSaidSo() {
        let megabyte = String(repeating: "mag 7- ", count: (1 << 20) / 7)
        var line = LineEditor(text: "ab", cursor: 1)
        #expect(line.insert(megabyte) == megabyte.count - (LineEditor.capacity - 2))
        #expect(line.text.count == LineEditor.capacity)
        #expect(line.cursor == LineEditor.capacity - 1)
        #expect(line.text.hasPrefix("amag 7- ") && line.text.hasSuffix("b"))
        #expect(line.insert("x") == 1)
        #expect(line.insert("") == 0)

        var state = BrowserState(app: AppState(sceneID: "t", columns: 80, rows: 12))
        state.app.commandLine = CommandPrompt()
        _ = state.update(Action.paste(megabyte), at: Date(timeIntervalSince1970: 0))
        #expect(state.app.commandLine?.text.count == LineEditor.capacity)
        #expect(state.app.status.message
                == "The : line holds at most 1,024 characters: \(CountFormat.grouped(megabyte.count - 1_024)) pasted characters left out")

        // Drawn with the cursor anywhere: linear (each side's width kept as it is cut). Told by
        // how the time grows, not by a budget a loaded machine misses: a line 16 times as long
        // takes at most 64 times as long (linear: 16; the quadratic drawing it replaced: 256).
        func drawingTime(_ repeats: Int) -> Duration {
            let line = String(repeating: "東京 tokyo ", count: repeats)
            let clock = ContinuousClock()
            return (0..<3).map { _ in
                clock.measure {
                    for cursor in [0, line.count / 2, line.count] {
                        var buffer = CellBuffer(size: Size(columns: 100, rows: 1))
                        Screen.renderCommandPrompt(line, cursor: cursor, in: Rect(x: 0, y: 0, width: 100, height: 1), into: &buffer)
                        #expect(buffer.text.contains("▏"))
                    }
                }
            }.min()!
        }
        let short = drawingTime(6_250), long = drawingTime(100_000)
        #expect(long < short * 64, "\(short) for 62,500 characters, \(long) for 1,000,000")
    }
}
