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
#endif
