#ifndef QUAKETUI_CQUAKESQL_H
#define QUAKETUI_CQUAKESQL_H
// quaketui's own C, for what SQLite calls once per row: the great-circle distance as an SQL
// function, and a bitmap of row ids with the SQL functions that fill and test it (plus per-bucket
// counts gathered by the same scan). Only QuakeStore/SQLite uses it (.ci/run checks); its tests
// are Tests/CQuakeSQLTests.
//
// This header stays free of <sqlite3.h>, so that the Swift that imports it sees SQLite's
// declarations once (through CSQLite): a connection is a `struct sqlite3 *` (OpaquePointer in
// Swift) and SQLite's 64-bit integer is int64_t. Result codes are SQLite's (SQLITE_OK 0,
// SQLITE_NOMEM 7, SQLITE_RANGE 25).
#include <stdint.h>

struct sqlite3;

// MARK: The distance

// The mean Earth radius GeoPoint.distance(to:) uses, in km.
#define QUAKETUI_EARTH_RADIUS_KM 6371.0088

// The haversine great-circle distance in km, computed exactly as GeoPoint.distance(to:) does —
// the same operations in the same order, through the same C library's sin, cos, asin and sqrt,
// with no contraction into fused multiply-adds (distance.c) — so SQL and Swift agree to the bit.
double quaketui_haversine_km(double latitude1, double longitude1, double latitude2, double longitude2);

// Registers `quaketui_distance(lat1, lon1, lat2, lon2)` and `quaketui_intensity` (below) (quaketui_haversine_km as an SQL function)
// on `db`: deterministic (the planner may factor it out and index on it) and innocuous (safe in
// views and triggers). An argument that is NULL or not a number (after SQLite's numeric affinity,
// as its own math functions treat text) gives NULL; so does a non-finite result.
// Returns SQLite's result code.
int quaketui_register_functions(struct sqlite3 *db);

// MARK: The predicted intensity

// Allen, Wald & Worden (2012)'s intensity for `magnitude` at `hypocentralKm`, unrounded and
// unclamped, computed exactly as FeltIntensity.equation does (intensity.c).
double quaketui_intensity_value(double magnitude, double hypocentralKm);

// Registers `quaketui_intensity(homeLat, homeLon, lat, lon, depth, magnitude)`: the value at home
// for a quake there (hypocentral distance from quaketui_haversine_km and the depth, a NULL depth
// taken as 0); NULL without a magnitude or coordinates. Called by quaketui_register_functions.
int quaketui_register_intensity(struct sqlite3 *db);

// Registers `quaketui_in_bitmap(id, bitmap)`: 1 when bit `id` of the blob `bitmap` is set (bit
// id % 8 of byte id / 8, little-endian bit order), else 0 (an id past the blob, below 0, or not an
// integer). The bitmap is a bound parameter: a row filter's id set travels as data in its SQL
// (RowFilter.declustered, issue 54). Deterministic. Called by quaketui_register_functions.
int quaketui_register_in_bitmap(struct sqlite3 *db);

// Registers the VFS "quaketui" as SQLite's default: the "unix" VFS, except that an fsync or an
// unlink interrupted by a signal (EINTR) is made again, as SQLite already does for reads,
// writes, opens and truncations (retryvfs.c, issue 57). Call before the first open; again is a
// no-op. Returns SQLite's result code.
int quaketui_register_retrying_vfs(void);

// With QUAKETUI_SQL_PROFILE=FILE in the environment, appends a line to FILE for every statement
// `db` runs (its time, the thread, the SQL with its values: profile.c); without it, nothing.
// QUAKETUI_SQL_PROFILE_MIN_MS=N leaves out the statements that ran for less than N ms.
void quaketui_profile_if_asked(struct sqlite3 *db);

// MARK: The id set

// The largest id + 1 a set holds: 32 MB of bitmap. quaketui's own stores number rows from 1 up
// (a million quakes is decades of refreshes); a file with a row id past this (made by hand) gets
// an error for its searches, not a bitmap of gigabytes.
#define QUAKETUI_IDSET_LIMIT 268435456LL  // 2^28

// A set of row ids as a bitmap: a million quakes take 125 KB. Start from all zeros; free with
// quaketui_idset_free.
typedef struct quaketui_idset {
    uint64_t *words;        // bit (id % 64) of words[id / 64]
    int64_t wordCount;
    int64_t count;          // ids in the set
} quaketui_idset;

