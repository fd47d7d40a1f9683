import QuakeModel
/// The store's schema and its forward migrations, versioned by `PRAGMA user_version`.
///
/// A migration runs once, in order, inside the transaction that opens the store; a store whose
/// version is newer than `Schema.version` is refused untouched (see `StoreError.Code.newerSchema`).
enum Schema {
    /// Each entry migrates from version `index` to `index + 1`.
    static let migrations: [String] = [
        // 1: the Quake entity, persistent history and store metadata.
        """
        CREATE TABLE quake (
            id INTEGER PRIMARY KEY,          -- a rowid table: upserts keep row ids stable
            code TEXT NOT NULL UNIQUE,       -- the feed's event id, e.g. us7000abcd
            magnitude REAL,
            magType TEXT,
            place TEXT NOT NULL,
            time INTEGER NOT NULL,           -- ms since the epoch
            updated INTEGER NOT NULL,        -- ms since the epoch; decides which version wins
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            depth REAL,
            region TEXT NOT NULL,            -- section key: last comma-separated part of place
            regionKey TEXT NOT NULL,         -- region, case- and diacritic-folded (section order)
            placeKey TEXT NOT NULL,          -- place, folded (CONTAINS[cd] search)
            status TEXT, type TEXT, tsunami INTEGER, felt INTEGER, alert TEXT, sig INTEGER,
            net TEXT, url TEXT, title TEXT,
            notes TEXT                       -- user-owned: never written by imports
        );
        CREATE INDEX quake_time ON quake(time);
        CREATE INDEX quake_magnitude ON quake(magnitude, time);
        CREATE INDEX quake_region ON quake(regionKey, time);

        -- Persistent history: one row per committed write transaction.
        CREATE TABLE history (
            token INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: never reused after a purge
            timestamp INTEGER NOT NULL,               -- ms since the epoch
            author TEXT NOT NULL,                     -- import, refresh, delete, notes, ...
            origin TEXT NOT NULL,                     -- the writing process, to skip its own changes
            isBulk INTEGER NOT NULL,                  -- 1: too many changes to list; refetch everything
            inserted INTEGER NOT NULL, updated INTEGER NOT NULL, deleted INTEGER NOT NULL
        );
        CREATE INDEX history_timestamp ON history(timestamp);
        CREATE TABLE history_change (
            token INTEGER NOT NULL,
            code TEXT NOT NULL,
            kind INTEGER NOT NULL,                    -- 0 insert, 1 update, 2 delete
            -- The row's sort and filter keys before the change (NULL oldId: it did not exist),
            -- so a results controller can tell where a row was without keeping a snapshot.
            oldId INTEGER, oldTime INTEGER, oldMagnitude REAL, oldRegionKey TEXT, oldPlaceKey TEXT,
            PRIMARY KEY (token, code)
        ) WITHOUT ROWID;

        CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;

        -- Search: CONTAINS[cd] over the folded place. A trigram index answers 3+ characters
        -- without scanning (https://www.sqlite.org/fts5.html#the_trigram_tokenizer); it is an
        -- external-content table, so the text is stored once, kept in sync by triggers.
        CREATE VIRTUAL TABLE quake_fts USING fts5(placeKey, content='quake', content_rowid='id', tokenize='trigram');
        CREATE TRIGGER quake_fts_insert AFTER INSERT ON quake BEGIN
            INSERT INTO quake_fts (rowid, placeKey) VALUES (new.id, new.placeKey);
        END;
        CREATE TRIGGER quake_fts_delete AFTER DELETE ON quake BEGIN
            INSERT INTO quake_fts (quake_fts, rowid, placeKey) VALUES ('delete', old.id, old.placeKey);
        END;
        CREATE TRIGGER quake_fts_update AFTER UPDATE OF placeKey ON quake WHEN old.placeKey IS NOT new.placeKey BEGIN
            INSERT INTO quake_fts (quake_fts, rowid, placeKey) VALUES ('delete', old.id, old.placeKey);
            INSERT INTO quake_fts (rowid, placeKey) VALUES (new.id, new.placeKey);
        END;
        """,
        // 2 (issue 14): the agency each quake comes from (`usgs`, `emsc`, `iris`, …); NULL is
        // USGS (rows imported before). Codes of other agencies carry it as a prefix (`emsc:…`).
        """
        ALTER TABLE quake ADD COLUMN source TEXT;
        """,
        // 3 (issue 11): section counts kept in the store (see `SectionCounts`), maintained by triggers in the
        // same transaction as every write; bulk imports drop the triggers and recount once.
        """
        CREATE TABLE quake_count (
            kind INTEGER NOT NULL,      -- 0: 15-minute time bucket, 1: magnitude bucket, 2: regionKey
            bucket NOT NULL,            -- floor(time / 900000 ms); -1 unknown, 0 (<1) … 6 (6+); the regionKey
            count INTEGER NOT NULL,     -- rows in the bucket (rows reaching 0 are deleted)
            PRIMARY KEY (kind, bucket)
        ) WITHOUT ROWID;
        \(sectionCountRecount)
        \(countTriggers)
        """,
        // 4 (issue 13): distance from home. The bounding box of a near filter (`GeoPoint.boundingBoxSQL`)
        // reads a latitude range of this index and checks longitude in it, before the exact haversine.
        """
        CREATE INDEX quake_location ON quake(latitude, longitude);
        """,
        // 5 (issue 11): a search of one or two characters (below the trigram index) scans every
        // place. This index covers that scan and the section counts it gathers (time, magnitude):
        // 53 MB at a million quakes against the table's 296 MB, read in about half the time.
        """
        CREATE INDEX quake_place ON quake(placeKey, time, magnitude);
        """,
        // 6 (issue 31): the depth sort. Its index serves the order (depth, time, rowid) in both
        // directions; `quake_count` keeps a count per depth band (kind 3, `depthBucket`), so the
        // sort's sections are read, not counted; history keeps a changed row's old depth, so a
        // merge places it in its old band without a reload.
        """
        CREATE INDEX quake_depth ON quake(depth, time);
        ALTER TABLE history_change ADD COLUMN oldDepth REAL;
        DROP TRIGGER IF EXISTS quake_count_insert;
        DROP TRIGGER IF EXISTS quake_count_delete;
        DROP TRIGGER IF EXISTS quake_count_update;
        \(countTriggers)
        DELETE FROM quake_count WHERE kind = 3;
        INSERT INTO quake_count (kind, bucket, count) SELECT 3, \(depthBucket("depth")), count(*) FROM quake GROUP BY 2;
        """,
        // 7 (issue 31): a region USGS abbreviates ("…, CA") is the region of its full name
        // ("…, California"): stored rows are respelled as `QuakeRecord.region` now derives them,
        // so one region is one section. The count trigger moves their region counts.
        respellAbbreviatedRegions,
        // 8 (issue 33): the digest, every row's search and count keys packed for a scan in C
        // (`SearchDigest`); the migration builds it after the statements.
        SearchDigest.schema,
        // 9 (issue 33): the digest answers the short searches `quake_place` served (migration 5).
        // Every new row landed at a random place in it, the largest index (68k pages at 5M):
        // without it a month into 5M took 0.6 s instead of 0.8–1.0 (SQLite writes fewer pages), and a
        // search the digest cannot answer scans the table instead.
        """
        DROP INDEX IF EXISTS quake_place;
        """,
        // 10 (issue 33): the location index leads with the row's block of ids
        // (`IDBlocks`), so new rows, which take the largest ids, land together at its
        // end instead of at random across it: a month into 5M rewrote ~10k of its 31k leaf pages
        // (0.48 s of the import) and now a few hundred (5 ms). A box reads each block's latitude range.
        """
        DROP INDEX IF EXISTS quake_location;
        CREATE INDEX quake_location ON quake(\(IDBlocks.of("id")), latitude, longitude);
        """,
        // 11 (issue 33): the depth index leads with the row's block too: a first month into a
        // freshly loaded 5M store split most of the ~9k full depth pages its rows landed on
        // (1.6 s, 0.44 s without). The depth order is read as a merge of one run per block
        // (`SortStrategy.orderedRowsQuery`), a band counted by a seek per block.
        """
        DROP INDEX IF EXISTS quake_depth;
        CREATE INDEX quake_depth ON quake(\(IDBlocks.of("id")), depth, time);
        """,
        // 12 (issue 33): the magnitude index as well. A month's rows still landed at the end of
        // each distinct magnitude's stretch, ~2k pages a month into 5M, 44 ms of its import.
        """
        DROP INDEX IF EXISTS quake_magnitude;
        CREATE INDEX quake_magnitude ON quake(\(IDBlocks.of("id")), magnitude, time);
        """,
        // 13 (issue 53): a Flinn–Engdahl region goes under its country or sea, and a name in
        // capitals is title-cased (`RegionName.grouped`: "WESTERN TURKEY" → "Turkey"). The
        // statements are none: `regroupRegions` respells the stored regions after them, in Swift.
        "-- 13: regions regrouped by RegionName.grouped (PersistentContainer.migrate runs Schema.regroupRegions)",
        // 14 (issue 53): one row per event. A `quake` row is an event and carries its preferred
        // solution's columns (the list reads one row per event, as before); `agencies` counts the
        // agencies that reported it. An event of two or more reports keeps its reports in
        // `report` (an event of one report has none there: the single agency's import writes no
        // second table); since 18 all but the preferred one, which is the row.
        // `WriteTransaction+Association.swift` keeps both.
        """
        ALTER TABLE quake ADD COLUMN agencies INTEGER NOT NULL DEFAULT 1;
        CREATE TABLE report (
            code TEXT PRIMARY KEY,           -- the report's code (the agency's event id, prefixed)
            event INTEGER NOT NULL,          -- quake.id of its event
            agency TEXT NOT NULL,            -- the catalogue that published it (Association.agency)
            magnitude REAL, magType TEXT, place TEXT NOT NULL, time INTEGER NOT NULL, updated INTEGER NOT NULL,
            latitude REAL NOT NULL, longitude REAL NOT NULL, depth REAL,
            status TEXT, type TEXT, tsunami INTEGER, felt INTEGER, alert TEXT, sig INTEGER,
            net TEXT, url TEXT, title TEXT, source TEXT
        ) WITHOUT ROWID;
        CREATE INDEX report_event ON report(event);
        CREATE INDEX report_time ON report(time);
        """,
        // 15 (issue 53): revisions. A report whose magnitude, its type, origin time, epicentre,
        // depth or status changes keeps every version in `revision`, with the time it was seen
        // (`WriteTransaction+Revisions.swift`). The triggers write them only when a stored report
        // really changes (an unchanged re-import fires none); `quake.revised` is the history token
        // of the commit that last revised the event (the list's mark and `:revised`, through a
        // partial index: only revised events are in it). -1 stands for "this transaction" until
        // the commit's token is known (`WriteTransaction.stampRevisions`).
        """
        ALTER TABLE quake ADD COLUMN revised INTEGER;
        CREATE INDEX quake_revised ON quake(revised) WHERE revised IS NOT NULL;
        CREATE TABLE revision (
            code TEXT NOT NULL,              -- the report's code
            seen INTEGER,                    -- ms since the epoch; NULL: stored before its first revision
            updated INTEGER NOT NULL, magnitude REAL, magType TEXT, time INTEGER NOT NULL,
            latitude REAL NOT NULL, longitude REAL NOT NULL, depth REAL, status TEXT
        );
        CREATE INDEX revision_code ON revision(code);
        CREATE INDEX revision_pending ON revision(seen) WHERE seen = -1;
        CREATE INDEX revision_withdrawn ON revision(code, updated) WHERE status = 'deleted';
        \(revisionTrigger(table: "quake", event: "new.id", when: "old.agencies = 1 AND new.agencies = 1"))
        \(revisionTrigger(table: "report", event: "new.event", when: "1"))
        """,
        // 16 (issue 53): the default `agencyPreference` put `local-network` first. A store whose
        // shared events chose their preferred report under the older default records nothing in
        // `meta` (no preference other than the default was ever used): it records that default
        // now, so the migration's association (`PersistentContainer.migrate`) sees a changed
        // preference and re-chooses every shared event under today's.
        """
        INSERT OR IGNORE INTO meta (key, value)
            SELECT 'agencyPreference', '\(defaultBeforeLocalNetwork)' WHERE EXISTS (SELECT 1 FROM report);
        """,
        // 17 (issue 53): history keeps how many agencies had reported an event whose row
        // association rewrote (a report joined or left it, its preferred report changed), so a
        // reader tells an event whose agencies changed from a revision: a joining report gets no
        // row of its own, so it leaves no change of its own (`HistoryChange.oldAgencies`; `watch`
        // prints such an event again).
        """
        ALTER TABLE history_change ADD COLUMN oldAgencies INTEGER;
        """,
        // 18 (issue 53): a shared event's preferred report is its row alone, no longer copied into
        // `report` (the copy was 12% of another agency's month joining a 5M store). The copies go
        // (a correlated seek of the code index per report, not a pass over `quake`), and the row's
        // revisions are kept whatever its agency count: a revision of a shared event's preferred
        // report is an update of its row now.
        """
        DELETE FROM report WHERE EXISTS (SELECT 1 FROM quake WHERE quake.code = report.code);
        DROP TRIGGER IF EXISTS quake_revision;
        \(revisionTrigger(table: "quake", event: "new.id", when: "1"))
        """,
        // 19: the search digest counts the rows of each kind (magnitude type and agency), so a
        // write knows which agencies the store holds now: an agency whose rows were all deleted
        // no longer makes each report of an import look for that agency's reports near it (38 ms
        // of a month into a 5M store). NULL: not counted (a digest of another format, rebuilt at
        // the next write); `PersistentContainer.migrate` counts them from the digest's slots.
        // The table first: a store of schema 8 to 12 written before the digest had kinds may lack it.
        """
        CREATE TABLE IF NOT EXISTS quake_digest_kind (id INTEGER PRIMARY KEY, magType TEXT NOT NULL, source TEXT NOT NULL,
            UNIQUE (magType, source));
        ALTER TABLE quake_digest_kind ADD COLUMN rows INTEGER;
        """,
        // 20: a magnitude is sectioned as it is shown, to a tenth rounded half up (`MagnitudeBin`):
        // `M 3` holds M 2.95 ..< 3.95. The count triggers bucket so; the magnitude counts are
        // recounted (one pass over the magnitude index).
        """
        DROP TRIGGER IF EXISTS quake_count_insert;
        DROP TRIGGER IF EXISTS quake_count_delete;
        DROP TRIGGER IF EXISTS quake_count_update;
        \(countTriggers)
        \(sectionCountRecount(kinds: [1]))
        """,
        // 21: a depth is sectioned as it is shown, to a tenth of a km rounded half up (`DepthBins`):
        // `10–20 km deep` holds 9.95 ..< 19.95 km. The count triggers bucket so; the depth counts are
        // recounted (one pass over the depth index); the digest's slots keep each row's band, so its
        // format changes and opening the store for writing rebuilds it (`SearchDigest.format`).
        """
        DROP TRIGGER IF EXISTS quake_count_insert;
        DROP TRIGGER IF EXISTS quake_count_delete;
        DROP TRIGGER IF EXISTS quake_count_update;
        \(countTriggers)
        \(sectionCountRecount(kinds: [3]))
        """,
        // 22: the codes ComCat lists among another event's `ids` (`WriteTransaction+Aliases.swift`):
        // each with the event it names and when the download that said so was generated, so that
        // a newer download decides over an older one whatever order they were imported in.
        """
        CREATE TABLE quake_alias (
            alias TEXT PRIMARY KEY,          -- a code ComCat lists among the ids of the event `code`
            code TEXT NOT NULL,              -- that event's code (the feature's id)
            generated INTEGER                -- ms: when the download that said so was generated; NULL: it did not say
        ) WITHOUT ROWID;
        CREATE INDEX quake_alias_code ON quake_alias(code);
        """,
        // 23: the statistics name ComCat's contributing networks as its agencies (`ak`, `ci`, `nc`,
        // `us`, …: an ML of one network is not another's), so the digest's kinds keep a row's
        // network beside its magnitude type and agency (`SearchDigest.network`). The table is made
        // anew and the digest set aside, so opening the store for writing rebuilds it in today's
        // format (`SearchDigest.isStale`) and fills the kinds.
        """
        DROP TABLE IF EXISTS quake_digest_kind;
        CREATE TABLE quake_digest_kind (id INTEGER PRIMARY KEY, magType TEXT NOT NULL, source TEXT NOT NULL,
            network TEXT NOT NULL DEFAULT '', rows INTEGER, UNIQUE (magType, source, network));
        DROP TRIGGER IF EXISTS quake_digest_update;
        \(SearchDigest.triggers)
        DELETE FROM meta WHERE key = 'digest';
        """,
    ]

