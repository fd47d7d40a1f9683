// quaketui_distance(lat1, lon1, lat2, lon2) in km: GeoPoint.distance(to:) as an SQL function,
// registered on every connection (Connection.init). Written in C because SQLite calls it a million
// times in one `distance` sort (a row each): the same haversine spelled with SQLite's math
// functions took ~15 function calls and ~6 µs a row; this is one call. DistanceFunctionTests
// (QuakeStore) checks it against Swift bit for bit on every row of real feeds.
#include "CQuakeSQL.h"

#include <math.h>
#include <sqlite3.h>

// Bit-identical to Swift needs each product and sum rounded on its own: no contraction of
// `a * b + c` into a fused multiply-add (clang's default -ffp-contract=on honours this pragma;
// Swift never contracts). -ffast-math would also reassociate, so it is refused outright.
#pragma STDC FP_CONTRACT OFF
#if defined(__FAST_MATH__)
#error "distance.c must not be built with -ffast-math: quaketui_distance must equal GeoPoint.distance(to:) to the bit"
#endif

double quaketui_haversine_km(double latitude1, double longitude1, double latitude2, double longitude2) {
    // GeoPoint.distance(to:), term by term: `x * .pi / 180` is (x * π) / 180; Swift's
    // min(1, s) is `s < 1 ? s : 1`.
    double phi1 = latitude1 * M_PI / 180, phi2 = latitude2 * M_PI / 180;
    double dPhi = phi2 - phi1, dLambda = (longitude2 - longitude1) * M_PI / 180;
    double a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2);
    double s = sqrt(a);
    return 2 * QUAKETUI_EARTH_RADIUS_KM * asin(s < 1 ? s : 1);
}

static void distance_function(sqlite3_context *context, int count, sqlite3_value **values) {
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

// sqlite3_create_function_v2 takes C function pointers; registering from C keeps the callback out
// of Swift's calling convention.
int quaketui_register_functions(struct sqlite3 *db) {
    int result = sqlite3_create_function_v2(db, "quaketui_distance", 4,
                                            SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                            0, distance_function, 0, 0, 0);
    if (result != 0) return result;
    result = quaketui_register_intensity(db);  // intensity.c
    if (result != 0) return result;
    return quaketui_register_in_bitmap(db);  // match.c
}
