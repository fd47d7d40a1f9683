import Foundation
import QuakeScenes
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The `:` command line: each filter parses to its `RowFilter` and filters exactly what an
/// independent check of the records says; filters replace their kind, show in the header,
/// survive a relaunch, and the history recalls earlier lines.
@Suite struct FilterCommandTests {
    static let now: Int64 = 1_700_000_000_000
    static let day: Int64 = 86_400_000

    /// 60 quakes with every kind of value the filters test, in a real store: which rows match is the
    /// request's `QueryPlan` (the store's SQL for each filter is held to it by QueryPlanAgreementTests).
    static func makeSource() throws -> (ModelStore, [QuakeRecord]) {
        let types = ["earthquake", "quarry blast", "explosion", "Earthquake", nil]
        let alerts: [String?] = [nil, "green", "yellow", "orange", "red"]
        var records: [QuakeRecord] = []
        for index in 0..<60 {
            var record = QuakeRecord.fixture("f\(100 + index)", magnitude: Double(index % 7), place: "Place \(index)",
                                             time: now - Int64(index) * day / 4)
            record.depth = index % 9 == 0 ? nil : Double(index * 3)
            record.type = types[index % types.count]
            record.alert = alerts[index % alerts.count]
            record.felt = index % 4 == 0 ? nil : index % 3
            record.magType = [nil, "ml", "Mww", "mb", ""][index % 5]
            records.append(record)
        }
        return (ModelStore(records), records)
    }

    static func codes(_ model: BrowserModel) throws -> Set<String> {
        Set(try model.results.rows(in: 0..<model.results.count).map(\.code))
    }

    static func run(_ line: String, _ model: BrowserModel) throws {
        try model.send(.beginCommand)
        for character in line { try model.send(.commandInput(String(character))) }
        // As the runtime does: the reads it asks for (a `:type` line's event types) answered first.
        let effects = try model.performReads(model.send(.runCommand))
        #expect(effects.allSatisfy { $0 == .saveScene } && !effects.isEmpty || model.state.status.isError, "\(effects)")
    }

    @Test func eachFilterKeepsExactlyTheMatchingQuakes() throws {
        let (source, records) = try Self.makeSource()
        defer { source.close() }
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        model.state.now = Date(timeIntervalSince1970: Double(Self.now) / 1000)  // the actions' time: `:since` counts from it
        try model.restore(selectedCode: nil, topCode: nil)
        let levels = ["green", "yellow", "orange", "red"]
        let cases: [(String, (QuakeRecord) -> Bool)] = [
            // Depths and magnitudes as shown, in tenths (`ExpectedResults.shownTenths`).
            ("depth 0-70", { $0.depth.map { (0...700).contains(ExpectedResults.shownTenths($0)) } ?? false }),
            ("since 2d", { $0.time >= Self.now - 2 * Self.day }),
            ("time 2023-11-10..2023-11-12", { $0.time >= 1_699_574_400_000 && $0.time < 1_699_747_200_000 }),
            ("type earthquake", { $0.type?.lowercased() == "earthquake" }),
            ("type !quarry blast", { $0.type != "quarry blast" }),
            ("alert orange", { $0.alert.map { levels.firstIndex(of: $0)! >= 2 } ?? false }),
            ("felt", { ($0.felt ?? 0) > 0 }),
            ("mag 2-4", { $0.magnitude.map { (20...40).contains(ExpectedResults.shownTenths($0)) } ?? false }),
            ("mag 5+", { $0.magnitude.map { ExpectedResults.shownTenths($0) >= 50 } ?? false }),
            ("depth 100+", { $0.depth.map { ExpectedResults.shownTenths($0) >= 1_000 } ?? false }),
            ("magtype mww", { $0.magType?.lowercased() == "mww" }),
            ("magtype unknown", { ($0.magType ?? "").isEmpty }),
        ]
        for (line, expected) in cases {
            try Self.run(line, model)
            #expect(model.state.filters == [line], "\(line)")
            #expect(try Self.codes(model) == Set(records.filter(expected).map(\.code)), "\(line)")
            #expect(model.state.status.isError == false, "\(line): \(model.state.status.message ?? "")")
            try Self.run("clear", model)
            #expect(model.state.filters.isEmpty && model.results.count == records.count)
        }
        // Two kinds combine; one of the same kind replaces the earlier one.
        try Self.run("depth 0-70", model)
        try Self.run("felt", model)
        try Self.run("depth 0-30", model)
        #expect(model.state.filters == ["felt", "depth 0-30"])
        let both = records.filter { ($0.felt ?? 0) > 0 && ($0.depth.map { (0...30).contains($0) } ?? false) }
        #expect(try Self.codes(model) == Set(both.map(\.code)))
        let header = Screen.render(try model.screenModel(FrameContext(now: Self.now, isLive: true))).lines[0]
        #expect(header.contains(":felt · depth 0-30"), "\(header)")
    }

