@testable import quaketui
import Testing

/// Notices that arrive together share the status line: the new ones first, so one that is
/// already showing (a save that failed again) cannot push them off the pane's edge.
@Suite struct BrowserNoticesTests {
    @Test func aNoticeAlreadyShowingGoesLast() {
        let save = "Could not save scene a: the disk is full"
        let defaults = "Defaults.plist was not a property list"
        #expect(BrowserNotices.ordered([save, defaults], showing: save) == [defaults, save])
        #expect(BrowserNotices.ordered([save, defaults], showing: nil) == [save, defaults])
        #expect(BrowserNotices.ordered([save, defaults], showing: "something else") == [save, defaults])
        #expect(BrowserNotices.ordered([save], showing: save) == [save])
    }

    @Test func takeJoinsEveryWaitingNoticeOnce() {
        var first = ["Could not save scene a: the disk is full"]
        var second = ["Defaults.plist was not a property list"]
        let taken = BrowserNotices.take(from: [{ first.popLast() }, { second.popLast() }],
                                        showing: "Could not save scene a: the disk is full", environment: [:])
        #expect(taken?.hasPrefix("Defaults.plist was not a property list") == true, "\(taken ?? "nil")")
        #expect(BrowserNotices.take(from: [{ first.popLast() }], environment: [:]) == nil)
    }
}
