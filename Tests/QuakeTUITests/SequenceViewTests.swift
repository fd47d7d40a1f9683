import Foundation
import QuakeModel
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// The sequence view (`A`, issue 54): its update (the selected quake's sequence asked for with a
/// generation, the newest answer kept, a store change asking again, the pane shared with the
/// detail and the statistics) compared as whole states, and its frames as snapshots.
@Suite struct SequenceViewTests {
    static let day: Int64 = 86_400_000
    static func model() throws -> BrowserModel { try BrowserUpdateTests.makeModel(BrowserUpdateTests.makeSource()) }
    static let at = Date(timeIntervalSince1970: Double(BrowserUpdateTests.start + 4 * 86_400_000) / 1000)
    static var atMilliseconds: Int64 { BrowserUpdateTests.start + 4 * day }

    /// A Ridgecrest-like sequence: Omori times (K 60, c 0.05, p 1.1) over 20 days at evenly
    /// spaced quantiles of the rescaled process, magnitudes for b = 1 from M 2.0, so the same
    /// every run.
    static func sequence(count: Int = 600, code: String = "f23", now: Int64 = BrowserUpdateTests.start + 25 * 86_400_000) -> AftershockSequence {
        let (k, c, p) = (60.0, 0.05, 1.1)
        let q = 1 - p, span = 20.0
        let total = k * (pow(span + c, q) - pow(c, q)) / q
        let main = AftershockSequence.Mainshock(code: code, time: BrowserUpdateTests.start, magnitude: 7.1, latitude: 35.77,
                                                longitude: -117.6, place: "2019 Ridgecrest Earthquake Sequence")
        let aftershocks = (0 ..< count).map { index -> AftershockSequence.Aftershock in
            let u = (Double(index) + 0.5) / Double(count) * total
            let t = pow(q * u / k + pow(c, q), 1 / q) - c
            let quantile = (Double((index * 7_919) % count) + 0.5) / Double(count)
            let magnitude = ((2.0 - log10(1 - quantile)) * 10).rounded() / 10
            return .init(time: BrowserUpdateTests.start + Int64(t * 86_400_000), magnitude: magnitude)
        }
        return AftershockSequence(mainshock: main, aftershocks: aftershocks, end: BrowserUpdateTests.start + 20 * day, now: now)
    }

    @Test func aOpensTheSelectedQuakesSequenceAndKeepsTheNewestAnswer() throws {
        let model = try Self.model()
        let code = try #require(model.state.selectedCode)
        #expect(KeyMap.action(for: .character("A"), in: model.state) == .toggleSequence)
        var expected = model.state
        let effects = try model.send(.toggleSequence, at: Self.at)
        #expect(effects == [.saveScene, .computeSequence(code: code, now: Self.atMilliseconds, generation: 1)])
        expected.sequence.mainshock = code
        expected.sequence.requested = code
        expected.sequence.generation = 1
        expected.sequence.isPending = true
        expected.restoredPlacement = nil
        #expect(model.state.app == expected.app)

        // An older generation's answer is dropped; the newest is kept.
        let waiting = model.state
        #expect(try model.send(.sequenceComputed(generation: 0, Self.sequence(count: 3))) == [])
        #expect(model.state == waiting)
        try model.send(.sequenceComputed(generation: 1, Self.sequence(code: code)))
        expected = waiting
        expected.sequence.result = Self.sequence(code: code)
        expected.sequence.isPending = false
        #expect(model.state == expected)
        #expect(KeyMap.action(for: .escape, in: model.state) == .closeSequence)
        #expect(KeyMap.action(for: .character("j"), in: model.state) == .moveDown)
    }

    /// An import anywhere: the open view asks again (new aftershocks, a forecast from now) and
    /// keeps what it shows, marked pending, until the answer; a closed view asks nothing.
    @Test func aStoreChangeAsksAgainKeepingTheSequence() throws {
        let model = try Self.model()
        #expect(!(try model.send(.storeChanged)).contains { if case .computeSequence = $0 { true } else { false } })
        try model.send(.toggleSequence, at: Self.at)
        let code = try #require(model.state.sequence.mainshock)
        try model.send(.sequenceComputed(generation: 1, Self.sequence(code: code)))
        var expected = model.state
        #expect(try model.send(.storeChanged, at: Self.at) == [.computeSequence(code: code, now: Self.atMilliseconds, generation: 2)])
        expected.sequence.generation = 2
        expected.sequence.isPending = true
        #expect(model.state == expected)
        // Moving the selection leaves the view on its mainshock: nothing is asked.
        let effects = try model.send(.moveDown)
        #expect(!effects.contains { if case .computeSequence = $0 { true } else { false } })
        #expect(model.state.sequence.mainshock == code)
    }