    /// The schema version from which `quake_count`'s magnitude buckets are the whole magnitudes as
    /// shown (migration 20); a store before it (read-only, not migrated) counts them by range.
    static let magnitudesAsShown = 20

    /// The schema version from which `quake_count`'s depth buckets are the bands of the depths as
    /// shown (migration 21); a store before it (read-only, not migrated) counts them by range.
    static let depthsAsShown = 21

    /// The schema version from which the store keeps ComCat's aliases (migration 22).
    static let aliasesKept = 22

    /// The schema version from which the digest counts each kind's rows (migration 19).
    static let kindsCounted = 19

    /// The schema version from which the digest's kinds keep ComCat's networks (migration 23).
    static let networksKept = 23

    /// The schema version whose stores chose their events' preferred reports under today's
    /// default `agencyPreference` (migration 16).
    static let localNetworkDefault = 16

    /// The default `agencyPreference` before `local-network` (the stores of schema 14 and 15).
    static let defaultBeforeLocalNetwork = "usgs,emsc,isc,geofon,ingv,geonet,iris"

    /// The schema version from which reports keep their revisions (migration 15).
    static let revisionsKept = 15

    /// The schema version from which history lists an event's agency count before association
    /// changed it (migration 17: `history_change.oldAgencies`).
    static let agencyChangesListed = 17