    @Test func unknownCommandsSayWhatTheLineAccepts() throws {
        for line in ["dpeth 0-70", "depth 70", "since yesterday", "time 2025..", "alert purple", "felt a lot", "", "clear sort"] {
            guard case .failure(let error) = FilterCommand.parse(line, now: Self.now) else {
                Issue.record("\(line) was accepted")
                continue
            }
            #expect(error.message.contains(":") && error.message.count > 20, "\(line): \(error.message)")
        }
        let (source, _) = try Self.makeSource()
        defer { source.close() }
        let model = try BrowserModelTests.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: nil, topCode: nil)
        try Self.run("dpeth 0-70", model)
        #expect(model.state.status.isError)
        #expect(model.state.status.message == "Unknown command “dpeth”. Did you mean :depth? The command line accepts \(FilterCommand.usage)")
        try Self.run("zap 1", model)
        #expect(model.state.status.message == "Unknown command “zap”. The command line accepts \(FilterCommand.usage)")
    }

    @Test func historyRecallsEarlierLinesAndFiltersSurviveARelaunch() throws {
        let (source, records) = try Self.makeSource()
        defer { source.close() }
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let model = try BrowserModelTests.makeModel(source)
        defer { model.close() }
        try model.restore(selectedCode: nil, topCode: nil)
        try Self.run("depth 0-70", model)
        try Self.run("felt", model)
        try model.send(try #require(KeyMap.action(for: .character(":"), in: model.state)))
        try model.send(try #require(KeyMap.action(for: .up, in: model.state)))
        #expect(model.state.commandLine?.text == "felt")
        try model.send(try #require(KeyMap.action(for: .up, in: model.state)))
        #expect(model.state.commandLine?.text == "depth 0-70")
        try model.send(try #require(KeyMap.action(for: .down, in: model.state)))
        try model.send(try #require(KeyMap.action(for: .down, in: model.state)))
        #expect(model.state.commandLine?.text == "")
        try model.send(try #require(KeyMap.action(for: .escape, in: model.state)))
        #expect(model.state.commandLine == nil)

        let scene = try SceneID(validating: "filters")
        let storage = try SceneStorage(state: try StateDirectory(path: dir.path).prepared(), scene: scene)
        try model.state.app.save(to: storage)
        try storage.close()
        let reopened = try SceneStorage(state: try StateDirectory(path: dir.path).prepared(), scene: scene)
        var state = AppState(sceneID: "filters", settings: BrowserModelTests.utc)
        let selection = state.restore(from: reopened, now: relaunchNow)
        #expect(state.filters == ["depth 0-70", "felt"] && state.commandHistory == ["depth 0-70", "felt"])
        let relaunched = try BrowserModel(state: state, source: ModelStore(records))
        defer { relaunched.close() }
        try relaunched.restore(selection)
        #expect(try Self.codes(relaunched) == Self.codes(model))
        #expect(relaunched.results.count < records.count)
    }

    /// `:mag` takes the ranges `:depth` takes: `low-high`, or `low+` and `low-` for low and up
    /// (negative ends too), shown and saved in one canonical text; anything else is refused.
    @Test func magnitudeRangesParseAsDepthRangesDo() throws {
        let top = Double.greatestFiniteMagnitude
        let accepted: [(String, String, RowFilter)] = [
            ("mag 4-6", "mag 4-6", .magnitude(4...6)), ("MAG 5+", "mag 5+", .magnitude(5...top)),
            ("mag 4.5-", "mag 4.5+", .magnitude(4.5...top)), ("mag -1-2.5", "mag -1-2.5", .magnitude(-1...2.5)),
            ("mag 4 - 6", "mag 4-6", .magnitude(4...6)), ("depth -5-10", "depth -5-10", .depth(-5...10)),
            ("depth 300+", "depth 300+", .depth(300...top)),
            // One number is that magnitude and up, as `:mag 4+` (issue 31).
            ("mag 4", "mag 4+", .magnitude(4...top)), ("mag 4.5", "mag 4.5+", .magnitude(4.5...top)),
            ("mag -1", "mag -1+", .magnitude(-1...top)),
        ]
        for (line, text, filter) in accepted {
            let kind = String(text.prefix { $0 != " " })
            #expect(FilterCommand.parse(line, now: Self.now) == .success(.filter(kind: kind, text: text, filter)), "\(line)")
        }
        for line in ["mag", "mag five", "mag 1e3+", "mag 4..6", "mag nan-1", "mag 1e3", "mag 4 5"] {
            guard case .failure(let error) = FilterCommand.parse(line, now: Self.now) else {
                Issue.record("\(line) was accepted")
                continue
            }
            #expect(error.message == "mag takes a magnitude and up, or a range, low-high: :mag 4 (or 4+), :mag 4-6")
        }
    }

    /// A range whose low end is above its high end is refused as reversed, saying which way round
    /// it goes, not as an unknown form (issue 31).
    @Test func aReversedRangeSaysSo() {
        #expect(FilterCommand.parse("mag 5-4", now: Self.now)
            == .failure(FilterCommandError("mag 5-4 is reversed: the low end must not exceed the high end (:mag 4-5)")))
        #expect(FilterCommand.parse("depth 70-0", now: Self.now)
            == .failure(FilterCommandError("depth 70-0 is reversed: the low end must not exceed the high end (:depth 0-70)")))
        #expect(FilterCommand.parse("mag 4-4", now: Self.now)
            == .success(.filter(kind: "mag", text: "mag 4-4", .magnitude(4...4))))
    }

    /// Magnitudes are shown and tested to a tenth: a range between two tenths holds none and is
    /// refused, naming the tenths either side, not answered with an empty list.
    @Test func aRangeBetweenTwoTenthsSaysSo() {
        #expect(FilterCommand.parse("mag 2.95-2.95", now: Self.now)
            == .failure(FilterCommandError("mag 2.95-2.95 holds no magnitude as shown: magnitudes are shown and tested to a tenth, "
                                           + "and the nearest are 2.9 and 3.0 (:mag 3.0-3.0)")))
        #expect(FilterCommand.parse("mag 4.01-4.04", now: Self.now)
            == .failure(FilterCommandError("mag 4.01-4.04 holds no magnitude as shown: magnitudes are shown and tested to a tenth, "
                                           + "and the nearest are 4.0 and 4.1 (:mag 4.1-4.1)")))
        #expect(FilterCommand.parse("mag 2.95-3", now: Self.now)
            == .success(.filter(kind: "mag", text: "mag 2.95-3", .magnitude(2.95...3))))
        // Depths likewise, to a tenth of a km.
        #expect(FilterCommand.parse("depth 10.01-10.04", now: Self.now)
            == .failure(FilterCommandError("depth 10.01-10.04 holds no depth as shown: depths are shown and tested to a tenth of a km, "
                                           + "and the nearest are 10.0 km and 10.1 km (:depth 10.1-10.1)")))
        #expect(FilterCommand.parse("depth 10.04-10.1", now: Self.now)
            == .success(.filter(kind: "depth", text: "depth 10.04-10.1", .depth(10.04...10.1))))
    }

    /// A reversed time range says so, as a reversed magnitude range does (issue 56, point 9: it got
    /// the generic message).
    @Test func aReversedTimeRangeSaysSo() {
        #expect(FilterCommand.parse("time 2018-06-14..2018-06-10", now: Self.now, timeZone: .gmt)
            == .failure(FilterCommandError("time 2018-06-14..2018-06-10 is reversed: the start must come before the end (:time 2018-06-10..2018-06-14)")))
        #expect(FilterCommand.parse("time 2018-06-14..2018-06-14", now: Self.now, timeZone: .gmt)
            == .failure(FilterCommandError("time 2018-06-14..2018-06-14 is empty: the end is excluded (:time 2018-06-14..<a later time>)")))
        guard case .success = FilterCommand.parse("time 2018-06-10..2018-06-14", now: Self.now, timeZone: .gmt) else {
            Issue.record("a range in order is a filter")
            return
        }
    }

    /// `:mag 5+` on the line: the whole state after it is the state before with the filter, its
    /// row filter, the history and the summary, and nothing else (the selection stays).
    @Test func aMagnitudeFilterChangesTheFiltersTheHistoryAndTheSummaryOnly() throws {
        let (source, records) = try Self.makeSource()
        defer { source.close() }
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        model.state.now = Date(timeIntervalSince1970: Double(Self.now) / 1000)
        try model.restore(selectedCode: "f105", topCode: nil)  // magnitude 5
        var expected = model.state
        try Self.run("mag 5+", model)
        let kept = records.filter { ($0.magnitude ?? 0) >= 5 }.count
        expected.filters = ["mag 5+"]
        expected.rowFilters = [.magnitude(5...Double.greatestFiniteMagnitude)]
        expected.commandHistory = ["mag 5+"]
        expected.status.message = "Filters mag 5+: \(kept) quakes; :clear removes them"
        expected.status.filterReport = expected.status.message
        expected.messageLog = model.state.messageLog
        expected.cursorLine = model.state.cursorLine
        expected.topLine = model.state.topLine
        expected.topCode = model.state.topCode
        expected.layout = model.state.layout  // the filtered list's sections
        expected.results = model.state.results
        expected.restoredPlacement = nil  // the first key leaves the restored screen
        #expect(model.state == expected)
        #expect(model.state.messageLog.entries.last?.text == "Filters mag 5+: \(kept) quakes; :clear removes them")
        #expect(try Self.codes(model) == Set(records.filter { ($0.magnitude ?? 0) >= 5 }.map(\.code)))
    }
}

