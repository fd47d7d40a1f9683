import Foundation
import QuakeModel
import QuakeStore
import QuakeTestSupport
import Testing

/// What the screen says is true at every frame (issue 52), with a busy loop on every core and
/// the budget users run with: the status line's filter report counts what the header counts
/// (pending while the list is counted, then exact), the header and `n` name the real number of
/// new quakes, and a delete takes the new quakes it removed off the count.
@Suite(.waitsOnProcesses, .enabled(if: TmuxSession.isAvailable, "needs tmux (bash .ci/run installs it)"), .serialized)
struct TruthfulCountsTests {
    /// The environment of a launch: the window budget users run with (6 ms), named here so that
    /// the harness's default cannot relax it.
    static let usersBudget = ["QUAKETUI_WINDOW_BUDGET_MS": "6"]

    @Test func theFilterReportAndTheHeaderAgreeAtAMillionQuakesUnderLoad() throws {
        let quakes = 1_000_000
        let store = try TestStore()
        defer { store.directory.remove() }
        try store.generate(count: quakes)
        store.container.close()
        // `generate`'s formulas, counted independently: magnitude (i % 80) / 10 − 0.5, none when
        // i % 97 = 0; depth i % 700.
        let magnitudeSixUp = (0..<quakes).count { $0 % 97 != 0 && $0 % 80 >= 65 }
        let depthHundredUp = (0..<quakes).count { $0 % 700 >= 100 }

        let tmux = try TmuxSession(columns: 160, rows: 24)
        defer { tmux.close() }
        let load = try BusyCores()
        defer { load.stop() }
        let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", store.directory.path, "--scene", "t"],
                                  environment: Self.usersBudget)
        try tmux.waitForScreen(pane, timeout: 120, "the first frame") { $0.header.count == "1,000,000 quakes" }

        let steps: [(line: String, report: String, count: Int)] = [
            ("mag 6", "Filters mag 6+", magnitudeSixUp),
            ("clear", "No filters", quakes),
            ("depth 100+", "Filters depth 100+", depthHundredUp),
        ]
        for step in steps {
            try tmux.send(pane, ":")
            try tmux.send(pane, step.line, literal: true)
            try tmux.send(pane, "Enter")
            let exact = CountFormat.quakes(step.count)
            let settled = "\(step.report): \(exact)" + (step.report == "No filters" ? "" : "; :clear removes them")
            // Every frame on the way says the exact count or that it is counting, never another number.
            var seen: [String] = []
            // `settled: false`: the pending frames are read too, to check what they say.
            let screen = try tmux.waitForScreen(pane, timeout: 120, "the report of :\(step.line)", settled: false) { screen in
                let message = screen.status.message ?? ""
                if message.hasPrefix(step.report) { seen.append(message) }
                return message == settled && screen.header.count == exact
            }
            #expect(screen.header.count == exact, "\(screen)")
            let pending = "\(step.report): counting…" + (step.report == "No filters" ? "" : "; :clear removes them")
            #expect(seen.allSatisfy { $0 == settled || $0 == pending }, "\(Set(seen))")
        }