    /// The fields whose change is a revision (`updated` alone, or the place's wording, is not).
    static let revisedColumns = ["magnitude", "magType", "time", "latitude", "longitude", "depth", "status"]

    /// The trigger that keeps a report's versions when `table`'s row of it changes: the old
    /// version first, when it is the report's first revision, then the new one, and the event
    /// marked. An event's row (`quake`: a lone event's report, or a shared event's preferred one)
    /// and a shared event's other reports (`report`) each have one. Association's own rewrites of
    /// a row give it another report's code, which is no revision (`old.code = new.code`).
    static func revisionTrigger(table: String, event: String, when condition: String) -> String {
        let changed = revisedColumns.map { "old.\($0) IS NOT new.\($0)" }.joined(separator: " OR ")
        let columns = "code, seen, updated, " + revisedColumns.joined(separator: ", ")
        let values = { (row: String) in revisedColumns.map { "\(row).\($0)" }.joined(separator: ", ") }
        return """
            CREATE TRIGGER \(table)_revision AFTER UPDATE OF \(revisedColumns.joined(separator: ", ")) ON \(table)
                WHEN old.code = new.code AND \(condition) AND (\(changed)) BEGIN
                INSERT INTO revision (\(columns)) SELECT old.code, NULL, old.updated, \(values("old"))
                    WHERE NOT EXISTS (SELECT 1 FROM revision WHERE code = old.code);
                INSERT INTO revision (\(columns)) VALUES (new.code, -1, new.updated, \(values("new")));
                UPDATE quake SET revised = -1 WHERE id = \(event);
            END;
            """
    }