/// The filters' report on the status line counts what the header counts at every frame (issue 52:
/// it kept the provisional window's count after the exact one came).
@Suite struct FilterReportTests {
    /// The header's count as drawn, and the status line's message.
    static func counts(_ model: BrowserModel) throws -> (header: String, status: String?) {
        let screen = try model.screenModel(FrameContext(now: FilterCommandTests.now, isLive: true))
        let header = screen.header.isCountPending ? "counting…" : CountFormat.quakes(screen.header.count)
        return (header, screen.status.message?.text)
    }

    /// A model whose `:mag 5+` is being counted: the real engine on its provisional path, the
    /// count running in the background (`Counts` says when it is ready).
    static func filteredWhileCounting() throws -> (BrowserModel, Counts, ModelStore, [QuakeRecord]) {
        let (source, records) = try FilterCommandTests.makeSource()
        let (model, counts) = try source.provisionalModel(AppState(sceneID: "t", settings: BrowserModelTests.utc, columns: 80, rows: 24))
        model.state.now = Date(timeIntervalSince1970: Double(FilterCommandTests.now) / 1000)
        try model.restore(selectedCode: "f105", topCode: nil)
        counts.goProvisional()
        try FilterCommandTests.run("mag 5+", model)
        return (model, counts, source, records)
    }

