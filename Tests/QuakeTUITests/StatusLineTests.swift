import Testing
@testable import QuakeTUI
@testable import QuakeTUIRuntime

@Suite struct StatusLineTests {
    @Test func searchProgressAndMessage() {
        var model = Fixtures.model(columns: 100, rows: 12)
        model.header.searchText = "東京"
        model.header.isSearching = true
        model.header.minimumMagnitude = 2.5
        model.header.sampleLabel = "sample data"
        model.status.progress = StatusProgress(fraction: 0.42, label: "importing all_month")
        assertSnapshot(Screen.render(model), named: "search-and-progress-100x12")
        model.status.message = StatusMessage("Scene file was corrupt; started fresh.", isError: true)
        model.header.isSearching = false
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "error-message-100x12")
        #expect(buffer[1, 11].style.foreground == .error)
    }

    @Test func progressBar() {
        #expect(StatusLineView.progressText(StatusProgress(fraction: 0.5, label: "import"), width: 10)
            == "import ▕█████░░░░░▏ 50%")
        #expect(StatusLineView.progressText(StatusProgress(fraction: 1.7, label: "import"), width: 4)
            == "import ▕████▏ 100%")
        #expect(StatusLineView.progressText(StatusProgress(fraction: nil, label: "import"), width: 4) == "import …")
    }
}

/// `? help` is always on the status line, and `sample data` / `offline` are header badges that
/// win over the scene ID (issue 15).
@Suite struct HelpAndBadgesTests {
    @Test(arguments: [40, 60, 80, 120])
    func helpStaysOnTheStatusLine(_ columns: Int) {
        let text = Screen.render(Fixtures.model(columns: columns, rows: 10)).text
        let status = String(text.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")
        #expect(status.contains("? help"), "\(status)")
    }

    @Test func aLongMessageKeepsHelp() {
        var model = Fixtures.model(columns: 80, rows: 10)
        model.status.message = StatusMessage(String(repeating: "The refresh failed because the network is down. ", count: 3),
                                             isError: true)
        let status = String(Screen.render(model).text.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")
        #expect(status.contains("? help"), "\(status)")
        #expect(status.contains("The refresh failed"), "\(status)")
    }

    /// What narrows the list stays in the header; the scene's label gives way first, whole or
    /// not at all below a readable stub (issue 56: at 60×15 the search was gone, the scene ID kept).
    @Test func whatNarrowsTheListWinsOverTheSceneID() {
        var model = Fixtures.model(columns: 60, rows: 15)
        model.header.sceneID = "tmux-t1-0-0"
        model.header.searchText = "japan"
        model.header.filters = ["depth 100+"]
        let header = { String(Screen.render(model).text.split(separator: "\n").first ?? "") }
        #expect(header() == " quaketui │ 6 quakes │ sort time ↓ │ :depth 100+ │ /japan")
        model.header.filters = []
        #expect(header() == " quaketui │ 6 quakes │ sort time ↓ │ /japan scene tmux-t1-0…")
        model.size.columns = 64
        #expect(header() == " quaketui │ 6 quakes │ sort time ↓ │ /japan   scene tmux-t1-0-0")
    }

    @Test(arguments: [40, 80, 160])
    func badgesWinOverTheSceneID(_ columns: Int) {
        var model = Fixtures.model(columns: columns, rows: 10)
        model.header.sampleLabel = "sample data"
        model.header.isOffline = true
        model.header.sceneID = "tmux-a-very-long-session-name-0-1"
        let header = String(Screen.render(model).text.split(separator: "\n").first ?? "")
        #expect(header.contains("sample data"), "\(header)")
        #expect(header.contains("offline"), "\(header)")
        assertSnapshot(text: header, named: "header-badges-\(columns)")
    }
}