// Whether `id` is in the set (0 or 1). Inline: SQL tests a row with it while walking an index.
static inline int quaketui_idset_contains(const quaketui_idset *set, int64_t id) {
    if (id < 0 || id / 64 >= set->wordCount) return 0;
    return (set->words[id / 64] >> (id % 64)) & 1;
}

// Adds `id`: 0, or SQLITE_RANGE for an id outside 0 ..< QUAKETUI_IDSET_LIMIT, SQLITE_NOMEM when
// there is no room (the set is then unchanged).
int quaketui_idset_insert(quaketui_idset *set, int64_t id);
void quaketui_idset_remove(quaketui_idset *set, int64_t id);
// Empties the set, keeping its memory.
void quaketui_idset_clear(quaketui_idset *set);
// Frees the memory; the set is empty and usable again.
void quaketui_idset_free(quaketui_idset *set);
// Makes `target` a copy of `source`: 0, or SQLITE_NOMEM (`target` is then unchanged).
int quaketui_idset_copy(quaketui_idset *target, const quaketui_idset *source);
// The smallest id ≥ `from` in the set, or -1.
int64_t quaketui_idset_next(const quaketui_idset *set, int64_t from);

// MARK: The bucket counts

// A span past this many buckets (8 MB; 60 years of 15-minute buckets) gives up (`overflow`).
#define QUAKETUI_BUCKETS_LIMIT 2097152LL  // 2^21

// Counts per integer bucket (a section's 15-minute time bucket or magnitude bucket), in one array
// over the span of buckets seen: the section counts of a search gathered by the scan that builds
// its match set, instead of a second walk over every matching row. Start from all zeros; free with
// quaketui_buckets_free.
typedef struct quaketui_buckets {
    int64_t base;           // the bucket counts[0] counts
    int64_t length;         // buckets in counts
    uint32_t *counts;
    int overflow;           // 1: a span too wide (or no memory): the counts are not to be used
} quaketui_buckets;

// Adds one to `bucket`, widening the span to hold it (doubling, so a scan reallocates a few
// times). A span wider than QUAKETUI_BUCKETS_LIMIT, a bucket outside -2^62 ..< 2^62, or no memory frees the
// counts and sets `overflow`: the caller counts by walking instead.
void quaketui_buckets_add(quaketui_buckets *buckets, int64_t bucket);
// Frees the counts and clears `overflow`: empty and usable again.
void quaketui_buckets_free(quaketui_buckets *buckets);

// MARK: The match functions

// What quaketui_match_counting reaches: the set it adds to and the buckets it counts in.
typedef struct quaketui_counting_match {
    quaketui_idset *set;
    quaketui_buckets *buckets;
} quaketui_counting_match;

// Registers on `db`, over `set` (which must outlive every statement that calls them):
// - `quaketui_matched(id)`: 1 if id is in the set, else 0 (NULL or not an integer: 0);
// - `quaketui_match(id)`: adds id to the set and returns 1 (the last term of a WHERE clause, so it
//   runs once per matching row); not an integer, an id outside the set's range, or no memory is an
//   error.
// Neither is deterministic (the set changes between statements); both are direct-only, so a view
// or trigger in a store cannot reach them. Returns SQLite's result code.
int quaketui_register_idset(struct sqlite3 *db, quaketui_idset *set);

// Registers `quaketui_match_counting(id, bucket)` on `db` over `match` (which must outlive its
// statements): quaketui_match(id) into match->set, and one more in `bucket` of match->buckets
// unless it is NULL (a row in the set that the view leaves out, e.g. below the minimum
// magnitude). Direct-only. Returns SQLite's result code.
int quaketui_register_counting_match(struct sqlite3 *db, quaketui_counting_match *match);

// MARK: The digest