    /// The schema version from which events hold several agencies' reports (migration 14).
    static let reportsAssociated = 14

    /// The schema version whose migration regroups the stored regions (`regroupRegions`).
    static let regionsGrouped = 13

    /// Respells every stored region as `QuakeRecord.region` derives it now, from the stored name
    /// (`RegionName.grouped` is idempotent and the old names were its input's spelling): one
    /// look at each distinct region (the section counts list their keys), one update of the rows
    /// of each that changes, through the region index. The count triggers move the counts of a
    /// changed key; the digest's triggers list the rows, which the caller flushes.
    static func regroupRegions(_ db: Connection) throws(SQLiteError) {
        var keys: [String] = []
        let buckets = try db.prepare("SELECT bucket FROM quake_count WHERE kind = 2")
        while try buckets.step() { keys.append(buckets.text(at: 0)) }
        let names = try db.prepare("SELECT DISTINCT region FROM quake WHERE regionKey = ?")
        var changes: [(old: String, key: String, new: String)] = []
        for key in keys {
            names.reset()
            try names.bind(key, at: 1)
            while try names.step() {
                let old = names.text(at: 0)
                let new = RegionName.grouped(old)
                if new != old { changes.append((old, key, new)) }
            }
        }
        let update = try db.prepare("UPDATE quake SET region = ?, regionKey = ? WHERE regionKey = ? AND region = ?")
        for change in changes {
            update.reset()
            try update.bind([.text(change.new), .text(TextFolding.fold(change.new)), .text(change.key), .text(change.old)])
            try update.step()
        }
    }

