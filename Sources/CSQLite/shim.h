#ifndef QUAKETUI_CSQLITE_SHIM_H
#define QUAKETUI_CSQLITE_SHIM_H
// Debian's libsqlite3-dev header. Everything quaketui needs imports into Swift as is;
// SQLITE_TRANSIENT (a cast macro Swift cannot import) is defined once in Swift instead.
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: this fixed-argument wrapper limits
// memory-mapped I/O to none, process-wide, before SQLite initializes. quaketui never maps its
// store (PRAGMA mmap_size stays 0); what this stops is the sorter behind CREATE INDEX mapping its
// temp files, whose pages then count as the process's resident memory (an import into an empty
// store builds its indexes after the load: 104 MB peak at 1M quakes instead of ~40 MB).
static inline int quaketui_sqlite3_disable_mmap(void) {
    return sqlite3_config(SQLITE_CONFIG_MMAP_SIZE, (sqlite3_int64)0, (sqlite3_int64)0);
}

// Memory statistics off, process-wide, before SQLite initializes: with them on (the default)
// every sqlite3_malloc and sqlite3_free takes a global mutex to keep the counters quaketui never
// reads (sqlite3_memory_used) — 6.4 million lock/unlock pairs, ~4% of the instructions, in a
// 100,000-quake import (callgrind). Connections are opened SQLITE_OPEN_NOMUTEX already.
static inline int quaketui_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
// The great-circle distance as an SQL function, `quaketui_distance(lat1, lon1, lat2, lon2)` in km,
// registered on every connection (quaketui_register_functions). Written in C because SQLite calls
// it a million times in one `distance` sort (a row each): the same haversine spelled with SQLite's
// math functions took ~15 function calls and ~6 µs a row; this is one call. It computes exactly
// what GeoPoint.distance(to:) computes — the same operations in the same order, through the same
// C library's sin, cos, asin and sqrt, with no contraction into fused multiply-adds — so SQL and
// Swift agree to the bit (GeoPointSQLFunctionTests checks it on every row of real feeds).
// An argument that is NULL or not a number (after SQLite's numeric affinity, as its own math
// functions treat text) gives NULL; so does a non-finite result.
#include <math.h>
#pragma STDC FP_CONTRACT OFF

#define QUAKETUI_EARTH_RADIUS_KM 6371.0088

static inline double quaketui_haversine_km(double latitude1, double longitude1, double latitude2, double longitude2) {
    // GeoPoint.distance(to:), term by term: `x * .pi / 180` is (x * π) / 180; Swift's
    // min(1, s) is `s < 1 ? s : 1`.
    double phi1 = latitude1 * M_PI / 180, phi2 = latitude2 * M_PI / 180;
    double dPhi = phi2 - phi1, dLambda = (longitude2 - longitude1) * M_PI / 180;
    double a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2);
    double s = sqrt(a);
    return 2 * QUAKETUI_EARTH_RADIUS_KM * asin(s < 1 ? s : 1);
}

static inline void quaketui_distance_function(sqlite3_context *context, int count, sqlite3_value **values) {
    double arguments[4];
    if (count != 4) return;
    for (int index = 0; index < 4; index++) {
        int type = sqlite3_value_numeric_type(values[index]);
        if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) return;  // NULL result
        arguments[index] = sqlite3_value_double(values[index]);
    }
    double km = quaketui_haversine_km(arguments[0], arguments[1], arguments[2], arguments[3]);
    if (isfinite(km)) sqlite3_result_double(context, km);
}

// sqlite3_create_function_v2 takes C function pointers; registering from C keeps the callback
// out of Swift's calling convention. Deterministic (the planner may factor it out and index on
// it) and innocuous (safe in views and triggers). Returns SQLite's result code.
static inline int quaketui_register_functions(sqlite3 *db) {
    return sqlite3_create_function_v2(db, "quaketui_distance", 4,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      0, quaketui_distance_function, 0, 0, 0);
}
// A set of row ids as a bitmap, for a results controller's search and filter matches (see
// MatchSet.swift). A million quakes take 125 KB; the SQL functions below test and fill it per row
// at the cost of a function call, where a temp table cost a B-tree insert per match (0.7 s for
// the 974,000 matches of "a" at 1M quakes) and a B-tree probe per row walked (0.5 s).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The largest id + 1 a set holds: 32 MB of bitmap. quaketui's own stores number rows from 1 up
// (a million quakes is decades of refreshes); a file with a row id past this (made by hand) gets
// an error for its searches, not a bitmap of gigabytes.
#define QUAKETUI_IDSET_LIMIT ((sqlite3_int64)1 << 28)

typedef struct quaketui_idset {
    uint64_t *words;        // bit (id % 64) of words[id / 64]
    sqlite3_int64 wordCount;
    sqlite3_int64 count;    // ids in the set
} quaketui_idset;

