import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// Issue 56: what a daily user still met, each reproduced on whole screens or whole lines.
@Suite struct FeelRoundThreeTests {
    static let context = FrameContext(now: 1_700_300_000_000, isLive: true, localTimeZone: TimeZone(identifier: "UTC")!)

    // MARK: 3. The code column

    /// Codes of other agencies: a prefix and a long id.
    static let longCodes: [ListLine] = [
        .section(SectionLine(id: "2024-05-06", title: "Monday, 6 May 2024", count: 3)),
        .quake(QuakeLine(code: "emsc:20240506_0000123", magnitude: 4.4, place: "CRETE, GREECE", time: Fixtures.now - Fixtures.hour,
                         depth: 10, latitude: 35.1, longitude: 25.2)),
        .quake(QuakeLine(code: "emsc:20240506_0000124", magnitude: 3.1, place: "CRETE, GREECE", time: Fixtures.now - 2 * Fixtures.hour,
                         depth: 12, latitude: 35.2, longitude: 25.3)),
        .quake(QuakeLine(code: "127.0.0.1:fdsn000123456", magnitude: 2.0, place: "Somewhere local", time: Fixtures.now - 3 * Fixtures.hour,
                         depth: 5, latitude: 1, longitude: 2)),
    ]

    /// Issue 56.3: at 200 columns the code has the room it needs (it was cut at 12, `emsc:202405…`,
    /// with 43 columns empty at the right); where there is no room, the agency's prefix goes
    /// first and the id's end stays (`…506_0000123`), so rows are still told apart.
    @Test(arguments: [200, 120])
    func theCodeHasTheRoomItNeedsOrLosesItsPrefix(columns: Int) {
        let buffer = Screen.render(Fixtures.model(columns: columns, rows: 10, lines: Self.longCodes))
        assertSnapshot(buffer, named: "list-long-codes-\(columns)")
        let rows = buffer.lines.filter { $0.contains("Crete") || $0.contains("Somewhere") }
        let expected = columns == 200 ? ["emsc:20240506_0000123", "emsc:20240506_0000124", "127.0.0.1:fdsn000123456"]
                                      : ["…506_0000123", "…506_0000124", "…sn000123456"]
        #expect(zip(rows, expected).allSatisfy { $0.contains(" \($1) ") }, "\(rows)")
    }

    @Test func aCodeIsCutAtItsPrefixFirst() {
        #expect(ListView.fitted(code: "us7000m1a1", width: 12) == "us7000m1a1")
        #expect(ListView.fitted(code: "emsc:20240506_0000123", width: 12) == "…506_0000123")
        #expect(ListView.fitted(code: "iris:958596", width: 8) == "…958596")
        #expect(ListView.fitted(code: "emsc:20240506_0000123", width: 32) == "emsc:20240506_0000123")
    }

    // MARK: 6. The sample replaced from another process

    /// Issue 56.6: another process's `fetch` replaces the bundled sample: the status line's
    /// `offline — showing the bundled sample` goes with it, without a key, and the list starts at
    /// its first (newest) quake rather than the middle of the new history: the screen is the
    /// screen of a browser started on the new data.
    @Test func theSamplesMessageGoesWithItAndTheListStartsAtItsNewest() throws {
        let sample = (0..<20).map { QuakeRecord.fixture("sample\($0)", place: "Sample place \($0)", time: 1_700_000_000_000 - Int64($0) * 3_600_000) }
        let fetched = (0..<30).map { QuakeRecord.fixture("us\($0)", place: "Fetched place \($0)", time: 1_700_200_000_000 - Int64($0) * 3_600_000) }
        let source = ModelStore(sample)
        defer { source.close() }
        let model = try BrowserModel(state: AppState(sceneID: "t", settings: BrowserModelTests.utc, columns: 100, rows: 20), source: source)
        try model.restore(selectedCode: nil, topCode: nil)
        try model.send(.sampleChanged(true))
        try model.send(.refreshFinished(message: "Refresh of all_day failed: the host earthquake.usgs.gov could not be found (offline or DNS failure?)",
                                        failed: true, at: Date(), kind: .dnsFailure))
        for _ in 0..<8 { try model.send(.moveDown) }
        try model.send(.refreshFinished(message: "Refresh of all_day failed: the host earthquake.usgs.gov could not be found (offline or DNS failure?)",
                                        failed: true, at: Date(), kind: .dnsFailure))
        #expect(model.state.status.message == "still offline — showing the bundled sample · r retries")

        // Another process: the sample deleted and a catalogue fetched, in one transaction.
        for record in sample { try source.delete(code: record.code) }
        for record in fetched { try source.upsert(record) }
        _ = try model.performReads(model.send(.storeChanged))
        _ = try model.performReads(model.send(.sampleChanged(false)))

        let freshStore = ModelStore(fetched)
        defer { freshStore.close() }
        let fresh = try BrowserModel(state: AppState(sceneID: "u", settings: BrowserModelTests.utc, columns: 100, rows: 20),
                                     source: freshStore)
        try fresh.restore(selectedCode: nil, topCode: nil)
        let (screen, expected) = (Screen.render(try model.screenModel(Self.context)).lines, Screen.render(try fresh.screenModel(Self.context)).lines)
        #expect(model.state.selectedCode == "us0")
        // The header names the scene: the rest, the status line included, is the new browser's.
        #expect(Array(screen.dropFirst()) == Array(expected.dropFirst()), "\(screen.joined(separator: "\n"))")
    }