    /// Migration 7's statement, from `QuakeRecord.spelledOutRegions`.
    private static var respellAbbreviatedRegions: String {
        let table = QuakeRecord.spelledOutRegions.sorted { $0.key < $1.key }
        let region = table.map { "WHEN '\($0.key)' THEN '\($0.value)'" }.joined(separator: " ")
        let regionKey = table.map { "WHEN '\($0.key)' THEN '\(TextFolding.fold($0.value))'" }.joined(separator: " ")
        let list = table.map { "'\($0.key)'" }.joined(separator: ", ")
        return "UPDATE quake SET region = CASE region \(region) END, regionKey = CASE region \(regionKey) END WHERE region IN (\(list));"
    }

    static var version: Int { migrations.count }

    /// The versions from which the depth and magnitude indexes lead with the row's block
    /// (migrations 11 and 12).
    static let depthLedByBlock = 11
    static let magnitudeLedByBlock = 12

    /// The oldest version this code reads without migrating: the migrations after it only add
    /// indexes (5: `quake_place`, 6: `quake_depth`), drop one (9) or re-key one (10–12), which make reads faster but
    /// are not needed for them, history columns (6: `oldDepth`, 17: `oldAgencies`) that only a listed change reads, drop
    /// the copies of shared events' preferred reports (18), which every reader skips beside the row,
    /// (a store nobody may write has none to list), respell abbreviated regions (7), which such a
    /// store, never written since, holds consistently in their old spelling, and add the digest
    /// (8) or its kinds' networks (23), without which a reader uses SQL, and regroup the regions
    /// (13), which such a store holds consistently as they were derived before. A store
    /// the user made read-only (`chmod 400`) cannot be migrated, and is read as it is.
    static let oldestReadableVersion = 4