// Makes room for `id` (0 ≤ id). Returns 0, or SQLITE_NOMEM (the set is unchanged).
static inline int quaketui_idset_reserve(quaketui_idset *set, sqlite3_int64 id) {
    sqlite3_int64 word = id / 64;
    if (word < set->wordCount) return 0;
    sqlite3_int64 wanted = set->wordCount * 2 > word + 1 ? set->wordCount * 2 : word + 1;
    if (wanted < 1024) wanted = 1024;
    if ((uint64_t)wanted > SIZE_MAX / sizeof(uint64_t)) return SQLITE_NOMEM;
    uint64_t *words = realloc(set->words, (size_t)wanted * sizeof(uint64_t));
    if (!words) return SQLITE_NOMEM;
    memset(words + set->wordCount, 0, (size_t)(wanted - set->wordCount) * sizeof(uint64_t));
    set->words = words;
    set->wordCount = wanted;
    return 0;
}

static inline int quaketui_idset_contains(const quaketui_idset *set, sqlite3_int64 id) {
    if (id < 0 || id / 64 >= set->wordCount) return 0;
    return (set->words[id / 64] >> (id % 64)) & 1;
}

// Adds `id`: 0, or SQLITE_RANGE for an id outside 0 ..< QUAKETUI_IDSET_LIMIT, SQLITE_NOMEM when
// there is no room.
static inline int quaketui_idset_insert(quaketui_idset *set, sqlite3_int64 id) {
    if (id < 0 || id >= QUAKETUI_IDSET_LIMIT) return SQLITE_RANGE;
    int rc = quaketui_idset_reserve(set, id);
    if (rc) return rc;
    uint64_t bit = (uint64_t)1 << (id % 64);
    if (!(set->words[id / 64] & bit)) { set->words[id / 64] |= bit; set->count++; }
    return 0;
}

static inline void quaketui_idset_remove(quaketui_idset *set, sqlite3_int64 id) {
    if (!quaketui_idset_contains(set, id)) return;
    set->words[id / 64] &= ~((uint64_t)1 << (id % 64));
    set->count--;
}

static inline void quaketui_idset_clear(quaketui_idset *set) {
    if (set->words) memset(set->words, 0, (size_t)set->wordCount * sizeof(uint64_t));
    set->count = 0;
}

static inline void quaketui_idset_free(quaketui_idset *set) {
    free(set->words);
    set->words = 0;
    set->wordCount = 0;
    set->count = 0;
}

// Makes `target` a copy of `source`: 0, or SQLITE_NOMEM (`target` is then unchanged).
static inline int quaketui_idset_copy(quaketui_idset *target, const quaketui_idset *source) {
    if (target->wordCount < source->wordCount) {
        uint64_t *words = realloc(target->words, (size_t)source->wordCount * sizeof(uint64_t));
        if (!words) return SQLITE_NOMEM;
        target->words = words;
        target->wordCount = source->wordCount;
    }
    if (source->wordCount) memcpy(target->words, source->words, (size_t)source->wordCount * sizeof(uint64_t));
    if (target->wordCount > source->wordCount)
        memset(target->words + source->wordCount, 0, (size_t)(target->wordCount - source->wordCount) * sizeof(uint64_t));
    target->count = source->count;
    return 0;
}

// The smallest id ≥ `from` in the set, or -1.
static inline sqlite3_int64 quaketui_idset_next(const quaketui_idset *set, sqlite3_int64 from) {
    if (from < 0) from = 0;
    for (sqlite3_int64 word = from / 64; word < set->wordCount; word++) {
        uint64_t bits = set->words[word];
        if (word == from / 64) bits &= ~(uint64_t)0 << (from % 64);
        if (bits) return word * 64 + __builtin_ctzll(bits);
    }
    return -1;
}

// quaketui_matched(id): 1 if id is in the connection's set, else 0 (NULL or not an integer: 0).
static inline void quaketui_matched_function(sqlite3_context *context, int count, sqlite3_value **values) {
    const quaketui_idset *set = sqlite3_user_data(context);
    int matched = count == 1 && sqlite3_value_type(values[0]) == SQLITE_INTEGER
        && quaketui_idset_contains(set, sqlite3_value_int64(values[0]));
    sqlite3_result_int(context, matched);
}

// Adds the row id `value` to `set` for an SQL function: 1, or 0 with the function's error set
// (not an integer, no memory, or an id outside the set's range).
static inline int quaketui_match_insert(sqlite3_context *context, quaketui_idset *set, sqlite3_value *value,
                                        const char *usage) {
    if (sqlite3_value_type(value) != SQLITE_INTEGER) { sqlite3_result_error(context, usage, -1); return 0; }
    int rc = quaketui_idset_insert(set, sqlite3_value_int64(value));
    if (rc == SQLITE_NOMEM) { sqlite3_result_error_nomem(context); return 0; }
    if (rc) { sqlite3_result_error(context, "a row id below 0 or above 268,435,455, which a search cannot hold (a store edited by hand?)", -1); return 0; }
    return 1;
}