    @Test func theReportIsPendingWhileCountingThenExactThenClearedByAKey() throws {
        let (model, counts, source, records) = try Self.filteredWhileCounting()
        defer { source.close() }
        // Counting: neither the header nor the status line states the window's rows as the count.
        #expect(model.state.results.isProvisional)
        #expect(try Self.counts(model) == ("counting…", "Filters mag 5+: counting…; :clear removes them"))
        #expect(model.state.messageLog.entries.last?.text != "Filters mag 5+: counting…; :clear removes them")
        // The count settles: both say the exact count, and the log keeps it.
        try counts.settle(model)
        let kept = CountFormat.quakes(records.filter { ($0.magnitude ?? 0) >= 5 }.count)
        #expect(try Self.counts(model) == (kept, "Filters mag 5+: \(kept); :clear removes them"))
        #expect(model.state.messageLog.entries.last?.text == "Filters mag 5+: \(kept); :clear removes them")
        // `:clear`: counting again, then the whole list.
        try FilterCommandTests.run("clear", model)
        #expect(try Self.counts(model) == ("counting…", "No filters: counting…"))
        try counts.settle(model)
        #expect(try Self.counts(model) == (CountFormat.quakes(records.count), "No filters: \(CountFormat.quakes(records.count))"))
        // A key clears the report; a later answer does not bring it back.
        try model.send(.moveDown)
        try source.upsert(.fixture("f999", magnitude: 6, place: "Late", time: FilterCommandTests.now))
        try model.send(.storeChanged)
        #expect(try Self.counts(model).status == nil)
    }

