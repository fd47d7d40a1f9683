import Dispatch
import Foundation
import QuakeModel
@testable import QuakeStore
@testable import QuakeTUI
@testable import QuakeTUIRuntime
import QuakeTestSupport
import Testing

/// A real store of quakes in a temp dir and the results engines over it: what `BrowserModel`'s
/// tests run on (no fake store; the update alone is tested with events fed to
/// `BrowserState.update`). Another process's commits go through the container (`upsert`,
/// `delete`, `setNotes`) and reach a model with `Action.storeChanged`.
///
/// `close()` closes the engines and removes the store; one not closed is closed when the test
/// process exits (so a helper can hand out a model alone, as tests of other things want).
///
/// ```swift
/// let store = ModelStore([.fixture("a"), .fixture("b")])
/// defer { store.close() }
/// let model = try BrowserModel(state: AppState(sceneID: "t"), source: store)
/// try store.upsert(.fixture("c"))       // "another process" commits
/// try model.send(.storeChanged)         // merged
/// ```
final class ModelStore: @unchecked Sendable {
    let store: TestStore
    private let lock = NSLock()
    private var engines: [ResultsEngine] = []
    private var closed = false

    /// A store holding `records` (a temp store that cannot be made stops the test process: the
    /// machine is broken, not the code).
    init(_ records: [QuakeRecord]) {
        do { store = try TestStore(records) } catch { fatalError("a temporary store could not be made: \(error)") }
        Self.register(self)
    }

    /// Results on the store that are exact at once (no budget: never a provisional window).
    func engine(for request: SectionedFetchRequest) throws -> ResultsEngine {
        let results = try ResultsEngine(container: store.container, request: request, budget: nil)
        lock.withLock { engines.append(results) }
        return results
    }

    /// A model whose results answer, once `Counts.goProvisional()` is called, every request as
    /// users' do when the store is slow: a provisional window around the selection at once, then
    /// the exact count in the background (`ResultsEngine.alwaysProvisional`, windows read whole).
    /// Opened exact; `Counts` takes the answers of its counts (the engine's `onCounted`).
    func provisionalModel(_ state: AppState) throws -> (BrowserModel, Counts) {
        let results = try engine(for: state.request)
        results.windowLimit = nil
        let counts = Counts(results)
        return (try BrowserModel(state: state, source: results), counts)
    }

    /// The quake `code` as stored now.
    func quake(code: String) throws -> StoredQuake? {
        try store.read { try $0.quake(code: code) }
    }

    func upsert(_ record: QuakeRecord) throws { try store.upsert([record], author: "other") }
    func delete(code: String) throws { try store.delete(code: code) }
    func setNotes(_ notes: String, code: String) throws { try store.setNotes(notes, code: code) }

    /// Closes every engine made on the store and removes it.
    func close() {
        let engines: [ResultsEngine]? = lock.withLock {
            guard !closed else { return nil }
            closed = true
            defer { self.engines = [] }
            return self.engines
        }
        guard let engines else { return }
        for results in engines { results.close() }
        store.remove()
    }

    // MARK: Closed at exit

    private static let registry = Registry()

    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var stores: [ModelStore] = []
        var hooked = false
    }

    private static func register(_ store: ModelStore) {
        registry.lock.withLock {
            registry.stores.append(store)
            guard !registry.hooked else { return }
            registry.hooked = true
            atexit { ModelStore.closeAll() }
        }
    }

    private static func closeAll() {
        for store in registry.lock.withLock({ registry.stores }) { store.close() }
    }
}

extension BrowserModel {
    /// A model on exact results over `store`.
    convenience init(state: AppState, source store: ModelStore) throws {
        try self.init(state: state, source: store.engine(for: state.request))
    }
}

/// The background counts of a provisional model's engine: their answers, in order (its `onCounted`).
final class Counts: @unchecked Sendable {
    private let answers: CountAnswers
    private let results: ResultsEngine
    /// The answer handed to the model last.
    private(set) var last: ResultsEngine.CountAnswer?

    init(_ results: ResultsEngine) {
        self.results = results
        answers = CountAnswers(results)
    }

    /// From now on every request takes the provisional path, with windows of `margin` rows either
    /// side of the selection (at least a screen and more: the model sees to that).
    func goProvisional(margin: Int? = nil) {
        results.budget = .milliseconds(6)
        results.alwaysProvisional = true
        if let margin { results.provisionalMargin = margin }
    }

    /// Hands the engine's answers to `model` as the runtime does, until the results are exact
    /// (an answer a superseded count left settles nothing).
    func settle(_ model: BrowserModel) throws {
        while model.results.isProvisional {
            #expect(try actOnCount(model, waiting: true), "a count never settled")
        }
    }

    /// Hands `model` the oldest answer posted and not handed yet, as the runtime does
    /// (`BrowserModel.actOnCount`); `waiting`: waits for one on the condition (never a sleep) up to
    /// a minute. False when none came.
    @discardableResult
    func actOnCount(_ model: BrowserModel, waiting: Bool = false) throws -> Bool {
        guard let answer = answers.next(timeout: waiting ? 60 : 0) else { return false }
        last = answer
        try model.actOnCount(answer)
        return true
    }
}

extension BrowserModel {
    /// `action` as the runtime carries it out: the update, its reads, then a frame (which reads
    /// any row on screen not read yet, and so lets keys held for them go on).
    func act(_ action: Action) throws {
        _ = try performReads(send(action))
        _ = try screenModel(RestoreWalkTests.context)
    }

    /// A count's answer as the runtime carries it out: taken (`takeCount`: an event carrying its
    /// results, or its failure, for the update), its reads, then a frame. Nothing happens for
    /// the answer of a count replaced since.
    func actOnCount(_ answer: ResultsEngine.CountAnswer) throws {
        guard let taken = try takeCount(answer) else { return }
        _ = try performReads(taken.effects)
        _ = try screenModel(RestoreWalkTests.context)
    }
}
