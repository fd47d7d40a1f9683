import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import Testing

/// `g G Home End` over the help and the message log scroll them to their ends, as they move the
/// list (issue 31: `G` did nothing in the help); the key table binds them, so `?` lists them.
@Suite struct OverlayEndsTests {
    static let time = PureUpdateTests.time

    /// Sends `key` as the key table reads it in `state`.
    static func press(_ key: Key, _ state: inout BrowserState) {
        let action = KeyMap.action(for: key, in: state.app)
        #expect(action != nil, "\(key) is bound")
        if let action { _ = state.update(action, at: time) }
    }

    @Test func gAndGScrollTheHelpToItsTopAndItsEnd() {
        var state = PureUpdateTests.start()
        _ = state.update(.toggleHelp, at: Self.time)
        let maximum = Screen.maximumHelpOffset(for: Size(columns: state.columns, rows: state.rows))
        #expect(maximum > 10)
        for (end, top) in [(Key.character("G"), Key.character("g")), (.end, .home)] {
            var expected = state
            Self.press(end, &state)
            expected.helpOffset = maximum
            #expect(state == expected)
            Self.press(top, &state)
            expected.helpOffset = 0
            #expect(state == expected)
        }
    }

    @Test func gAndGScrollTheMessageLogToItsOldestAndNewestLine() {
        var state = PureUpdateTests.start()
        for index in 0..<30 { _ = state.update(.showMessage("message \(index)", isError: false), at: Self.time) }
        _ = state.update(.toggleMessageLog, at: Self.time)
        let maximum = MessageLogOverlay.maximumOffset(state.messageLog.entries, in: Rect(Size(columns: state.columns, rows: state.rows)),
                                                      zone: state.settings.resolvedTimeZone)
        #expect(maximum > 10)
        for (end, top) in [(Key.character("G"), Key.character("g")), (.end, .home)] {
            var expected = state
            Self.press(end, &state)
            expected.logOffset = maximum
            #expect(state == expected)
            Self.press(top, &state)
            expected.logOffset = 0
            #expect(state == expected)
        }
    }

    @Test func scrollingPastEitherEndStopsThereWithoutOverflow() {
        #expect(BrowserState.scrolled(3, by: .max, maximum: 40) == 40)
        #expect(BrowserState.scrolled(3, by: .min, maximum: 40) == 0)
        #expect(BrowserState.scrolled(39, by: 5, maximum: 40) == 40)
        #expect(BrowserState.scrolled(2, by: -1, maximum: 0) == 0)  // all fits: nothing to scroll
    }

    /// `?` lists the keys, from the one table.
    @Test func theHelpListsTheKeysForItsEnds() {
        #expect(HelpOverlay.entries.contains { $0.keys == "g G  Home End" && $0.action == "in ? and L: to the top / the end" })
    }
}