    // MARK: 8. Keys a tmux, vim or less user presses

    /// Issue 56.8: keys with an obvious meaning do it; the rest say in one line that they do
    /// nothing here and where the keys are, and leave the log alone.
    @Test func keysThatMeanNothingSaySoAndF5RefreshesAsRDoes() throws {
        let model = try MessageLogTests.restoredModel(rows: 24)
        defer { model.close() }
        for key: Key in [.character("h"), .character("l"), .character("d"), .character("w"), .character("x"), .control("o"), .function(2)] {
            try model.send(try #require(KeyMap.action(for: key, in: model.state)))
            let status = Screen.render(try model.screenModel(Self.context)).lines.last!
            let left = " \(key) does nothing here; ? lists the keys  ? help"
            #expect(status == left + String(repeating: " ", count: 80 - TextWidth.of(left) - 6) + "● live", "\(key): \(status)")
        }
        #expect(model.state.messageLog.entries.isEmpty, "a key that does nothing is not an event to log")
        for key: Key in [.function(5), .control("r"), .character("r")] {
            #expect(KeyMap.action(for: key, in: model.state) == .refresh, "\(key)")
        }
        // Over the detail view the list's unbound keys say the same; its own keys still work.
        try model.send(.openDetail)
        #expect(KeyMap.action(for: .character("h"), in: model.state) == .unboundKey("h"))
        #expect(KeyMap.action(for: .character("+"), in: model.state) == .zoomMap(1))
        // Typing a search, letters are the search's.
        try model.send(.closeDetail)
        try model.send(.beginSearch)
        #expect(KeyMap.action(for: .character("h"), in: model.state) == .searchInput("h"))
    }

    /// `:q`, `:help` and `:sort mag` on the `:` line do what `q`, `?` and `s` do (it said
    /// `Unknown command “q”`).
    @Test func theCommandLineTakesQHelpAndSort() throws {
        #expect(FilterCommand.parse("q", now: 0) == .success(.quit))
        #expect(FilterCommand.parse("quit", now: 0) == .success(.quit))
        #expect(FilterCommand.parse("help", now: 0) == .success(.help))
        #expect(FilterCommand.parse("sort mag", now: 0) == .success(.sort(.magnitude, ascending: nil)))
        #expect(FilterCommand.parse("sort depth asc", now: 0) == .success(.sort(.depth, ascending: true)))
        #expect(FilterCommand.parse("sort magnitud", now: 0) == .success(.sort(.magnitude, ascending: nil)))
        #expect(FilterCommand.parse("sort mgn", now: 0) == .failure(FilterCommandError("“mgn” is not an order. Did you mean :sort mag? "
                                                                                         + ":sort takes time, mag, region, depth, distance or intensity")) ||
                FilterCommand.parse("sort mgn", now: 0).isFailure)

        let model = try MessageLogTests.restoredModel(rows: 24)
        defer { model.close() }
        func run(_ line: String) throws -> [Effect] {
            try model.send(.beginCommand)
            try model.send(.commandInput(line))
            return try model.send(.runCommand)
        }
        _ = try run("sort mag")
        #expect(model.state.sort == QuakeSortDescriptor(.magnitude))
        #expect(Screen.render(try model.screenModel(Self.context)).lines[0].contains("sort magnitude ↓"))
        // Without a home, the orders measured from it are refused, the sort kept (`:sort intensity`
        // showed `sort intensity ↓` over a list in time order).
        for order in ["intensity", "distance"] {
            #expect(model.state.settings.home == nil)
            _ = try run("sort \(order)")
            #expect(model.state.sort == QuakeSortDescriptor(.magnitude))
            #expect(model.state.status.message == "Sorting by \(order) needs a home: press @ on a quake to set it there")
            #expect(model.state.status.isError)
        }
        _ = try run("help")
        #expect(model.state.helpVisible)
        try model.send(.dismissOverlay)
        #expect(try run("q").contains(.quit))
    }

    /// Issue 56.8: `/` in the help and in the message log finds, as in less: only the lines that
    /// hold the text show, as it is typed; `Enter` keeps them, `Esc` shows all again, and closing
    /// the overlay forgets it.
    @Test func slashFindsInTheHelpAndTheLog() throws {
        let model = try MessageLogTests.restoredModel(rows: 24)
        defer { model.close() }
        func press(_ keys: [Key]) throws {
            for key in keys { if let action = KeyMap.action(for: key, in: model.state) { try model.send(action) } }
        }
        func typed(_ text: String) -> [Key] { text.map { Key.character($0) } }
        try press([.character("?"), .character("/")] + typed("sort"))
        let help = Screen.render(try model.screenModel(Self.context))
        assertSnapshot(help, named: "help-find-sort-80x24")
        let body = help.lines.dropFirst(2).prefix { !$0.hasPrefix("╰") }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }.filter { !$0.isEmpty }
        #expect(body == [":                           commands: depth mag since time type alert felt",
                         "intensity magtype revised clear mc decluster", "sort help quit",
                         "s  S                        next sort order / reverse"], "only the lines holding it: \(help.text)")
        #expect(help.lines[1].hasPrefix("╭─ Keys /sort▏ "), "\(help.lines[1])")
        try press([.enter])
        #expect(!model.state.isOverlayFinding && model.state.overlayFind == "sort")
        #expect(Screen.render(try model.screenModel(Self.context)).lines[1].hasPrefix("╭─ Keys /sort "))
        try press([.escape])
        #expect(!model.state.helpVisible && model.state.overlayFind.isEmpty)

        try model.send(.showMessage("Refresh of all_day failed: offline", isError: true))
        try model.send(.showMessage("Notes saved", isError: false))
        try press([.character("L"), .character("/")] + typed("notes"))
        let log = Screen.render(try model.screenModel(Self.context))
        #expect(log.text.contains("Notes saved") && !log.text.contains("Refresh of all_day"), "\(log.text)")
        try press([.backspace, .backspace, .backspace, .backspace, .backspace, .backspace])  // past the text: typing ends
        #expect(!model.state.isOverlayFinding && model.state.logVisible)
        #expect(Screen.render(try model.screenModel(Self.context)).text.contains("Refresh of all_day"))
        try press([.character("/")] + typed("zzz"))
        #expect(Screen.render(try model.screenModel(Self.context)).text.contains("No message holds “zzz”."))
        try press([.escape])
        #expect(model.state.overlayFind.isEmpty && model.state.logVisible)
    }

    // MARK: 10. Help at 60×15

    /// Issue 56.10: at 60×15 the help's meanings were cut (`this or previous / next sec…`):
    /// they wrap in their column, and every word of every line can be scrolled to.
    @Test func theHelpWrapsAt60x15() throws {
        var model = Fixtures.model(columns: 60, rows: 15)
        model.showsHelp = true
        var seen = ""
        for offset in 0...Screen.maximumHelpOffset(for: model.size) {
            model.helpOffset = offset
            let buffer = Screen.render(model)
            // (`i l …` is a mark of the legend, not a cut.)
            #expect(!buffer.text.replacingOccurrences(of: "i l …", with: "").contains("…"), "cut at offset \(offset):\n\(buffer.text)")
            seen += buffer.text + "\n"
        }
        model.helpOffset = 0
        assertSnapshot(Screen.render(model), named: "help-overlay-60x15")
        for entry in KeyHelp.entries {
            for word in (entry.keys + " " + entry.action).split(separator: " ") {
                #expect(seen.contains(word), "\(word) of “\(entry.action)” never shown")
            }
        }
    }
}

extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
