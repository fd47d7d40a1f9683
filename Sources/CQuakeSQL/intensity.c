// quaketui_intensity(homeLat, homeLon, lat, lon, depth, magnitude): the Modified Mercalli intensity
// Allen, Wald & Worden (2012) predict at home, hypocentral model, unrounded and unclamped —
// FeltIntensity.equation as an SQL function, registered on every connection beside
// quaketui_distance. The same operations in the same order as the Swift, through the same C
// library (exp, log, sqrt) and without fused multiply-adds, so the two agree to the bit
// (IntensityTests recompute it independently and compare both).
#include "CQuakeSQL.h"

#include <math.h>
#include <sqlite3.h>

#pragma STDC FP_CONTRACT OFF
#if defined(__FAST_MATH__)
#error "intensity.c must not be built with -ffast-math: quaketui_intensity must equal FeltIntensity.value to the bit"
#endif

double quaketui_intensity_value(double magnitude, double hypocentralKm) {
    // FeltIntensity.Coefficients.nearest: a nearer quake is predicted as at 6 km.
    if (hypocentralKm <= 6.0) hypocentralKm = 6.0;
    double rm = -0.209 + 2.042 * exp(magnitude - 5);
    double mmi = 2.085 + 1.428 * magnitude + -1.402 * log(sqrt(hypocentralKm * hypocentralKm + rm * rm));
    if (hypocentralKm > 50.0) mmi = mmi + 0.078 * log(hypocentralKm / 50.0);
    return mmi;
}

static void intensity_function(sqlite3_context *context, int count, sqlite3_value **values) {
    double arguments[6];
    if (count != 6) return;
    for (int index = 0; index < 6; index++) {
        int type = sqlite3_value_numeric_type(values[index]);
        if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
            arguments[index] = sqlite3_value_double(values[index]);
        } else if (index == 4) {
            arguments[index] = 0;  // an unknown depth counts as 0 km
        } else {
            return;  // NULL: no magnitude (or no place)
        }
    }
    double epicentral = quaketui_haversine_km(arguments[0], arguments[1], arguments[2], arguments[3]);
    double depth = arguments[4];
    double hypocentral = sqrt(epicentral * epicentral + depth * depth);
    double mmi = quaketui_intensity_value(arguments[5], hypocentral);
    if (isnan(mmi)) return;
    sqlite3_result_double(context, mmi);
}

int quaketui_register_intensity(struct sqlite3 *db) {
    return sqlite3_create_function_v2(db, "quaketui_intensity", 6,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      0, intensity_function, 0, 0, 0);
}