    /// The triggers that keep `quake_count` (the names `dropSecondaryIndexes` looks for).
    private static let countTriggers = countTriggers(named: "quake_count", upTo: nil)

    /// The count triggers, named `<prefix>_insert`, `_delete` and `_update`. With `mark`, they
    /// keep only the rows with ids up to it, and there is no insert trigger (an import's new rows
    /// take larger ids, see `deferRowIndexing`): the import counts the rows it adds above the
    /// mark in one statement at the end instead (`sectionCountsAdded(above:)`).
    static func countTriggers(named prefix: String, upTo mark: Int64?) -> String {
        let changed = """
            old.time IS NOT new.time OR old.magnitude IS NOT new.magnitude OR old.regionKey IS NOT new.regionKey
                    OR old.depth IS NOT new.depth
            """
        let insert = """
            CREATE TRIGGER \(prefix)_insert AFTER INSERT ON quake BEGIN
                \(countNewRow)
            END;

            """
        return (mark == nil ? insert : "") + """
            CREATE TRIGGER \(prefix)_delete AFTER DELETE ON quake\(mark.map { " WHEN old.id <= \($0)" } ?? "") BEGIN
                \(uncountOldRow)
            END;
            CREATE TRIGGER \(prefix)_update AFTER UPDATE OF time, magnitude, regionKey, depth ON quake
                WHEN \(mark.map { "(\(changed)) AND old.id <= \($0)" } ?? changed) BEGIN
                \(uncountOldRow)
                \(countNewRow)
            END;
            """
    }