// Every quake's keys packed in slots, QUAKETUI_DIGEST_CHUNK rows a BLOB, one table per part
// (SearchDigest.swift keeps them with every write before it commits), so that a search counts its
// sections, and the map and the statistics read their columns, in one pass in C. Slots are
// little-endian; an id no row has is a slot of zeros.
// - part 0, `quake_digest` (24 bytes): the folded place as an id in `quake_digest_text` (u32; 0: no
//   row), the depth bucket (i32, Schema.depthBucket), the time (i64, ms), the magnitude (f64; NaN:
//   unknown);
// - part 1, `quake_digest_location` (16 bytes): latitude, longitude (f64);
// - part 2, `quake_digest_detail` (16 bytes): the depth (f64; NaN: unknown), the region as a text id (u32),
//   the magnitude type and agency as an id in `quake_digest_kind` (u32).
#define QUAKETUI_DIGEST_CHUNK 4096
#define QUAKETUI_DIGEST_PARTS 3

typedef struct quaketui_digest_row {
    uint32_t text;
    int32_t depthBucket;
    int64_t time;
    double magnitude;       // NaN: unknown
    double latitude;
    double longitude;
    double depth;           // NaN: unknown
    uint32_t region;
    uint32_t kind;          // the (magType, source) pair's id in quake_digest_kind
} quaketui_digest_row;

// The bytes of a slot of `part`.
int quaketui_digest_slot_size(int part);
// Writes the fields of `part` of `row` into `slot`; reads them back.
void quaketui_digest_encode(int part, uint8_t *slot, const quaketui_digest_row *row);
void quaketui_digest_decode(int part, const uint8_t *slot, quaketui_digest_row *row);

// A row filter the digest holds the columns of (RowFilter.swift, and its SQL there, decides the
// same): a depth or magnitude within [low, high] (an unknown one never), a time from `from`
// (inclusive) until `until` (exclusive, when `hasUntil`), or within `radius` km of a point
// (quaketui_haversine_km from the point to the row, as SQL's quaketui_distance; `low` and `high`
// bound the latitudes first, a band never narrower than the distance), or a row id whose bit is
// set in `ids` (bit id % 8 of byte id / 8, `idBytes` bytes: RowFilter.declustered, as SQL's
// quaketui_in_bitmap tests it).
enum {
    QUAKETUI_FILTER_DEPTH = 0,
    QUAKETUI_FILTER_MAGNITUDE = 1,
    QUAKETUI_FILTER_TIME = 2,
    QUAKETUI_FILTER_NEAR = 3,
    QUAKETUI_FILTER_IDS = 4,
};

typedef struct quaketui_digest_filter {
    int kind;
    double low, high;
    int64_t from, until;
    int hasUntil;
    double latitude, longitude, radius;
    const uint8_t *ids;
    int64_t idBytes;
} quaketui_digest_filter;

// Which rows a pass over the digest takes: those whose place text has its bit in `matchingTexts`
// (a bitmap over text ids below `textCount`; NULL: every row) and that pass every filter (a depth
// filter needs part 2, a near one part 1), and for counting, those at or above the minimum magnitude.
typedef struct quaketui_digest_query {
    const uint64_t *matchingTexts;
    int64_t textCount;
    int hasMinimumMagnitude;
    double minimumMagnitude;
    int countKind;          // the buckets a scan counts in: 0 time, 1 magnitude, 3 depth (quake_count's kinds); -1 none
    int filterCount;
    const quaketui_digest_filter *filters;
} quaketui_digest_query;

// The parts of one chunk a pass reads: part 0 always, parts 1 and 2 when its filters (or the pass)
// need them, else NULL; `count` rows.
typedef struct quaketui_digest_chunk {
    const uint8_t *keys;
    const uint8_t *locations;
    const uint8_t *details;
    int64_t count;
    int64_t firstId;
} quaketui_digest_chunk;

// The dictionary's texts for a search, without SQLite's per-row cost (a real catalogue of five
// million quakes holds a million or more distinct places): `quake_digest_names` keeps the texts of
// ids chunk * QUAKETUI_DIGEST_CHUNK ..< (chunk + 1) * QUAKETUI_DIGEST_CHUNK in one BLOB, a u32 count
// of ids, that many u32 end offsets into the bytes after them, then the texts one after another
// (little-endian; an id without a text is an empty one). Sets the bit of id `firstId + i` in `bits`
// for each text i that contains `needle` byte for byte, or, when `atEnd` is not 0, ends with it
// (PlaceSearch.endings, ", ca") (every text when the needle is empty; ids at or past `bitCount`
// are left out). Returns the number of ids the BLOB holds, or -1 when it is not of this shape.
int64_t quaketui_digest_match_names(const uint8_t *blob, int64_t length, int64_t firstId,
                                    const uint8_t *needle, int64_t needleLength, int atEnd,
                                    uint64_t *bits, int64_t bitCount);