// quaketui_match(id): adds id to the connection's set and returns 1 (used as the last term of a
// WHERE clause, so it runs once per matching row). A negative id or no memory is an error.
static inline void quaketui_match_function(sqlite3_context *context, int count, sqlite3_value **values) {
    if (count != 1 || !quaketui_match_insert(context, sqlite3_user_data(context), values[0],
                                             "quaketui_match takes one integer row id")) return;
    sqlite3_result_int(context, 1);
}

// Counts per integer bucket (a section's 15-minute time bucket or magnitude bucket), in one
// array over the span of buckets seen: the section counts of a search gathered by the scan that
// builds its match set, instead of a second walk over every matching row. A span past
// QUAKETUI_BUCKETS_LIMIT buckets (8 MB; 60 years of 15-minute buckets) gives up (`overflow`), and
// the caller counts by walking.
#define QUAKETUI_BUCKETS_LIMIT ((sqlite3_int64)1 << 21)

typedef struct quaketui_buckets {
    sqlite3_int64 base;     // the bucket counts[0] counts
    sqlite3_int64 length;   // buckets in counts
    uint32_t *counts;
    int overflow;           // 1: a span too wide (or no memory): the counts are not to be used
} quaketui_buckets;

static inline void quaketui_buckets_free(quaketui_buckets *buckets) {
    free(buckets->counts);
    buckets->counts = 0;
    buckets->base = 0;
    buckets->length = 0;
    buckets->overflow = 0;
}

// Adds one to `bucket`, widening the span to hold it (doubling, so a scan reallocates a few times).
static inline void quaketui_buckets_add(quaketui_buckets *buckets, sqlite3_int64 bucket) {
    if (buckets->overflow) return;
    if (buckets->length == 0 || bucket < buckets->base || bucket >= buckets->base + buckets->length) {
        sqlite3_int64 low = buckets->length ? (bucket < buckets->base ? bucket : buckets->base) : bucket;
        sqlite3_int64 high = buckets->length ? (bucket >= buckets->base + buckets->length ? bucket + 1 : buckets->base + buckets->length) : bucket + 1;
        if (high - low > QUAKETUI_BUCKETS_LIMIT || high < low) { quaketui_buckets_free(buckets); buckets->overflow = 1; return; }
        sqlite3_int64 length = buckets->length * 2 > high - low ? buckets->length * 2 : high - low;
        if (length < 64) length = 64;
        if (length > QUAKETUI_BUCKETS_LIMIT) length = QUAKETUI_BUCKETS_LIMIT;
        // Grow towards the side the new bucket is on.
        if (buckets->length && bucket < buckets->base) low = buckets->base + buckets->length - length;
        uint32_t *counts = calloc((size_t)length, sizeof(uint32_t));
        if (!counts) { quaketui_buckets_free(buckets); buckets->overflow = 1; return; }
        if (buckets->length) memcpy(counts + (buckets->base - low), buckets->counts, (size_t)buckets->length * sizeof(uint32_t));
        free(buckets->counts);
        buckets->counts = counts;
        buckets->base = low;
        buckets->length = length;
    }
    buckets->counts[bucket - buckets->base]++;
}

// What quaketui_match_counting reaches: the set it adds to and the buckets it counts in.
typedef struct quaketui_counting_match {
    quaketui_idset *set;
    quaketui_buckets *buckets;
} quaketui_counting_match;

// quaketui_match_counting(id, bucket): quaketui_match(id), and one more in `bucket` unless it is
// NULL (a row in the set that the view leaves out, e.g. below the minimum magnitude).
static inline void quaketui_match_counting_function(sqlite3_context *context, int count, sqlite3_value **values) {
    quaketui_counting_match *match = sqlite3_user_data(context);
    if (count != 2 || !quaketui_match_insert(context, match->set, values[0],
                                             "quaketui_match_counting takes an integer row id and a bucket")) return;
    if (sqlite3_value_type(values[1]) == SQLITE_INTEGER) quaketui_buckets_add(match->buckets, sqlite3_value_int64(values[1]));
    sqlite3_result_int(context, 1);
}

// Registers quaketui_matched and quaketui_match on `db` over `set`, which must outlive every
// statement that calls them. Neither is deterministic: the set changes between statements.
// Direct-only: a view or trigger in a store cannot reach them. Returns SQLite's result code.
static inline int quaketui_register_idset(sqlite3 *db, quaketui_idset *set) {
    int rc = sqlite3_create_function_v2(db, "quaketui_matched", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                        set, quaketui_matched_function, 0, 0, 0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_create_function_v2(db, "quaketui_match", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                      set, quaketui_match_function, 0, 0, 0);
}

// Registers quaketui_match_counting on `db` over `match` (which must outlive its statements).
static inline int quaketui_register_counting_match(sqlite3 *db, quaketui_counting_match *match) {
    return sqlite3_create_function_v2(db, "quaketui_match_counting", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                      match, quaketui_match_counting_function, 0, 0, 0);
}
#endif