    /// Adds the rows with ids above `mark` to `quake_count`, for an import whose count triggers
    /// left them out (`countTriggers(named:upTo:)`): grouped passes over those rows, read as one
    /// range at the table's end (`NOT INDEXED`: else SQLite groups regions by walking all of
    /// `quake_region`, 0.2 s at 5,000,000 quakes).
    static func sectionCountsAdded(above mark: Int64) -> String {
        """
        INSERT INTO quake_count (kind, bucket, count)
            SELECT * FROM (\(bucketCounts("FROM quake NOT INDEXED WHERE id > \(mark)").joined(separator: " UNION ALL ")))
            WHERE true
            ON CONFLICT (kind, bucket) DO UPDATE SET count = count + excluded.count;
        """
    }

    /// Trigger body: `new` counted in its four buckets.
    private static let countNewRow = """
        INSERT INTO quake_count (kind, bucket, count) VALUES
                (0, \(timeBucket("new.time")), 1), (1, \(magnitudeBucket("new.magnitude")), 1), (2, new.regionKey, 1),
                (3, \(depthBucket("new.depth")), 1)
                ON CONFLICT (kind, bucket) DO UPDATE SET count = count + 1;
        """

    /// Trigger body: `old` taken out of its four buckets; emptied buckets are deleted.
    private static let uncountOldRow = [timeBucket("old.time"), magnitudeBucket("old.magnitude"), "old.regionKey", depthBucket("old.depth")]
        .enumerated().map { kind, bucket in
            "UPDATE quake_count SET count = count - 1 WHERE kind = \(kind) AND bucket = \(bucket);\n"
                + "            DELETE FROM quake_count WHERE kind = \(kind) AND bucket = \(bucket) AND count <= 0;"
        }.joined(separator: "\n            ")

    /// The 15-minute bucket of a `time` column in ms (floored, also before 1970), as SQL.
    static func timeBucket(_ column: String) -> String {
        "CASE WHEN \(column) >= 0 THEN \(column) / 900000 ELSE -((899999 - \(column)) / 900000) END"
    }

    /// The magnitude section bucket (`SectionKey.bucket`; -1 for unknown) of a column, as SQL:
    /// the whole magnitude as shown, each section from its lowest stored magnitude
    /// (`MagnitudeBands.lowerEdge`: `M 3` from 2.95; written as the shortest literal of that double).
    static func magnitudeBucket(_ column: String) -> String {
        "CASE WHEN \(column) IS NULL THEN -1 "
            + (1...6).map { "WHEN \(column) < \(MagnitudeBands.lowerEdge($0)) THEN \($0 - 1) " }.joined() + "ELSE 6 END"
    }

