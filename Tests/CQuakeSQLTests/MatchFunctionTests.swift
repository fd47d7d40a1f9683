import CQuakeSQL
import CSQLite
import Testing

/// The SQL functions over an id set on an in-memory database: `quaketui_match` adds only the rows
/// a WHERE clause passes, `quaketui_matched` tests them, `quaketui_match_counting` also counts per
/// bucket; what is not an integer id is an error (or unmatched), and a store's own views and
/// triggers cannot reach them.
@Suite struct MatchFunctionTests {
    /// A database with `t(id, x, bucket)` and the set's functions registered over `set` and `buckets`.
    static func withRegistered(_ body: (MemoryDatabase, UnsafeMutablePointer<quaketui_idset>, UnsafeMutablePointer<quaketui_buckets>) throws -> Void) throws {
        let set = UnsafeMutablePointer<quaketui_idset>.allocate(capacity: 1)
        set.initialize(to: quaketui_idset())
        let buckets = UnsafeMutablePointer<quaketui_buckets>.allocate(capacity: 1)
        buckets.initialize(to: quaketui_buckets())
        let counting = UnsafeMutablePointer<quaketui_counting_match>.allocate(capacity: 1)
        counting.initialize(to: quaketui_counting_match(set: set, buckets: buckets))
        defer {
            quaketui_idset_free(set); set.deallocate()
            quaketui_buckets_free(buckets); buckets.deallocate()
            counting.deallocate()
        }
        // The database closes (at the end of this block) before the defer frees what it calls.
        do {
            let db = try MemoryDatabase()
            #expect(quaketui_register_idset(db.handle, set) == SQLITE_OK)
            #expect(quaketui_register_counting_match(db.handle, counting) == SQLITE_OK)
            try db.execute("""
                CREATE TABLE t(id INTEGER PRIMARY KEY, x TEXT, bucket);
                INSERT INTO t VALUES (1, 'alaska', 4), (2, 'chile', 4), (70, 'nevada alaska', NULL),
                                     (200000, 'alaska', -2), (9, 'alaska', 2.5);
                """)
            try body(db, set, buckets)
        }
    }

    @Test func matchAddsOnlyTheRowsTheWhereClausePassesAndMatchedTestsThem() throws { try Self.withRegistered { db, set, _ throws in
        #expect(try db.scalar("SELECT count(quaketui_match(id)) FROM t WHERE instr(x, 'alaska') > 0") == .integer(4))
        #expect(IdSetTests.ids(set) == [1, 9, 70, 200_000])
        #expect(try db.rows("SELECT id FROM t WHERE quaketui_matched(id) ORDER BY id DESC") == [[.integer(200_000)], [.integer(70)], [.integer(9)], [.integer(1)]])
        // Anything but an integer id is not matched.
        #expect(try db.scalar("SELECT quaketui_matched(NULL) + quaketui_matched('1') + quaketui_matched(1.0) + quaketui_matched(-1)") == .integer(0))
    } }

    @Test func matchRefusesWhatIsNotAnIdItCanHold() throws { try Self.withRegistered { db, set, _ throws in
        for argument in ["'1'", "1.0", "NULL", "-5", "268435456"] {
            let error = #expect(throws: MemoryDatabase.Failure.self) { try db.scalar("SELECT quaketui_match(\(argument))") }
            #expect(error?.code == SQLITE_ERROR, "\(argument)")
        }
        let error = #expect(throws: MemoryDatabase.Failure.self) { try db.scalar("SELECT quaketui_match(-5)") }
        #expect(error?.message.contains("268,435,455") == true)
        #expect(set.pointee.count == 0)
        #expect(try db.scalar("SELECT quaketui_match(268435455)") == .integer(1))
        #expect(set.pointee.count == 1)
    } }

    @Test func matchCountingCountsIntegerBucketsOfTheRowsItAdds() throws { try Self.withRegistered { db, set, buckets throws in
        #expect(try db.scalar("SELECT count(quaketui_match_counting(id, bucket)) FROM t WHERE instr(x, 'alaska') > 0") == .integer(4))
        #expect(IdSetTests.ids(set) == [1, 9, 70, 200_000])
        // 70's NULL bucket and 9's real one are in the set but not counted; chile is neither.
        #expect(BucketCountsTests.counts(buckets.pointee) == [4: 1, -2: 1])
        let error = #expect(throws: MemoryDatabase.Failure.self) { try db.scalar("SELECT quaketui_match_counting('x', 1)") }
        #expect(error?.message == "quaketui_match_counting takes an integer row id and a bucket")
        #expect(BucketCountsTests.counts(buckets.pointee) == [4: 1, -2: 1])
    } }

    /// A store is a file anyone can hand quaketui: its schema must not reach the set.
    @Test func aStoresViewsAndTriggersCannotCallThem() throws { try Self.withRegistered { db, set, _ throws in
        try db.execute("""
            CREATE VIEW v AS SELECT quaketui_match(id) FROM t;
            CREATE VIEW w AS SELECT quaketui_matched(id) FROM t;
            CREATE VIEW c AS SELECT quaketui_match_counting(id, 1) FROM t;
            CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT quaketui_match(new.id); END;
            """)
        for view in ["v", "w", "c"] {
            #expect(throws: MemoryDatabase.Failure.self) { try db.rows("SELECT * FROM \(view)") }
        }
        #expect(throws: MemoryDatabase.Failure.self) { try db.execute("INSERT INTO t(id) VALUES (3)") }
        #expect(set.pointee.count == 0)
    } }
}