    /// `A` on another quake shows that one's; `A` on the one shown, or `Esc`, closes the view
    /// (stopping a computation running); the detail view and the statistics share the pane.
    @Test func keysOpenSwitchAndCloseTheView() throws {
        let model = try Self.model()
        try model.send(.toggleSequence, at: Self.at)
        let first = try #require(model.state.sequence.mainshock)
        #expect(try model.send(.toggleSequence) == [.saveScene, .cancelSequence])
        #expect(model.state.sequence == { var s = SequenceState(); s.generation = 1; return s }())

        try model.send(.toggleSequence, at: Self.at)
        try model.send(.moveDown)
        let second = try #require(model.state.selectedCode)
        #expect(second != first)
        #expect(try model.send(.toggleSequence, at: Self.at) == [.saveScene, .computeSequence(code: second, now: Self.atMilliseconds, generation: 3)])
        #expect(model.state.sequence.mainshock == second && model.state.sequence.result == nil)
        try model.send(.sequenceComputed(generation: 3, Self.sequence(code: second)))
        #expect(try model.send(.closeSequence) == [.saveScene])
        #expect(!model.state.sequence.isPresented)

        try model.send(.toggleSequence, at: Self.at)
        try model.send(.openDetail)
        #expect(model.state.detailPresented && !model.state.sequence.isPresented)
        try model.send(.toggleSequence, at: Self.at)
        #expect(!model.state.detailPresented && model.state.sequence.isPresented)
        try model.send(.toggleStatistics)
        #expect(model.state.statistics.isPresented && !model.state.sequence.isPresented)
        try model.send(.toggleSequence, at: Self.at)
        #expect(!model.state.statistics.isPresented && model.state.sequence.isPresented)
    }

    /// A failure (a quake without a magnitude) is said in the view.
    @Test func aQuakeWithoutASequenceSaysWhy() throws {
        let model = try Self.model()
        try model.send(.toggleSequence, at: Self.at)
        try model.send(.sequenceFailed(generation: 1, message: "Quake f23 has no usable magnitude: a sequence's radius comes from its mainshock's magnitude."))
        #expect(model.state.sequence.failure != nil && !model.state.sequence.isPending)
        let lines = try BrowserUpdateTests.text(model)
        #expect(lines.contains { $0.contains("has no usable magnitude") })
    }

    /// A scene restored with the view open asks for its sequence once.
    @Test func aRestoredOpenViewAsksAgain() throws {
        var state = AppState(sceneID: "t", settings: AppSettings(timeZone: .utc), columns: 80, rows: 12)
        state.sequence.mainshock = "f23"
        let model = try BrowserModel(state: state, source: BrowserUpdateTests.makeSource())
        try model.restore(AppState.RestoredSelection())
        // From the moment of the relaunch, which no action has brought yet.
        #expect(model.resumeSequence(at: Self.at) == [.computeSequence(code: "f23", now: Self.atMilliseconds, generation: 1)])
        #expect(model.resumeSequence(at: Self.at) == [])
    }

    static func screen(columns: Int, rows: Int, _ sequence: SequenceModel) -> ScreenModel {
        var model = Fixtures.model(columns: columns, rows: rows)
        model.sequence = sequence
        return model
    }

    @Test(arguments: [(80, 24), (120, 35)])
    func theSequenceView(columns: Int, rows: Int) {
        let model = Self.screen(columns: columns, rows: rows, SequenceModel(mainshock: "f23", sequence: Self.sequence()))
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "sequence-\(columns)x\(rows)")
        #expect(buffer.text.contains("Omori K "))
        #expect(buffer.text.contains("the sequence's own parameters"))
    }

    /// Thirty aftershocks: no fit, the reason, the generic parameters.
    @Test func aYoungSequenceUsesTheGenericParameters() {
        let model = Self.screen(columns: 80, rows: 24, SequenceModel(mainshock: "f23", sequence: Self.sequence(count: 30)))
        let buffer = Screen.render(model)
        assertSnapshot(buffer, named: "sequence-generic-80x24")
        // The title names Reasenberg & Jones; the line names them again where it has room.
        #expect(buffer.text.contains("generic California parameters: a -1.67 b 0.91 p 1.08 c 0.050 d"))
        let wide = Screen.render(Self.screen(columns: 200, rows: 30, SequenceModel(mainshock: "f23", sequence: Self.sequence(count: 30))))
        #expect(wide.text.contains("Reasenberg & Jones's (1989) generic California parameters: a -1.67 b 0.91 p 1.08 c 0.050 d"))
        #expect(buffer.text.contains("a fit needs 50"))
    }

    /// A sequence ended by a gap in the store's coverage says so, wrapped to the pane.
    @Test func aSequenceEndedByAGapSaysSoInFull() {
        let main = AftershockSequence.Mainshock(code: "f23", time: BrowserUpdateTests.start, magnitude: 7.1, latitude: 35.77,
                                                longitude: -117.6, place: "2019 Ridgecrest Earthquake Sequence")
        let last = BrowserUpdateTests.start + 13 * Self.day
        let sequence = AftershockSequence(mainshock: main, aftershocks: (1 ... 30).map { .init(time: BrowserUpdateTests.start + Int64($0) * 3_600_000, magnitude: 3) },
                                          end: last + 2_199 * Self.day, coverageGap: .init(from: last, to: last + 2_199 * Self.day), now: last)
        let buffer = Screen.render(Self.screen(columns: 80, rows: 30, SequenceModel(mainshock: "f23", sequence: sequence)))
        let said = buffer.lines.map { $0.trimmingCharacters(in: .whitespaces) }.drop { !$0.hasPrefix("The sequence ends ") }.prefix(3)
        #expect(said.joined(separator: " ").hasPrefix(sequence.endNote!), "\(buffer.text)")
    }

    @Test func dotsUntilTheSequenceIsThere() {
        let buffer = Screen.render(Self.screen(columns: 80, rows: 24, SequenceModel(mainshock: "f23", sequence: nil, isPending: true)))
        #expect(buffer.lines.contains { $0.contains("Sequence of f23  …") })
    }
}