// The other words of a search (PlaceSearch): clears the bit of each id of the BLOB (the shape
// quaketui_digest_match_names reads) whose text matches none of the `needleCount` needles
// (needles[k], needleLengths[k] bytes; each non-empty): contains it, or, where atEnds[k] is not
// 0, ends with it. Every other bit is left as it is; only the texts whose bit is set are read.
// Returns the number of ids the BLOB holds, or -1 when it is not of that shape.
int64_t quaketui_digest_keep_names(const uint8_t *blob, int64_t length, int64_t firstId,
                                   const uint8_t *const *needles, const int64_t *needleLengths, const int32_t *atEnds,
                                   int needleCount, uint64_t *bits, int64_t bitCount);

// Adds the id of every row of `chunk` that `query` takes to `set`, and counts those passing the
// minimum magnitude in `buckets` by `countKind`. Returns 0, or quaketui_idset_insert's error.
int quaketui_digest_scan(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                         quaketui_idset *set, quaketui_buckets *buckets);


// The statistics' counts (CatalogueStatistics.Tally) that a pass over the digest adds to in C: the
// quakes, their time range, the run of the day and of the hour the last quakes fell in, and the
// smallest of the largest quakes kept. Bins are counted in arrays the caller passes.
#define QUAKETUI_TALLY_TENTH_BASE (-64)  // magnitude tenths -64 … 191 (M -6.4 … 19.1)
#define QUAKETUI_TALLY_TENTHS 256
#define QUAKETUI_TALLY_DEPTHS 29         // ten 10 km bins from -100 km, then nine 100 km bins to 1000 km
#define QUAKETUI_TALLY_HOURLY_SPAN 259200000LL  // under three days (ms) the timeline is per hour

typedef struct quaketui_tally {
    int64_t count;
    int64_t earliest, latest;       // INT64_MAX and INT64_MIN before the first quake
    int hasDay;                     // quakes in [dayStart, dayEnd) count in dayCount
    int64_t dayStart, dayEnd, dayCount;
    int countsHours;                // the quakes span under the hourly span so far
    int hasHour;                    // quakes in the hour from hourStart count in hourCount
    int64_t hourStart, hourCount;
    int keepsLargest;               // the largest are all kept: a quake must beat the smallest of them
    double smallestLargestMagnitude;
    int64_t smallestLargestTime;
} quaketui_tally;


// Where the composition (quaketui_composition) puts each row with a usable magnitude in time order
// (MagnitudesInTimeOrder in DigestTimeOrder.swift), in two bytes: in run
// `floor(time / QUAKETUI_RUN_MS) - first` (0 ..< runCount), at `ends[run]`, which then grows, never
// to `starts[run + 1]`; as its magnitude's code, `round(m × 100) + 510` for a magnitude in
// hundredths from -5.10 (QUAKETUI_HUNDREDTHS of them), or'ed with QUAKETUI_ROW_TIE when its
// milliseconds equal the row placed before it in the run. Any other magnitude is given code 0 and
// its position, magnitude and bin added to `deferred…` (room for a chunk's rows; `deferredCount`
// counts them) for the caller to code. A row outside the runs, or past its run's room, sets `failed`.
//
// The milliseconds are not kept: `states[run]` keeps the last row's (the low QUAKETUI_RUN_MS_BITS)
// and the run's shape so far (QUAKETUI_RUN_SHAPE_SHIFT up): rows at one millisecond, rising,
// falling or mixed. A run rising or falling is put in order without them; the caller marks the
// others (and those a day starts inside), `states[run] = QUAKETUI_RUN_MARKED | mark`, and
// quaketui_time_order_fill gives their rows' milliseconds, in `milliseconds`, at
// `markStarts[mark]` … `markStarts[mark + 1]`, `markEnds[mark]` counting them.
#define QUAKETUI_RUN_MS 1800000
#define QUAKETUI_CODE_BITS 11
#define QUAKETUI_ROW_TIE (1u << QUAKETUI_CODE_BITS)
#define QUAKETUI_RUN_MS_BITS 21
#define QUAKETUI_RUN_SHAPE_SHIFT 21
#define QUAKETUI_RUN_FLAT 0u
#define QUAKETUI_RUN_RISING 1u
#define QUAKETUI_RUN_FALLING 2u
#define QUAKETUI_RUN_MIXED 3u
#define QUAKETUI_RUN_MARKED 0x80000000u
#define QUAKETUI_LOWEST_HUNDREDTH (-510)
#define QUAKETUI_HUNDREDTHS 1521
typedef struct {
    int64_t first, runCount;
    const int32_t *starts;
    int32_t *ends;
    uint16_t *rows;
    uint32_t *states;
    int32_t *deferred;
    double *deferredMagnitudes;
    int16_t *deferredTenths;
    int64_t deferredCount;
    int failed;
    int64_t markCount;
    const int32_t *markStarts;
    int32_t *markEnds;
    uint32_t *milliseconds;
} quaketui_time_order;