    /// The depth bucket of a column in km, as SQL: the lower edge of its band as `DepthBands.key`
    /// computes it (an integer), `unknownDepth` for NULL; the band of the depth as shown, to a tenth
    /// rounded half up (`DepthBins`), so each band starts at its lowest stored depth, `(20 × edge −
    /// 1) / 20.0` (10 km: 9.95), the same double as `Tenths.lowerEdge`. Plain SQL (no math
    /// functions: the `sqlite3` shell loads the same schema in quakebench): the first guess
    /// truncates toward zero and may round onto an edge, so one step down or up lands in the band
    /// that holds the depth, exactly as `DepthBins.from` does; the outermost bands are open
    /// (`DepthBands`).
    static func depthBucket(_ column: String) -> String {
        func edge(_ km: String) -> String { "((\(km)) * 20 - 1) / 20.0" }
        func band(width: Int) -> String {
            let guess = "CAST((\(column) + 0.05) / \(width) AS INTEGER) * \(width)"
            return "(CASE WHEN \(column) < \(edge(guess)) THEN \(guess) - \(width) "
                + "WHEN \(column) >= \(edge("\(guess) + \(width)")) THEN \(guess) + \(width) ELSE \(guess) END)"
        }
        let deepest = Int(DepthBands.deepest), highest = Int(DepthBands.highest)
        return """
            CASE WHEN \(column) IS NULL THEN \(unknownDepth) WHEN \(column) >= \(edge("\(deepest)")) THEN \(deepest) \
            WHEN \(column) < \(edge("\(Int(DepthBins.to(DepthBands.highest)))")) THEN \(highest) \
            WHEN \(column) < \(edge("100")) THEN \(band(width: 10)) ELSE \(band(width: 100)) END
            """
    }

    /// The depth bucket of an unknown depth (below every band's edge, as NULL sorts first).
    static let unknownDepth = -1_000_000

    /// Recounts `quake_count` from the `quake` table (the migration, and bulk imports that
    /// suspend the count triggers); the triggers keep it equal to this between recounts.
    static let sectionCountRecount = sectionCountRecount(kinds: [0, 1, 2, 3])

    /// Recounts the buckets of `kinds` only (`SearchDigest.recountSections` counts the others in C).
    static func sectionCountRecount(kinds: Set<Int>) -> String {
        "DELETE FROM quake_count WHERE kind IN (\(kinds.sorted().map(String.init).joined(separator: ", ")));\n"
            + bucketCounts("FROM quake", kinds: kinds).map { "INSERT INTO quake_count (kind, bucket, count) \($0);\n" }.joined()
    }

    /// `SELECT kind, bucket, count(*)` of each kind over the rows `rows` names (`FROM quake …`).
    private static func bucketCounts(_ rows: String, kinds: Set<Int> = [0, 1, 2, 3]) -> [String] {
        [(0, timeBucket("time")), (1, magnitudeBucket("magnitude")), (2, "regionKey"), (3, depthBucket("depth"))]
            .filter { kinds.contains($0.0) }
            .map { "SELECT \($0.0), \($0.1), count(*) \(rows) GROUP BY 2" }
    }
}

extension PersistentContainer {
    /// The SQL that recounts `quake_count` from the `quake` rows, for tools that load a store
    /// outside the app (the benchmark's expert `sqlite3` load must leave the same store behind).
    public static var sectionCountRecountSQL: String { Schema.sectionCountRecount }

    /// The whole magnitude as shown (the section of a magnitude sort) of a column, as SQL, for
    /// tools that count outside the app (the benchmark's peer).
    public static func magnitudeSectionSQL(_ column: String) -> String { Schema.magnitudeBucket(column) }

    /// The depth band as shown (the section of a depth sort, the statistics' depth bin) of a
    /// column, as SQL, for the same tools.
    public static func depthSectionSQL(_ column: String) -> String { Schema.depthBucket(column) }
}

extension Connection {
    /// Whether the store's schema is `version` or later (`PRAGMA user_version`): what a reader asks
    /// before it uses a table or column that migration added, as a store read as it is, or a
    /// container opened with fewer migrations (tests of older stores), may lack it.
    func hasSchema(_ version: Int) throws(SQLiteError) -> Bool {
        try scalar("PRAGMA user_version").int64 ?? 0 >= Int64(version)
    }
}