    /// `:clear` with the search and `m` still narrowing the list: the report says they apply,
    /// so its count is not read as the store's.
    @Test func noFiltersNamesWhatStillNarrowsTheList() throws {
        let (source, records) = try FilterCommandTests.makeSource()
        defer { source.close() }
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        model.state.now = Date(timeIntervalSince1970: Double(FilterCommandTests.now) / 1000)
        try model.restore(selectedCode: nil, topCode: nil)
        try FilterCommandTests.run("clear", model)
        #expect(try Self.counts(model).status == "No filters: \(CountFormat.quakes(records.count))")
        try model.send(.cycleMinimumMagnitude)
        let minimum = try #require(model.state.settings.minimumMagnitude)
        try FilterCommandTests.run("clear", model)
        let shown = "have magnitude \(MagnitudeBin.threshold(minimum)) or more"
        #expect(try Self.counts(model).status == "No filters: \(CountFormat.quakes(model.results.count)); the list still shows only quakes that \(shown)")
        try model.send(.beginSearch)
        try model.send(.searchInput("place"))
        try model.send(.commitSearch)
        try FilterCommandTests.run("clear", model)
        #expect(try Self.counts(model).status
                    == "No filters: \(CountFormat.quakes(model.results.count)); the list still shows only quakes that match “place” and \(shown)")
    }

    @Test func aMessageFromOutsideIsNotOverwrittenByTheReport() throws {
        let (model, counts, source, _) = try Self.filteredWhileCounting()
        defer { source.close() }
        try model.send(.showMessage("Refreshed: 3 new quakes", isError: false))
        try counts.settle(model)
        #expect(try Self.counts(model).status == "Refreshed: 3 new quakes")
    }
}

/// An empty list names everything that narrows it, and what undoes each (issue 56: it named only
/// the search when a filter was the cause).
@Suite struct EmptyListTests {
    @Test func anEmptyListNamesTheSearchAndTheFilters() throws {
        let (source, _) = try FilterCommandTests.makeSource()
        defer { source.close() }
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        model.state.now = Date(timeIntervalSince1970: Double(FilterCommandTests.now) / 1000)
        try model.restore(selectedCode: nil, topCode: nil)
        try FilterCommandTests.run("depth 600+", model)
        try model.send(.beginSearch)
        for character in "place 1" { try model.send(.searchInput(String(character))) }
        let screen = try model.screenModel(FrameContext(now: FilterCommandTests.now, isLive: true))
        #expect(model.state.results.count == 0)
        #expect(screen.list.emptyMessage == "No quakes match “place 1” and pass :depth 600+. Esc clears the search; :clear removes the filters.")
        // One cause alone keeps its own sentence.
        try model.send(.cancelSearch)
        let filtered = try model.screenModel(FrameContext(now: FilterCommandTests.now, isLive: true))
        #expect(filtered.list.emptyMessage == "No quakes pass the filters (depth 600+). :clear removes them.")
    }
}

/// A `:time` day is a day of the zone the list shows (issue 31): when the user changes the zone
/// (`quaketui config timeZone`, any pane), the day as typed is filtered again in the new zone.
@Suite struct TimeFilterZoneTests {
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    /// 2023-11-10 in UTC and in Tokyo (9 hours ahead), ms since the epoch.
    static let utcDay: Int64 = 1_699_574_400_000
    static let tokyoDay: Int64 = utcDay - 9 * 3_600_000