// Puts one row with a usable magnitude (its bin `tenth`) in `order`.
void quaketui_time_order_place(quaketui_time_order *order, int64_t time, double magnitude, int16_t tenth);

// The milliseconds of the rows of `chunk` that `query` takes with a usable magnitude and that lie
// in a marked run, in the order quaketui_digest_tally placed them (a second pass over the digest,
// for the marked runs only). Sets `failed` at a row outside the runs or past its mark's room.
void quaketui_time_order_fill(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                              quaketui_time_order *order);

// A walk over the rows of an order whose runs are sorted (MagnitudesInTimeOrder.sortRuns), in time
// order: the seismic moment summed per day and per hour (CatalogueStatistics.MomentSums, the same
// additions in the same order) and b-positive's differences (BPositive). `run` and `position` are
// the next row; the day [dayStart, dayEnd) and, when `hourly`, the hour from `hourStart` are the
// runs the rows add to, with their sums so far.
typedef struct {
    int64_t run, position;
    int hasDay;
    int64_t dayStart, dayEnd;
    double daySum;
    int hourly, hasHour;
    int64_t hourStart;
    double hourSum;
    int hasPrevious;  // b-positive: the last bin, the differences of two bins or more, their sum and squares
    int64_t previous, count, sum, squares;
    int64_t time;     // the row returned: its time and code
    uint32_t code;
} quaketui_time_walk;

// Walks `order` from `walk`'s next row, adding each row's moment (`moments[code]`) to the day's
// and the hour's sums and its bin (`tenths[code]`) to b-positive. Returns 1 at the first row
// outside the day or the hour, its bin added and its moment not (the caller adds it, opening its
// day and hour, and calls again from the next row), with its time and code in `walk`; 0 at the end.
int quaketui_time_order_walk(const quaketui_time_order *order, const double *moments, const int16_t *tenths,
                             quaketui_time_walk *walk);

// The per-kind part of the statistics (DigestComposition.swift) that quaketui_digest_tally gathers
// beside the counts, for every row it takes, in the chunk's order (ids ascending): the row's kind's
// slot `kindSlots[kind id]` counted in `kindCounts[slot]`; its magnitude's bin
// (MagnitudeBin.tenth(of:)), when usable (QUAKETUI_USABLE_TENTH_MIN … QUAKETUI_USABLE_TENTH_MAX),
// counted in `kindTenths[slot * QUAKETUI_USABLE_TENTHS + tenth - QUAKETUI_USABLE_TENTH_MIN]`, and
// the row put in `order`. `taken` counts the rows; `failed` is set at a kind without a slot (an id
// of `kindSlotCount` or more, or a slot below 0), and nothing more is gathered.
#define QUAKETUI_USABLE_TENTH_MIN (-50)
#define QUAKETUI_USABLE_TENTH_MAX 100
#define QUAKETUI_USABLE_TENTHS 151  // QUAKETUI_USABLE_TENTH_MAX - QUAKETUI_USABLE_TENTH_MIN + 1
typedef struct {
    const int32_t *kindSlots;
    int64_t kindSlotCount;
    int64_t *kindCounts, *kindTenths;
    quaketui_time_order *order;
    int64_t taken;
    int failed;
} quaketui_composition;