        // New quakes from another process, in depth order: their merge is over its budget at a
        // million rows (a band of them), so the list stays as it was while it is counted again,
        // and the header's `N new` waits for that count too.
        try tmux.send(pane, ":")
        try tmux.send(pane, "clear", literal: true)
        try tmux.send(pane, "Enter")
        for sort in ["sort magnitude ↓", "sort region ↑", "sort depth ↑"] {
            try tmux.send(pane, "s")
            try tmux.waitForScreen(pane, timeout: 120, sort) { $0.header.sort == sort && $0.header.count == "1,000,000 quakes" }
        }
        var (total, new) = (quakes, 0)
        let untrue = try Self.untrueHeaders(importing: 300, prefix: "deep-", into: store.directory.url, total: &total, new: &new,
                                            on: pane, of: tmux)
        #expect(untrue == nil, "\(untrue ?? "")")
        try tmux.send(pane, "q")
    }

    /// Imports `count` new quakes from another process while `pane` is captured as fast as
    /// tmux allows, until its header says the new `total` and `new`; returns what it said beside
    /// the header before (`total` quakes, `new` of them new) and the one after, if anything (a
    /// total still being counted, `… quakes`, says nothing untrue).
    static func untrueHeaders(importing count: Int, prefix: String, into state: URL, total: inout Int, new: inout Int,
                              on pane: String, of tmux: TmuxSession) throws -> String? {
        let feed = state.appendingPathComponent("\(prefix)arrivals.geojson")
        try writeOldFeed(count, prefix: prefix, to: feed)
        func counts(_ total: Int, _ new: Int) -> String {
            "\(CountFormat.quakes(total)) | " + (new == 0 ? "-" : "\(CountFormat.grouped(new)) new")
        }
        let before = counts(total, new)
        total += count
        new += count
        let after = counts(total, new)
        let importer = try ChildProcess(QuaketuiBinary.url, ["import", "--state-dir", state.path, feed.path])
        var seen: Set<String> = []
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let screen = try tmux.screen(pane).header
            let shown = "\(screen.count ?? "-") | \(screen.new ?? "-")"
            seen.insert(shown)
            if shown == after { break }
        }
        #expect(importer.wait() == 0)
        let untrue = seen.filter { $0 != before && $0 != after && !$0.hasPrefix("… quakes") }
        return untrue.isEmpty && seen.contains(after) ? nil : "beside \(before) and \(after), the pane showed \(seen.sorted())"
    }

    /// A feed of `count` quakes in 2020, older than every generated one (2023 on), so that
    /// `delete --before 2021-01-01` removes exactly them.
    static func writeOldFeed(_ count: Int, prefix: String, to url: URL) throws {
        var text = #"{"type":"FeatureCollection","features":["#
        for i in 0..<count {
            if i > 0 { text += "," }
            let time = 1_590_000_000_000 + Int64(i) * 60_000
            text += #"{"type":"Feature","properties":{"mag":2.5,"place":"\#(i % 97) km S of Old Town, Testland","time":\#(time),"updated":\#(time)},"geometry":{"type":"Point","coordinates":[10.5,20.25,5]},"id":"\#(prefix)\#(i)"}"#
        }
        text += "]}"
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// 2,000 generated quakes in a state directory, a tmux server, and a busy loop on every core.
    struct LoadedStore {
        let store: TestStore
        let tmux: TmuxSession
        let load: BusyCores
        var state: URL { store.directory.url }

        init() throws {
            store = try TestStore()
            try store.generate(count: 2_000)
            store.container.close()
            tmux = try TmuxSession(columns: 160, rows: 24)
            load = try BusyCores()
        }

        func close() {
            load.stop()
            tmux.close()
            store.directory.remove()
        }

        /// A browser on `scene` with the users' budget (and `environment`), once it drew the list.
        func launch(scene: String, environment: [String: String] = [:]) throws -> String {
            let pane = try tmux.start(QuaketuiBinary.url.path, ["--state-dir", state.path, "--scene", scene],
                                      environment: TruthfulCountsTests.usersBudget.merging(environment) { $1 })
            try tmux.waitForScreen(pane, timeout: 60, "the first frame") { $0.header.count == "2,000 quakes" }
            return pane
        }
    }

    @Test func newQuakesAreCountedWholeAndADeleteTakesThemOff() throws {
        let loaded = try LoadedStore()
        defer { loaded.close() }
        let (state, tmux) = (loaded.state, loaded.tmux)
        let pane = try loaded.launch(scene: "t")

        // A few new quakes, then deleted in another process: the count goes with them.
        let few = state.appendingPathComponent("few.geojson")
        try Self.writeOldFeed(164, prefix: "few", to: few)
        #expect(try QuaketuiBinary.run(["import", few.path], stateDirectory: state).status == 0)
        try tmux.waitForScreen(pane, timeout: 60, "164 new") { $0.header.new == "164 new" && $0.header.count == "2,164 quakes" }
        #expect(try QuaketuiBinary.run(["delete", "--before", "2021-01-01"], stateDirectory: state).status == 0)
        var screen = try tmux.waitForScreen(pane, timeout: 60, "the delete") { $0.header.count == "2,000 quakes" && $0.header.new == nil }
        try tmux.send(pane, "n")
        screen = try tmux.waitForScreen(pane, timeout: 30, "n's answer") { $0.status.message?.hasPrefix("No new quakes") == true }
        #expect(screen.status.message == "No new quakes; they are marked ● here as they arrive")

        // More than are marked one by one: the header and `n` say how many in all.
        let many = state.appendingPathComponent("many.geojson")
        try Self.writeOldFeed(6_000, prefix: "many", to: many)
        #expect(try QuaketuiBinary.run(["import", many.path], stateDirectory: state).status == 0)
        try tmux.waitForScreen(pane, timeout: 60, "6,000 new") { $0.header.new == "6,000 new" && $0.header.count == "8,000 quakes" }
        try tmux.send(pane, "n")
        screen = try tmux.waitForScreen(pane, timeout: 30, "n's answer") { $0.status.message?.hasPrefix("New quake") == true }
        #expect(screen.status.message == "New quake 1 of 5,000 marked (6,000 new)")
        #expect(try QuaketuiBinary.run(["delete", "--before", "2021-01-01"], stateDirectory: state).status == 0)
        screen = try tmux.waitForScreen(pane, timeout: 60, "the delete") { $0.header.count == "2,000 quakes" && $0.header.new == nil }
        try tmux.send(pane, "n")
        screen = try tmux.waitForScreen(pane, timeout: 30, "n's answer") { $0.status.message?.hasPrefix("No new quakes") == true }
        #expect(screen.status.message == "No new quakes; they are marked ● here as they arrive")
        try tmux.send(pane, "q")
    }

    /// Another process imports new quakes while the pane is watched as closely as tmux allows:
    /// every frame's header says the list's total and the new quakes of the same commit, the
    /// total before the import with none new, or the total after it with all of them new (or
    /// the total still being counted), never quakes in the total and not yet in `N new`, nor
    /// the other way round. Also with every merge over its budget (`QUAKETUI_MERGE_BUDGET_MS=0`,
    /// depth order): the list is then exact as of before while it is counted again, and so is
    /// `N new`.
    @Test(arguments: ["4", "0"]) func theHeadersTotalAndItsNewQuakesChangeTogether(mergeBudget: String) throws {
        let loaded = try LoadedStore()
        defer { loaded.close() }
        let (state, tmux) = (loaded.state, loaded.tmux)
        let pane = try loaded.launch(scene: "w", environment: ["QUAKETUI_MERGE_BUDGET_MS": mergeBudget])
        if mergeBudget == "0" {
            // In depth order a merge moves rows within bands: more than a few steps, so every
            // merge is counted again in the background (time order's reload reads kept counts).
            for sort in ["sort magnitude ↓", "sort region ↑", "sort depth ↑"] {
                try tmux.send(pane, "s")
                try tmux.waitForScreen(pane, timeout: 30, sort) { $0.header.sort == sort }
            }
        }
        var total = 2_000, new = 0
        for (round, count) in [6_000, 300, 2_500].enumerated() {
            let untrue = try Self.untrueHeaders(importing: count, prefix: "r\(round)-", into: state, total: &total, new: &new,
                                                on: pane, of: tmux)
            #expect(untrue == nil, "round \(round): \(untrue ?? "")")
        }
        try tmux.send(pane, "q")
    }

    /// A merge over its budget (here every merge that needs more than a few steps) leaves the
    /// list as it was, exact as of before, while it is counted again: the header never shows a
    /// count the list does not hold, and once the count is in, the new quakes are in their depth
    /// band, counted in the header, the selected quake on its screen line, and `n` walks them.
    @Test func aMergeOverItsBudgetShowsTheListAsItWasThenTheNewQuakes() throws {
        let loaded = try LoadedStore()
        defer { loaded.close() }
        let (state, tmux) = (loaded.state, loaded.tmux)
        let trace = state.appendingPathComponent("trace.txt")
        let pane = try loaded.launch(scene: "m", environment: ["QUAKETUI_MERGE_BUDGET_MS": "0", "QUAKETUI_TRACE": trace.path])
        for sort in ["sort magnitude ↓", "sort region ↑", "sort depth ↑"] {
            try tmux.send(pane, "s")
            try tmux.waitForScreen(pane, timeout: 30, sort) { $0.header.sort == sort && !$0.header.isCountPending }
        }
        // The selection kept its quake through the sorts, mid-list.
        let before = try tmux.waitForStyledScreen(pane, timeout: 30, "the selection") { $0.selectedRow != nil }
        let selected = try #require(before.selectedRow)

        let traced = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").count
        // 40 quakes at 5 km, above every generated one in the depth order, from another process.
        let feed = state.appendingPathComponent("shallow.geojson")
        try Self.writeOldFeed(40, prefix: "shallow", to: feed)
        #expect(try QuaketuiBinary.run(["import", feed.path], stateDirectory: state).status == 0)
        var counts: Set<String> = []
        let after = try tmux.waitForStyledScreen(pane, timeout: 60, "the new quakes counted") { screen in
            counts.insert(screen.header.count ?? "")
            return screen.header.count == "2,040 quakes" && screen.header.new == "40 new"
        }
        // The header said the list it showed: the old count or the new one, never pending.
        #expect(counts.isSubset(of: ["2,000 quakes", "2,040 quakes"]), "\(counts)")
        #expect(after.selectedRow == selected && after.selectedLine == before.selectedLine, "\(after)")
        // The merge went to the background: a count settled after it.
        let since = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").dropFirst(traced)
        #expect(since.contains { $0.hasPrefix("merge ") } && since.contains("counted"), "\(since)")
        try tmux.send(pane, "n")
        let first = try tmux.waitForStyledScreen(pane, timeout: 30, "n's answer") { $0.status.message?.hasPrefix("New quake") == true }
        #expect(first.status.message == "New quake 1 of 40")
        #expect(first.selectedRow?.place?.hasSuffix("km S of Old Town, Testland") == true && first.selectedRow?.isNew == true, "\(first)")
        try tmux.send(pane, "q")
    }
}
