import Foundation
import QuakeModel
import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The message log (`L`): messages that replace each other or are cut at the pane's width are
/// all kept, with their time, and read whole in the overlay.
@Suite struct MessageLogTests {
    static let context = FrameContext(now: 1_700_300_000_000, isLive: true, localTimeZone: TimeZone(identifier: "UTC")!)
    static let long = "Refresh of all_month failed: the server at earthquake.usgs.gov could not be reached "
        + "(connection refused); check the network or a proxy, then press r to try again. The sample data stays shown."

    static let save = "Could not save scene a: the disk is full."
    static let defaults = "Defaults.plist was not a property list; starting from defaults."

    /// A model on BrowserModelTests' quakes, restored with nothing selected, `rows` tall.
    static func restoredModel(rows: Int) throws -> BrowserModel {
        let model = try BrowserModelTests.makeModel(BrowserModelTests.makeSource(), rows: rows)
        try model.restore(selectedCode: nil, topCode: nil)
        return model
    }

    @Test func everyMessageIsKeptAndReadWholeInTheOverlay() throws {
        let source = BrowserModelTests.makeSource()
        let model = try BrowserModelTests.makeModel(source, rows: 24)
        defer { model.close() }
        try model.restore(selectedCode: nil, topCode: nil)
        try model.send(.showMessage("The scene file was damaged and set aside; the scene starts fresh.", isError: true),
                       at: Date(timeIntervalSince1970: 1_700_000_000))  // 22:13:20 UTC
        try model.send(.refreshFinished(message: Self.long, failed: true, at: Date()))
        try model.send(.moveDown)  // a key clears the status line…
        #expect(model.state.status.message == nil)
        #expect(model.state.messageLog.entries.map(\.text).count == 2)  // …not the log

        // Cut on the status line, which says where to read it whole.
        try model.send(.showMessage(Self.long, isError: true))
        let cut = Screen.render(try model.screenModel(Self.context)).lines.last!
        #expect(cut.contains("L whole message") && cut.contains("? help"), "\(cut)")

        try model.send(try #require(KeyMap.action(for: .character("L"), in: model.state)))
        let text = Screen.render(try model.screenModel(Self.context)).text
        #expect(text.contains("Messages, newest first"))
        #expect(text.contains("22:13:20  The scene file was damaged and set aside"))
        // The long message is there whole, wrapped: every word of it on screen.
        for word in Self.long.split(separator: " ") { #expect(text.contains(word), "\(word) missing:\n\(text)") }
        #expect(model.state.messageLog.entries.count == 3)
        try model.send(try #require(KeyMap.action(for: .escape, in: model.state)))
        #expect(!model.state.logVisible)
    }

    @Test func theLogScrollsWhenItDoesNotFit() throws {
        let model = try Self.restoredModel(rows: 12)
        for index in 0..<30 { try model.send(.showMessage("message \(index)", isError: false)) }
        try model.send(.toggleMessageLog)
        #expect(Screen.render(try model.screenModel(Self.context)).text.contains("message 29"))
        for _ in 0..<100 { try model.send(try #require(KeyMap.action(for: .character("j"), in: model.state))) }
        let text = Screen.render(try model.screenModel(Self.context)).text
        #expect(text.contains("message 0") && !text.contains("message 29"))
    }

    /// A notice from the background joins the message still on the status line (no key has
    /// been pressed since it came, so nobody has read it) instead of replacing it, and one the
    /// status line already says is dropped: a scene save that keeps failing cannot push a new
    /// notice (a broken defaults.plist) off the screen 30 ms after it came. The log holds each once.
    @Test func aNoticeJoinsTheUnreadMessageInsteadOfReplacingIt() throws {
        let model = try Self.restoredModel(rows: 24)
        let (save, defaults) = (Self.save, Self.defaults)
        try model.send(.showNotices([save]))
        #expect(model.state.status.shown == save && model.state.status.showsError)
        try model.send(.showNotices([save, defaults]))  // the save failed again: already said
        #expect(model.state.status.shown == "\(defaults) \(save)")
        try model.send(.showNotices([save]))
        #expect(model.state.status.shown == "\(defaults) \(save)")
        #expect(model.state.messageLog.entries.map(\.text) == [save, defaults])
        try model.send(.moveDown)  // read: a key clears the line, and the next failure shows again
        #expect(model.state.status.shown == nil)
        try model.send(.showNotices([save, defaults, save]))  // in order, each once
        #expect(model.state.status.shown == "\(save) \(defaults)")
        #expect(model.state.messageLog.entries.map(\.text) == [save, defaults, save, defaults])
    }

    /// A message from the background (a refresh's result, an alert command's failure) goes after
    /// the unread notices instead of over them; a later one replaces only itself; a key clears
    /// all, and the next background message stands alone. (Found by the stress run: an automatic
    /// refresh that failed while the notices were shown wiped them off the status line.)
    @Test func backgroundMessagesGoAfterUnreadNotices() throws {
        let model = try Self.restoredModel(rows: 24)
        let (save, defaults) = (Self.save, Self.defaults)
        let failed = "Refresh failed: cannot download all_day."
        try model.send(.showNotices([save]))
        try model.send(.showNotices([defaults]))
        try model.send(.refreshFinished(message: failed, failed: true, at: Date()))
        #expect(model.state.status.shown == "\(defaults) \(save) \(failed)" && model.state.status.showsError)
        try model.send(.showNotices([save]))  // the save failed again: already on the line
        #expect(model.state.status.shown == "\(defaults) \(save) \(failed)")
        try model.send(.showMessage("The alert command was not run: no such file", isError: true))
        #expect(model.state.status.shown == "\(defaults) \(save) The alert command was not run: no such file")
        try model.send(.refreshFinished(message: "Refreshed all_day: 2 new quakes", failed: false, at: Date()))
        #expect(model.state.status.shown == "\(defaults) \(save) Refreshed all_day: 2 new quakes")
        try model.send(.moveDown)
        #expect(model.state.status.shown == nil)
        try model.send(.refreshFinished(message: failed, failed: true, at: Date()))
        #expect(model.state.status.shown == failed)
        // The log holds each message alone, not with the notices it followed on the line.
        #expect(model.state.messageLog.entries.map(\.text) == [save, defaults, failed, "The alert command was not run: no such file",
                                                               "Refreshed all_day: 2 new quakes", failed])
    }

    /// Issue 31: a new user offline (the store still holds the bundled sample) reads a few words
    /// that fit, not a DNS error cut at the pane's edge; `L` has the whole sentence.
    ///
    /// Issue 56.15: `r` failing again on the sample changes the line (`still offline`), and on
    /// real data `r` offline says as little (`offline · L why`), not a sentence cut at the edge.
    @Test(arguments: [
        ("Refresh of all_month failed: cannot download: the host earthquake.usgs.gov could not be found (offline or DNS failure?)",
         FailureKind.dnsFailure, "offline — showing the bundled sample · r retries", "offline · L why"),
        ("Refresh of all_month failed: the server answered HTTP 503 (Service Unavailable)",
         FailureKind.http(503), "HTTP 503 — showing the bundled sample · r retries", "refresh failed: HTTP 503 · L why"),
    ])
    func aFailedRefreshSaysItInAFewWordsAndLogsTheSentence(whole: String, kind: FailureKind, short: String, real: String) throws {
        let model = try Self.restoredModel(rows: 24)
        func statusLine(_ left: String) -> String {
            let left = " \(left)  ? help"
            return left + String(repeating: " ", count: 80 - left.count - 6) + "● live"
        }
        try model.send(.sampleChanged(true))
        try model.send(.refreshFinished(message: whole, failed: true, at: Date(), kind: kind))
        #expect(model.state.status.message == short && model.state.status.offline)
        #expect(Screen.render(try model.screenModel(Self.context)).lines.last! == statusLine(short))
        #expect(model.state.messageLog.entries.map(\.text) == [whole])
        // `r` again, failing again: the line says it is the same state, again.
        try model.send(.refresh)
        try model.send(.refreshFinished(message: whole, failed: true, at: Date(), kind: kind))
        #expect(Screen.render(try model.screenModel(Self.context)).lines.last! == statusLine("still " + short))
        // Real data (no sample): as few words, and `L` for the sentence.
        try model.send(.sampleChanged(false))
        try model.send(.refresh)
        try model.send(.refreshFinished(message: whole, failed: true, at: Date(), kind: kind))
        #expect(Screen.render(try model.screenModel(Self.context)).lines.last! == statusLine(real))
        #expect(model.state.messageLog.entries.map(\.text) == [whole, whole, whole])
    }
}