// Counts the rows of `chunk` (with part 2) from `from` that `query` takes, the minimum magnitude
// included: in `tally`, in `tenths` (QUAKETUI_TALLY_TENTHS) and `depths` (QUAKETUI_TALLY_DEPTHS)
// by the depth band, and in `regions` by region id (ids below `regionCount`; a count a row id
// bounds, QUAKETUI_IDSET_LIMIT, fits in 32 bits, and a store's texts are many); and, unless
// `composition` is NULL, in it. Stops at the first such row it leaves to the caller, uncounted
// (but in `composition`) and decoded into `row`: one outside the day or the hour run, one that may
// be among the largest, or one whose magnitude or depth has no bin here. Returns that row's index
// (the caller counts it and calls again from the next), or chunk->count.
int64_t quaketui_digest_tally(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query, int64_t from,
                              quaketui_tally *tally, int64_t *tenths, int64_t *depths,
                              uint32_t *regions, int64_t regionCount, quaketui_digest_row *row,
                              quaketui_composition *composition);

// The columns of every row of `chunk` that `query` takes, the minimum magnitude included, in the
// chunk's order (ids ascending), each into its array (room for chunk->count) unless it is NULL:
// the id, time, magnitude (NaN: none) and, from part 2 (which `chunk` must then hold), the kind,
// depth (NaN: unknown) and region id, from part 1 the latitude and longitude. What the statistics'
// types, agencies and moment and declustering read (CatalogueEvents.swift). Returns how many.
int64_t quaketui_digest_columns(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                                int64_t *ids, int64_t *times, double *magnitudes, uint32_t *kinds, double *depths,
                                uint32_t *regions, double *latitudes, double *longitudes);

// A map window over the digest (DensityGrid.swift): latitudes within [minimumLatitude,
// maximumLatitude] (±infinity: any), longitudes within one of `rangeCount` closed ranges (0: any),
// cells of `cellDegrees` on the globe (`rows` × `columns`).
typedef struct quaketui_density_window {
    double minimumLatitude, maximumLatitude;
    int rangeCount;
    double ranges[4];       // west, east of each range
    double cellDegrees;
    // The window's cells (counts[row * columns + column]), from the globe's cell
    // (rowOrigin, columnOrigin); columns wrap at the date line (globeColumns).
    int64_t rows, columns;
    int64_t rowOrigin, columnOrigin, globeRows, globeColumns;
} quaketui_density_window;

// Counts the rows of `chunk` (with part 1) that `query` takes (the minimum magnitude included) and
// the window holds, per cell of the window: counts[row * columns + column], and the largest magnitude in maxima
// (left as it is for a cell without one). Returns how many such rows fall off the grid (a
// coordinate off the globe): the caller then counts with SQL.
int64_t quaketui_digest_density(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                                const quaketui_density_window *window, int64_t *counts, double *maxima);

// Where a row sorts in one section of a magnitude or depth order: the rows of the section that
// come before it, counted from the digest instead of walking the order's index (a band of a
// million rows or more at 5,000,000 quakes: a walk of 0.2–0.8 s).
enum {
    QUAKETUI_ANCHOR_MAGNITUDE = 0,  // part 0
    QUAKETUI_ANCHOR_DEPTH = 1,      // part 2
};

typedef struct quaketui_digest_anchor {
    int key;
    int descending;            // the order is (key, time, id) DESC, else ASC
    int unknown;               // the section of the rows without the key (NULL), ordered by (time, id)
    double low, high;          // else the section's rows have low <= key < high (either may be infinite)
    double value;              // the anchor's key (not read in the unknown section)
    int64_t time, id;          // the anchor's time and id
} quaketui_digest_anchor;

// How many rows of `chunk` that `query` takes (the minimum magnitude included) are in the anchor's
// section and sort before the anchor: SQL's `count(*) … WHERE <section> AND (key, time, id) < (?, ?, ?)`
// (`>` descending; `(time, id)` in the unknown section), a NULL key being NaN. Returns -1 when
// `chunk` lacks part 2 for a depth.
int64_t quaketui_digest_count_before(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                                     const quaketui_digest_anchor *anchor);

// Adds to atLeast[i], for each of the `boundCount` ascending `bounds` (km), the rows of `chunk` (with
// part 1) that `query` takes (the minimum magnitude included) at least bounds[i] km from the point
// (quaketui_haversine_km, as SQL's `quaketui_distance(…) >= bound`; a distance that is not finite,
// NULL in SQL, reaches no bound): a distance sort's band counts before its table is built.
void quaketui_digest_distances(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                               double latitude, double longitude, const double *bounds, int boundCount, int64_t *atLeast);

#endif