    @Test func aDayFilterIsAppliedAgainInTheNewZone() throws {
        let (source, records) = try FilterCommandTests.makeSource()
        defer { source.close() }
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        model.state.now = Date(timeIntervalSince1970: Double(FilterCommandTests.now) / 1000)
        model.state.settings.localTimeZone = Self.tokyo  // the machine's zone, as `local` means it
        try model.restore(selectedCode: nil, topCode: nil)
        try FilterCommandTests.run("time 2023-11-10", model)
        let day = FilterCommandTests.day
        #expect(model.state.rowFilters == [.time(from: Self.utcDay, until: Self.utcDay + day)])
        func codes(from start: Int64) -> Set<String> {
            Set(records.filter { $0.time >= start && $0.time < start + day }.map(\.code))
        }
        #expect(try FilterCommandTests.codes(model) == codes(from: Self.utcDay))

        var settings = model.state.settings
        settings.timeZone = .local
        var expected = model.state
        try model.send(.settingsChanged(settings))
        expected.settings = settings
        expected.rowFilters = [.time(from: Self.tokyoDay, until: Self.tokyoDay + day)]  // the filter as typed: the same day
        expected.cursorLine = model.state.cursorLine
        expected.topLine = model.state.topLine
        expected.topCode = model.state.topCode
        expected.selectedCode = model.state.selectedCode
        expected.layout = model.state.layout  // Tokyo's day sections
        expected.results = model.state.results
        #expect(model.state == expected)
        #expect(model.state.filters == ["time 2023-11-10"])
        #expect(model.state.request == expected.request)
        #expect(model.state.request.timeZone == Self.tokyo)
        #expect(try FilterCommandTests.codes(model) == codes(from: Self.tokyoDay))
        #expect(codes(from: Self.tokyoDay) != codes(from: Self.utcDay) && !codes(from: Self.tokyoDay).isEmpty)

        // And back to UTC: the UTC day again, whatever the zone changes were between.
        try model.send(.settingsChanged({ var utc = settings; utc.timeZone = .utc; return utc }()))
        #expect(model.state.rowFilters == [.time(from: Self.utcDay, until: Self.utcDay + day)])
        #expect(try FilterCommandTests.codes(model) == codes(from: Self.utcDay))
    }

    /// Only `:time` depends on the zone: a `:since` keeps the moment it counts from, and the
    /// other filters stay as they were.
    @Test func otherFiltersKeepTheirRangesWhenTheZoneChanges() {
        let since: [RowFilter] = [.depth(0...70), .time(from: 42, until: nil)]
        #expect(FilterCommand.rowFilters(since, of: ["depth 0-70", "since 24h"], in: Self.tokyo) == since)
        let day: [RowFilter] = [.time(from: Self.utcDay, until: Self.utcDay + FilterCommandTests.day), .felt]
        #expect(FilterCommand.rowFilters(day, of: ["time 2023-11-10", "felt"], in: Self.tokyo)
                == [.time(from: Self.tokyoDay, until: Self.tokyoDay + FilterCommandTests.day), .felt])
        #expect(FilterCommand.rowFilters([.felt], of: ["felt"], in: Self.tokyo) == [.felt])
    }
}

extension FilterCommandTests {
    /// Issue 57.4: a bound typed with more digits than a number holds exactly (10^19 and more, or
    /// more than 15 significant digits) is refused saying so; it used to become `mag 1e+19+`, a text
    /// the line itself refuses, and match every quake. What is accepted is written back as typed,
    /// needless zeros aside, and parses again to the same filter.
    @Test func aBoundWithMoreDigitsThanANumberHoldsIsRefusedSayingSo() {
        let why = "has more digits than a number can hold exactly (at most 15 significant digits, and 15 before the point)"
        #expect(FilterCommand.parse("mag 9999999999999999999", now: Self.now) == .failure(FilterCommandError(
            "mag 9999999999999999999: '9999999999999999999' \(why); use a magnitude such as 4.5")))
        #expect(FilterCommand.parse("depth 0-10000000000000000000", now: Self.now) == .failure(FilterCommandError(
            "depth 0-10000000000000000000: '10000000000000000000' \(why); use a depth in km such as 70")))
        #expect(FilterCommand.parse("mag 4.0000000000000001", now: Self.now) == .failure(FilterCommandError(
            "mag 4.0000000000000001: '4.0000000000000001' \(why); use a magnitude such as 4.5")))
        let top = Double.greatestFiniteMagnitude
        for (line, text, filter) in [("mag 999999999999999", "mag 999999999999999+", RowFilter.magnitude(999_999_999_999_999...top)),
                                     ("mag 04.50-6.0", "mag 4.5-6", .magnitude(4.5...6)), ("depth -0.5-0", "depth -0.5-0", .depth(-0.5...0))] {
            #expect(FilterCommand.parse(line, now: Self.now) == .success(.filter(kind: String(text.prefix(while: { $0 != " " })), text: text, filter)), "\(line)")
            #expect(FilterCommand.parse(text, now: Self.now) == .success(.filter(kind: String(text.prefix(while: { $0 != " " })), text: text, filter)), "\(text)")
        }
    }
}
