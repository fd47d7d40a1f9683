import Foundation
@testable import QuakeModel
@testable import QuakeStore
import QuakeTestSupport
import Testing

/// `MatchSet`, the bitmap of a controller's matching rows, against Swift's `Set` under seeded
/// random operations, and its SQL functions (`quaketui_match`, `quaketui_matched`) on a real
/// SQLite file: filled only by the rows a `WHERE` clause passes, refusing what it cannot hold,
/// unreachable from a store's own views and triggers.
@Suite struct MatchSetTests {
    @Test(arguments: [1, 2, 3, 4, 5])
    func agreesWithASwiftSetUnderRandomOperations(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let set = MatchSet(), copy = MatchSet()
        var model = Set<Int64>()
        for step in 0..<5_000 {
            // Mostly small ids, now and then one far out (the bitmap grows) or at a word's edges.
            let id: Int64 = switch random.next() % 10 {
            case 0: Int64(random.next() % 1_000_000)
            case 1: Int64(random.next() % 4) * 64 + [0, 63][Int(random.next() % 2)]
            default: Int64(random.next() % 3_000)
            }
            switch random.next() % 7 {
            case 0, 1, 2: try set.insert(id); model.insert(id)
            case 3, 4: set.remove(id); model.remove(id)
            case 5: try copy.assign(set)
            default: if step % 500 == 0 { set.removeAll(); model.removeAll() }
            }
            #expect(set.contains(id) == model.contains(id))
            #expect(set.count == model.count)
        }
        #expect(Array(set.ids) == model.sorted())
        // A copy taken from a bigger set into a smaller one and back leaves nothing behind.
        try copy.assign(set)
        #expect(Array(copy.ids) == model.sorted())
        let empty = MatchSet()
        try set.assign(empty)
        #expect(set.count == 0 && Array(set.ids).isEmpty && !set.contains(0))
    }

    @Test func refusesWhatItCannotHold() throws {
        let set = MatchSet()
        #expect(throws: SQLiteError.self) { try set.insert(-1) }
        #expect(throws: SQLiteError.self) { try set.insert(.min) }
        #expect(throws: SQLiteError.self) { try set.insert(.max) }
        #expect(throws: SQLiteError.self) { try set.insert(1 << 28) }  // past 32 MB of bitmap
        try set.insert((1 << 28) - 1)
        #expect(set.count == 1)
        set.removeAll()
        #expect(set.count == 0)
        #expect(!set.contains(-1) && !set.contains(.max) && !set.contains(.min))
    }

    /// A set registered on a connection to a new database file.
    static func withRegisteredSet(_ body: (Connection, MatchSet) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Connection(path: directory.url.appendingPathComponent("m.sqlite").path)
        defer { db.close() }
        let set = MatchSet()
        try set.register(on: db)
        try body(db, set)
    }

    @Test func sqlAddsOnlyTheRowsTheWhereClausePasses() throws { try Self.withRegisteredSet { db, set in
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT)")
        try db.execute("INSERT INTO t(id, x) VALUES (1, 'alaska'), (2, 'chile'), (70, 'nevada alaska'), (200000, 'alaska')")
        try db.execute("SELECT count(quaketui_match(id)) FROM t WHERE instr(x, 'alaska') > 0", [])
        #expect(Array(set.ids) == [1, 70, 200_000])
        let matched = try db.prepare("SELECT id FROM t WHERE quaketui_matched(id) ORDER BY id DESC")
        var ids: [Int64] = []
        while try matched.step() { ids.append(matched.int64(at: 0)) }
        #expect(ids == [200_000, 70, 1])
        // Anything but an integer id is not matched, and cannot be added.
        #expect(try db.scalar("SELECT quaketui_matched(NULL) + quaketui_matched('1') + quaketui_matched(1.0)").int64 == 0)
        #expect(throws: SQLiteError.self) { try db.execute("SELECT quaketui_match('1')", []) }
        #expect(throws: SQLiteError.self) { try db.execute("SELECT quaketui_match(-5)", []) }
        #expect(set.count == 3)
    } }

    /// A store is a file anyone can hand quaketui: its schema must not reach the set.
    @Test func aStoresViewsAndTriggersCannotCallIt() throws { try Self.withRegisteredSet { db, set in
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY)")
        try db.execute("CREATE VIEW v AS SELECT quaketui_match(id) FROM t")
        try db.execute("CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT quaketui_match(new.id); END")
        #expect(throws: SQLiteError.self) { try db.execute("SELECT * FROM v", []) }
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t(id) VALUES (9)") }
        #expect(set.count == 0)
    } }

    /// A store edited by hand to hold a negative row id: a search says so and the controller
    /// keeps what it showed (no half-applied search), instead of dropping the row silently.
    @Test func aRowIdTheSetCannotHoldFailsTheSearchAndKeepsTheResults() throws {
        let store = try TestStore()
        defer { store.remove() }
        _ = try store.upsert([.fixture("a"), .fixture("b"), .fixture("c")])
        let controller = try FetchedResultsController(container: store.container)
        defer { controller.close() }
        let before = (controller.request, controller.sections)
        let db = try Connection(path: store.container.url.path)
        try db.execute("UPDATE quake SET id = -3 WHERE code = 'b'")
        db.close()
        _ = try controller.merge()
        var request = controller.request
        request.predicate.searchText = "ch"  // two letters: the instr scan, which visits every row
        #expect(throws: SQLiteError.self) { try controller.configure(request) }
        #expect(controller.request == before.0)
        #expect(controller.sections.map(\.count) == before.1.map(\.count))
        request.predicate.searchText = "zz"
        try controller.configure(request)  // no row matches, so no id needs the set: it still works
        #expect(controller.count == 0)
    }
}
