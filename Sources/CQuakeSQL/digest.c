// The digest's passes (CQuakeSQL.h): a search's match set and section counts, and the map's
// cells, from the packed keys of every row, without SQLite's per-row cost (20–100 ns a row:
// 0.15–0.5 s over 5M quakes).
#define _GNU_SOURCE  // memmem
#include "CQuakeSQL.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

// Slots are little-endian (the store file moves between machines as SQLite's own format does).
static inline uint32_t load_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t load_u64(const uint8_t *p) {
    return (uint64_t)load_u32(p) | (uint64_t)load_u32(p + 4) << 32;
}

static inline double load_f64(const uint8_t *p) {
    uint64_t bits = load_u64(p);
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static inline void store_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static inline void store_u64(uint8_t *p, uint64_t v) {
    store_u32(p, (uint32_t)v);
    store_u32(p + 4, (uint32_t)(v >> 32));
}

static inline void store_f64(uint8_t *p, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    store_u64(p, bits);
}

// The bytes of a slot of each part (CQuakeSQL.h).
enum { KEY_SLOT = 24, LOCATION_SLOT = 16, DETAIL_SLOT = 16 };

static const int slot_sizes[QUAKETUI_DIGEST_PARTS] = {KEY_SLOT, LOCATION_SLOT, DETAIL_SLOT};

int quaketui_digest_slot_size(int part) { return part >= 0 && part < QUAKETUI_DIGEST_PARTS ? slot_sizes[part] : 0; }

void quaketui_digest_encode(int part, uint8_t *slot, const quaketui_digest_row *row) {
    switch (part) {
    case 0:
        store_u32(slot, row->text);
        store_u32(slot + 4, (uint32_t)row->depthBucket);
        store_u64(slot + 8, (uint64_t)row->time);
        store_f64(slot + 16, row->magnitude);
        break;
    case 1:
        store_f64(slot, row->latitude);
        store_f64(slot + 8, row->longitude);
        break;
    case 2:
        store_f64(slot, row->depth);
        store_u32(slot + 8, row->region);
        store_u32(slot + 12, row->kind);
        break;
    }
}

void quaketui_digest_decode(int part, const uint8_t *slot, quaketui_digest_row *row) {
    switch (part) {
    case 0:
        row->text = load_u32(slot);
        row->depthBucket = (int32_t)load_u32(slot + 4);
        row->time = (int64_t)load_u64(slot + 8);
        row->magnitude = load_f64(slot + 16);
        break;
    case 1:
        row->latitude = load_f64(slot);
        row->longitude = load_f64(slot + 8);
        break;
    case 2:
        row->depth = load_f64(slot);
        row->region = load_u32(slot + 8);
        row->kind = load_u32(slot + 12);
        break;
    }
}

// MagnitudeBin.tenth(of:): floor(m × 10 + 0.5), the product rounded before the sum (not
// fused into one fma, as Swift computes it), stepped to the bin whose edges, (2t - 1) / 20 and
// (2t + 1) / 20, hold the magnitude. NaN gives NaN, which every range test below refuses.
static inline double magnitude_tenth(double magnitude) {
    double scaled = magnitude * 10;
    double t = floor(scaled + 0.5);
    if (magnitude < (t * 2 - 1) / 20) t -= 1;
    else if (magnitude >= (t * 2 + 1) / 20) t += 1;
    return t;
}

// Every magnitude in hundredths from -5.10 (QUAKETUI_HUNDREDTHS of them, MagnitudeCodes): its value,
// `(double)k / 100` as Swift's `Double(k) / 100` gives it, and its bin (magnitude_tenth). Nearly
// every magnitude of a real catalogue is one: the passes look these up instead of dividing and
// flooring each row.
static double hundredth_values[QUAKETUI_HUNDREDTHS];
static int16_t hundredth_tenths[QUAKETUI_HUNDREDTHS];
static pthread_once_t hundredths_once = PTHREAD_ONCE_INIT;

static void fill_hundredths(void) {
    for (int code = 0; code < QUAKETUI_HUNDREDTHS; code++) {
        hundredth_values[code] = (double)(code + QUAKETUI_LOWEST_HUNDREDTH) / 100;
        hundredth_tenths[code] = (int16_t)magnitude_tenth(hundredth_values[code]);
    }
}

// The code of `magnitude` among the hundredths, or -1 for any other magnitude (NaN included): the
// code `round(m × 100) + 510` gives where `Double(code - 510) / 100` is the magnitude itself.
static inline int32_t hundredth_code(double magnitude) {
    double index = magnitude * 100 - QUAKETUI_LOWEST_HUNDREDTH + 0.5;
    if (!(index >= 0 && index < QUAKETUI_HUNDREDTHS)) return -1;
    int32_t code = (int32_t)index;  // a hundredth's product is within an ulp of its integer
    return hundredth_values[code] == magnitude ? code : -1;
}

// magnitude_tenth(magnitude), looked up for a hundredth (`code` >= 0).
static inline double tenth_of(double magnitude, int32_t code) {
    return code >= 0 ? hundredth_tenths[code] : magnitude_tenth(magnitude);
}

// Schema.timeBucket: floor(time / 900000), also before 1970. A time within 2^62 of the end of
// int64 (a store edited by hand; SQL's arithmetic turns to REAL there) gives a bucket the counts
// give up on (quaketui_buckets_add), so the caller walks.
static inline int64_t time_bucket(int64_t time) {
    if (time < -(INT64_C(1) << 62)) return INT64_MIN;
    return time >= 0 ? time / 900000 : -((899999 - time) / 900000);
}

// Schema.magnitudeBucket (MagnitudeBin.whole): -1 unknown, else the whole magnitude as shown,
// by its tenth: 0 below 1.0 (M 0.95), 6 from 6.0 (M 5.95).
static inline int64_t magnitude_bucket(double magnitude) {
    if (isnan(magnitude)) return -1;
    double tenth = magnitude_tenth(magnitude);
    if (tenth < 10) return 0;
    if (tenth >= 60) return 6;
    return (int64_t)(tenth / 10);
}

// Whether row `index` of `chunk` is one the query takes: its place and every filter (not the
// minimum magnitude, which the results test beside the match set).
__attribute__((always_inline)) static inline int takes_row(const quaketui_digest_chunk *chunk, int64_t index, const quaketui_digest_query *query) {
    const uint8_t *slot = chunk->keys + index * KEY_SLOT;
    uint32_t text = load_u32(slot);
    // 0: no row has this id. A text past the dictionary read (none: one snapshot) matches nothing.
    if (text == 0) return 0;
    if (query->matchingTexts
        && !((int64_t)text < query->textCount && ((query->matchingTexts[text / 64] >> (text % 64)) & 1))) return 0;
    for (int i = 0; i < query->filterCount; i++) {
        const quaketui_digest_filter *filter = query->filters + i;
        switch (filter->kind) {
        case QUAKETUI_FILTER_DEPTH: {
            // `depth BETWEEN ? AND ?`: NULL (NaN) never passes.
            double depth = load_f64(chunk->details + index * DETAIL_SLOT);
            if (!(depth >= filter->low && depth <= filter->high)) return 0;
            break;
        }
        case QUAKETUI_FILTER_MAGNITUDE: {
            double magnitude = load_f64(slot + 16);
            if (!(magnitude >= filter->low && magnitude <= filter->high)) return 0;
            break;
        }
        case QUAKETUI_FILTER_TIME: {
            int64_t time = (int64_t)load_u64(slot + 8);
            if (time < filter->from || (filter->hasUntil && time >= filter->until)) return 0;
            break;
        }
        case QUAKETUI_FILTER_NEAR: {
            double latitude = load_f64(chunk->locations + index * LOCATION_SLOT);
            if (!(latitude >= filter->low && latitude <= filter->high)) return 0;
            double longitude = load_f64(chunk->locations + index * LOCATION_SLOT + 8);
            // quaketui_distance is NULL for a distance that is not finite.
            double km = quaketui_haversine_km(filter->latitude, filter->longitude, latitude, longitude);
            if (!(isfinite(km) && km <= filter->radius)) return 0;
            break;
        }
        case QUAKETUI_FILTER_IDS: {
            int64_t id = chunk->firstId + index;
            if (!(id >= 0 && id / 8 < filter->idBytes && ((filter->ids[id / 8] >> (id % 8)) & 1))) return 0;
            break;
        }
        default: return 0;
        }
    }
    return 1;
}

// `magnitude >= ?`: NULL (NaN) never passes.
static inline int passes_magnitude(double magnitude, const quaketui_digest_query *query) {
    return !query->hasMinimumMagnitude || magnitude >= query->minimumMagnitude;
}

int quaketui_digest_scan(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                         quaketui_idset *set, quaketui_buckets *buckets) {
    for (int64_t index = 0; index < chunk->count; index++) {
        if (!takes_row(chunk, index, query)) continue;
        int rc = quaketui_idset_insert(set, chunk->firstId + index);
        if (rc) return rc;
        if (query->countKind < 0) continue;
        const uint8_t *slot = chunk->keys + index * KEY_SLOT;
        double magnitude = load_f64(slot + 16);
        if (!passes_magnitude(magnitude, query)) continue;
        switch (query->countKind) {
        case 0: quaketui_buckets_add(buckets, time_bucket((int64_t)load_u64(slot + 8))); break;
        case 1: quaketui_buckets_add(buckets, magnitude_bucket(magnitude)); break;
        case 3: quaketui_buckets_add(buckets, (int32_t)load_u32(slot + 4)); break;
        default: break;
        }
    }
    return 0;
}

int64_t quaketui_digest_density(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                                const quaketui_density_window *window, int64_t *counts, double *maxima) {
    int64_t outside = 0;
    for (int64_t index = 0; index < chunk->count; index++) {
        if (!takes_row(chunk, index, query)) continue;
        double magnitude = load_f64(chunk->keys + index * KEY_SLOT + 16);
        if (!passes_magnitude(magnitude, query)) continue;
        double latitude = load_f64(chunk->locations + index * LOCATION_SLOT), longitude = load_f64(chunk->locations + index * LOCATION_SLOT + 8);
        // `latitude BETWEEN ? AND ?`, `(longitude BETWEEN ? AND ? OR …)`.
        if (!(latitude >= window->minimumLatitude && latitude <= window->maximumLatitude)) continue;
        int inside = window->rangeCount == 0;
        for (int range = 0; range < window->rangeCount; range++) {
            if (longitude >= window->ranges[2 * range] && longitude <= window->ranges[2 * range + 1]) { inside = 1; break; }
        }
        if (!inside) continue;
        // DensityGrid.cellIndex: truncated toward zero, as Swift's Int(_:) (-0.5 is row 0).
        double row = (latitude + 90) / window->cellDegrees, column = (longitude + 180) / window->cellDegrees;
        if (!(row > -1 && row < (double)window->globeRows && column > -1 && column < (double)window->globeColumns)) { outside++; continue; }
        // GridLayout.index(row:column:): the globe's cell in the window's own array.
        int64_t local_row = (int64_t)row - window->rowOrigin;
        int64_t local_column = ((int64_t)column - window->columnOrigin + window->globeColumns) % window->globeColumns;
        if (local_row < 0 || local_row >= window->rows || local_column >= window->columns) continue;
        int64_t cell = local_row * window->columns + local_column;
        counts[cell]++;
        if (!isnan(magnitude) && magnitude > maxima[cell]) maxima[cell] = magnitude;
    }
    return outside;
}

// Whether (a, time, id) sorts before (b, bt, bi) ascending; the values are not NaN.
static inline int precedes_ascending(double a, int64_t at, int64_t ai, double b, int64_t bt, int64_t bi) {
    if (a != b) return a < b;
    if (at != bt) return at < bt;
    return ai < bi;
}

int64_t quaketui_digest_count_before(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                                     const quaketui_digest_anchor *anchor) {
    int64_t before = 0;
    if (anchor->key == QUAKETUI_ANCHOR_DEPTH && !chunk->details) return -1;
    for (int64_t index = 0; index < chunk->count; index++) {
        const uint8_t *slot = chunk->keys + index * KEY_SLOT;
        double magnitude = load_f64(slot + 16);
        if (!takes_row(chunk, index, query) || !passes_magnitude(magnitude, query)) continue;
        double key = anchor->key == QUAKETUI_ANCHOR_DEPTH ? load_f64(chunk->details + index * DETAIL_SLOT) : magnitude;
        int64_t time = (int64_t)load_u64(slot + 8), id = chunk->firstId + index;
        int earlier;
        if (anchor->unknown) {
            if (!isnan(key)) continue;
            earlier = anchor->descending ? precedes_ascending(0, anchor->time, anchor->id, 0, time, id)
                                         : precedes_ascending(0, time, id, 0, anchor->time, anchor->id);
        } else {
            if (!(key >= anchor->low && key < anchor->high)) continue;  // NaN: in no known band
            earlier = anchor->descending ? precedes_ascending(anchor->value, anchor->time, anchor->id, key, time, id)
                                         : precedes_ascending(key, time, id, anchor->value, anchor->time, anchor->id);
        }
        before += earlier;
    }
    return before;
}

void quaketui_digest_distances(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                               double latitude, double longitude, const double *bounds, int boundCount, int64_t *atLeast) {
    for (int64_t index = 0; index < chunk->count; index++) {
        if (!takes_row(chunk, index, query)) continue;
        if (!passes_magnitude(load_f64(chunk->keys + index * KEY_SLOT + 16), query)) continue;
        const uint8_t *location = chunk->locations + index * LOCATION_SLOT;
        // quaketui_distance's own arithmetic, so a row lands in the band its table row will.
        double km = quaketui_haversine_km(latitude, longitude, load_f64(location), load_f64(location + 8));
        if (!isfinite(km)) continue;  // NULL in SQL: in no band
        // Bounds ascend: the rows at or past a bound are at or past every smaller one.
        for (int bound = 0; bound < boundCount && km >= bounds[bound]; bound++) atLeast[bound]++;
    }
}

// CatalogueStatistics.Tally.depthSlot(ofBand:): the slot of a band's lower edge (whole km), -1
// outside -100 … 1000 km.
static inline int depth_slot(int32_t band) {
    if (band >= -100 && band < 100) return band / 10 + 10;
    if (band >= 100 && band < 1000) return band / 100 + 19;
    return -1;
}

// The run rows are being placed in, its start, its end, the end of its room and its state: kept in
// locals while a pass places rows of one run after another, and written back to `ends` and
// `states` when the run changes (run -1: none).
typedef struct {
    int64_t run;
    int32_t start, end, limit;
    uint32_t state;
} run_cursor;

static inline void close_run(quaketui_time_order *order, run_cursor *cursor) {
    if (cursor->run >= 0) {
        order->ends[cursor->run] = cursor->end;
        order->states[cursor->run] = cursor->state;
    }
    cursor->run = -1;
}

// The run of `time`: floor(time / QUAKETUI_RUN_MS), also before 1970.
static inline int64_t run_of(int64_t time) {
    int64_t run = time / QUAKETUI_RUN_MS;
    if (time % QUAKETUI_RUN_MS < 0) run -= 1;
    return run;
}

// quaketui_time_order_place with the magnitude's hundredth code (-1: none) found.
__attribute__((always_inline)) static inline void place_coded(quaketui_time_order *order, run_cursor *cursor, int64_t time, double magnitude,
                               int32_t hundredth, int16_t tenth) {
    int64_t run = run_of(time);
    // The run's start, in unsigned arithmetic: defined where it wraps, exact where it does not.
    uint64_t milliseconds = (uint64_t)time - (uint64_t)run * QUAKETUI_RUN_MS;
    run -= order->first;
    if (run != cursor->run) {
        close_run(order, cursor);
        if (run < 0 || run >= order->runCount) { order->failed = 1; return; }
        *cursor = (run_cursor){run, order->starts[run], order->ends[run], order->starts[run + 1], order->states[run]};
    }
    if (milliseconds >= QUAKETUI_RUN_MS || cursor->end >= cursor->limit) { order->failed = 1; return; }
    int32_t position = cursor->end++;
    // Hundredths by their value (hundredth_code); the others are coded by the caller
    // (MagnitudeCodes.code(ofOther:)).
    uint32_t code = 0;
    if (hundredth >= 0) {
        code = (uint32_t)hundredth;
    } else {
        order->deferred[order->deferredCount] = position;
        order->deferredMagnitudes[order->deferredCount] = magnitude;
        order->deferredTenths[order->deferredCount] = tenth;
        order->deferredCount++;
    }
    // The run's shape so far, from this row's milliseconds against the last row's.
    uint32_t ms = (uint32_t)milliseconds, state = cursor->state, tie = 0;
    if (position == cursor->start) {
        state = ms;  // QUAKETUI_RUN_FLAT
    } else {
        uint32_t shape = state >> QUAKETUI_RUN_SHAPE_SHIFT, last = state & ((1u << QUAKETUI_RUN_MS_BITS) - 1);
        if (ms == last) {
            tie = QUAKETUI_ROW_TIE;
        } else if (shape != QUAKETUI_RUN_MIXED) {
            uint32_t way = ms > last ? QUAKETUI_RUN_RISING : QUAKETUI_RUN_FALLING;
            shape = shape == QUAKETUI_RUN_FLAT || shape == way ? way : QUAKETUI_RUN_MIXED;
        }
        state = shape << QUAKETUI_RUN_SHAPE_SHIFT | ms;
    }
    cursor->state = state;
    order->rows[position] = (uint16_t)(code | tie);
}

void quaketui_time_order_place(quaketui_time_order *order, int64_t time, double magnitude, int16_t tenth) {
    pthread_once(&hundredths_once, fill_hundredths);
    run_cursor cursor = {-1, 0, 0, 0, 0};
    place_coded(order, &cursor, time, magnitude, hundredth_code(magnitude), tenth);
    close_run(order, &cursor);
}

void quaketui_time_order_fill(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                              quaketui_time_order *order) {
    pthread_once(&hundredths_once, fill_hundredths);
    for (int64_t index = 0; index < chunk->count && !order->failed; index++) {
        const uint8_t *slot = chunk->keys + index * KEY_SLOT;
        double magnitude = load_f64(slot + 16);
        // The rows quaketui_digest_tally places (compose_row): taken, with a usable bin.
        if (!takes_row(chunk, index, query) || !passes_magnitude(magnitude, query)) continue;
        double t = tenth_of(magnitude, hundredth_code(magnitude));
        if (!(t >= QUAKETUI_USABLE_TENTH_MIN && t <= QUAKETUI_USABLE_TENTH_MAX)) continue;
        int64_t time = (int64_t)load_u64(slot + 8), run = run_of(time);
        uint64_t milliseconds = (uint64_t)time - (uint64_t)run * QUAKETUI_RUN_MS;
        run -= order->first;
        if (run < 0 || run >= order->runCount) { order->failed = 1; return; }
        uint32_t state = order->states[run];
        if (order->starts[run] == order->ends[run] || !(state & QUAKETUI_RUN_MARKED)) continue;
        uint32_t mark = state & ~QUAKETUI_RUN_MARKED;
        if ((int64_t)mark >= order->markCount || order->markEnds[mark] >= order->markStarts[mark + 1]) { order->failed = 1; return; }
        order->milliseconds[order->markEnds[mark]++] = (uint32_t)milliseconds;
    }
}

// The composition's part of a row taken (quaketui_composition): `detail` its part 2, `magnitude`
// its hundredth code (-1: none) and bin `t`; `taken` counts it. 0 at a kind without a slot.
__attribute__((always_inline)) static inline int compose_row(quaketui_composition *composition, quaketui_time_order *order, run_cursor *cursor,
                              const uint8_t *detail, int64_t time, double magnitude, int32_t hundredth, double t,
                              int64_t *taken) {
    int usable = t >= QUAKETUI_USABLE_TENTH_MIN && t <= QUAKETUI_USABLE_TENTH_MAX;
    if (composition->kindCounts) {
        uint32_t kind = load_u32(detail + 12);
        int32_t kindSlot = kind < composition->kindSlotCount ? composition->kindSlots[kind] : -1;
        if (kindSlot < 0) return 0;
        composition->kindCounts[kindSlot]++;
        if (usable) composition->kindTenths[kindSlot * QUAKETUI_USABLE_TENTHS + (int)t - QUAKETUI_USABLE_TENTH_MIN]++;
    }
    (*taken)++;
    if (usable && order && !order->failed) place_coded(order, cursor, time, magnitude, hundredth, (int16_t)t);
    return 1;
}

int64_t quaketui_digest_tally(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query, int64_t from,
                              quaketui_tally *tally, int64_t *tenths, int64_t *depths,
                              uint32_t *regions, int64_t regionCount, quaketui_digest_row *row,
                              quaketui_composition *composition) {
    pthread_once(&hundredths_once, fill_hundredths);
    if (composition && composition->failed) composition = NULL;
    // The counts in locals (registers) while the loop runs: stores through the pointers could
    // alias the bins. Written back on the way out.
    int64_t count = tally->count, earliest = tally->earliest, latest = tally->latest;
    int64_t dayCount = tally->dayCount, hourCount = tally->hourCount, taken = 0;
    const int64_t dayStart = tally->hasDay ? tally->dayStart : INT64_MAX, dayEnd = tally->hasDay ? tally->dayEnd : INT64_MIN;
    quaketui_time_order *order = composition ? composition->order : NULL;
    run_cursor cursor = {-1, 0, 0, 0, 0};
    int64_t index = from;
    for (; index < chunk->count; index++) {
        const uint8_t *slot = chunk->keys + index * KEY_SLOT;
        double magnitude = load_f64(slot + 16);
        if (!takes_row(chunk, index, query) || !passes_magnitude(magnitude, query)) continue;
        const uint8_t *detail = chunk->details + index * DETAIL_SLOT;
        int64_t time = (int64_t)load_u64(slot + 8);
        int32_t hundredth = hundredth_code(magnitude);
        double t = tenth_of(magnitude, hundredth);
        if (composition && !compose_row(composition, order, &cursor, detail, time, magnitude, hundredth, t, &taken)) {
            composition->failed = 1;
            composition = NULL;
        }
        // What the caller counts: everything CatalogueStatistics.add does beyond adding to a bin.
        int tenth = -1, depth = -1;
        double depthKm = load_f64(detail);
        // Tally.tenthSlot(of:): a magnitude off the slots (or NaN) counts as none.
        double bin = t - QUAKETUI_TALLY_TENTH_BASE;
        if (bin >= 0 && bin < QUAKETUI_TALLY_TENTHS) {
            tenth = (int)bin;
            if (!tally->keepsLargest || magnitude > tally->smallestLargestMagnitude
                || (magnitude == tally->smallestLargestMagnitude && time < tally->smallestLargestTime)) break;
        }
        if (isfinite(depthKm) && (depth = depth_slot((int32_t)load_u32(slot + 4))) < 0) break;
        if (!(dayStart <= time && time < dayEnd)) break;
        int64_t first = time < earliest ? time : earliest;
        int64_t last = time > latest ? time : latest;
        if (tally->countsHours) {
            int64_t span, hour;
            if (__builtin_sub_overflow(last, first, &span) || span >= QUAKETUI_TALLY_HOURLY_SPAN
                || __builtin_sub_overflow(time, ((time % 3600000) + 3600000) % 3600000, &hour)
                || !tally->hasHour || tally->hourStart != hour) break;
            hourCount++;
        }
        count++;
        earliest = first;
        latest = last;
        dayCount++;
        if (tenth >= 0) tenths[tenth]++;
        if (depth >= 0) depths[depth]++;
        uint32_t region = load_u32(detail + 8);
        if ((int64_t)region < regionCount) regions[region]++;
    }
    tally->count = count;
    tally->earliest = earliest;
    tally->latest = latest;
    tally->dayCount = dayCount;
    tally->hourCount = hourCount;
    if (composition) composition->taken += taken;
    if (order) close_run(order, &cursor);
    if (index == chunk->count) return index;
    // The row left to the caller (its composition gathered).
    quaketui_digest_decode(0, chunk->keys + index * KEY_SLOT, row);
    quaketui_digest_decode(2, chunk->details + index * DETAIL_SLOT, row);
    return index;
}

int quaketui_time_order_walk(const quaketui_time_order *order, const double *moments, const int16_t *tenths,
                             quaketui_time_walk *walk) {
    // The walk's state in locals (registers): stores through `walk` could alias `moments`.
    int64_t position = walk->position, previous = walk->previous, count = walk->count, sum = walk->sum,
            squares = walk->squares;
    int hasPrevious = walk->hasPrevious, hourly = walk->hourly, found = 0;
    double daySum = walk->daySum, hourSum = walk->hourSum;
    // Inside the day, and the hour when hourly (none before the first row: the day is not open).
    int64_t from = walk->hasDay ? walk->dayStart : INT64_MAX, until = walk->hasDay ? walk->dayEnd : INT64_MIN;
    if (hourly) {
        int64_t hourEnd = walk->hasHour && walk->hourStart <= INT64_MAX - 3600000 ? walk->hourStart + 3600000 : INT64_MIN;
        if (!walk->hasHour) from = INT64_MAX;
        else if (walk->hourStart > from) from = walk->hourStart;
        if (hourEnd < until) until = hourEnd;
    }
    const uint32_t mask = (1u << QUAKETUI_CODE_BITS) - 1;
    int64_t run = walk->run;
    for (; run < order->runCount; run++) {
        // The run's start, wrapping as MagnitudesInTimeOrder.forEach's `&*` does.
        uint64_t base = (uint64_t)(order->first + run) * QUAKETUI_RUN_MS;
        int64_t start = order->starts[run], end = order->ends[run];
        if (position < start) position = start;
        if (position >= end) continue;
        // A marked run's rows at their milliseconds; any other lies in one day and hour: at its start.
        uint32_t state = order->states[run];
        const uint32_t *milliseconds = NULL;
        if (state & QUAKETUI_RUN_MARKED) milliseconds = order->milliseconds + order->markStarts[state & ~QUAKETUI_RUN_MARKED];
        for (; position < end; position++) {
            uint32_t code = order->rows[position] & mask;
            int64_t time = (int64_t)(base + (milliseconds ? milliseconds[position - start] : 0));
            // BPositive.add(tenth:): every row placed has a usable bin.
            int64_t tenth = tenths[code], difference = tenth - previous;
            if (hasPrevious && difference >= 2) {
                count++;
                sum += difference;
                squares += difference * difference;
            }
            hasPrevious = 1;
            previous = tenth;
            if (time < from || time >= until) {
                walk->time = time;
                walk->code = code;
                found = 1;
                break;
            }
            daySum += moments[code];
            if (hourly) hourSum += moments[code];
        }
        if (found) break;
    }
    walk->run = run;
    walk->position = position;
    walk->hasPrevious = hasPrevious;
    walk->previous = previous;
    walk->count = count;
    walk->sum = sum;
    walk->squares = squares;
    walk->daySum = daySum;
    walk->hourSum = hourSum;
    return found;
}

int64_t quaketui_digest_columns(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                                int64_t *ids, int64_t *times, double *magnitudes, uint32_t *kinds, double *depths,
                                uint32_t *regions, double *latitudes, double *longitudes) {
    int64_t taken = 0;
    if ((kinds || depths || regions) && !chunk->details) return 0;
    if ((latitudes || longitudes) && !chunk->locations) return 0;
    for (int64_t index = 0; index < chunk->count; index++) {
        const uint8_t *slot = chunk->keys + index * KEY_SLOT;
        double magnitude = load_f64(slot + 16);
        if (!takes_row(chunk, index, query) || !passes_magnitude(magnitude, query)) continue;
        if (ids) ids[taken] = chunk->firstId + index;
        if (times) times[taken] = (int64_t)load_u64(slot + 8);
        if (magnitudes) magnitudes[taken] = magnitude;
        const uint8_t *detail = chunk->details ? chunk->details + index * DETAIL_SLOT : NULL;
        if (depths) depths[taken] = load_f64(detail);
        if (regions) regions[taken] = load_u32(detail + 8);
        if (kinds) kinds[taken] = load_u32(detail + 12);
        const uint8_t *location = chunk->locations ? chunk->locations + index * LOCATION_SLOT : NULL;
        if (latitudes) latitudes[taken] = load_f64(location);
        if (longitudes) longitudes[taken] = load_f64(location + 8);
        taken++;
    }
    return taken;
}

static inline void set_bit(uint64_t *bits, int64_t bitCount, int64_t id) {
    if (id >= 0 && id < bitCount) bits[id / 64] |= (uint64_t)1 << (id % 64);
}

/// A names chunk's header: its count, the end of each text, the texts and the bytes they use;
/// false for a chunk that is not whole (a count or an end past the blob, ends out of order).
static bool read_names(const uint8_t *blob, int64_t length, int64_t *count, const uint8_t **ends,
                       const uint8_t **text, int64_t *used) {
    if (length < 4) return false;
    *count = load_u32(blob);
    if (*count > QUAKETUI_DIGEST_CHUNK || 4 + 4 * *count > length) return false;
    *ends = blob + 4;
    *text = *ends + 4 * *count;
    int64_t size = length - 4 - 4 * *count;
    *used = 0;
    for (int64_t i = 0; i < *count; i++) {
        int64_t end = load_u32(*ends + 4 * i);
        if (end < *used || end > size) return false;
        *used = end;
    }
    return true;
}

// Where `text[start ..< end]` ends once the spaces after it are left aside: a place's end, as
// SQL's rtrim takes it (`…, NV ` ends with `, nv`).
static inline int64_t end_before_spaces(const uint8_t *text, int64_t start, int64_t end) {
    while (end > start && text[end - 1] == ' ') end--;
    return end;
}

int64_t quaketui_digest_match_names(const uint8_t *blob, int64_t length, int64_t firstId,
                                    const uint8_t *needle, int64_t needleLength, int atEnd,
                                    uint64_t *bits, int64_t bitCount) {
    int64_t count, used;
    const uint8_t *ends, *text;
    if (!read_names(blob, length, &count, &ends, &text, &used)) return -1;
    if (atEnd) {
        // Each text's last bytes, spaces after them aside.
        int64_t start = 0;
        for (int64_t i = 0; i < count; i++) {
            int64_t next = load_u32(ends + 4 * i), end = end_before_spaces(text, start, next);
            if (needleLength <= end - start
                && (needleLength == 0 || memcmp(text + end - needleLength, needle, (size_t)needleLength) == 0))
                set_bit(bits, bitCount, firstId + i);
            start = next;
        }
        return count;
    }
    if (needleLength == 0) {
        for (int64_t i = 0; i < count; i++) set_bit(bits, bitCount, firstId + i);
        return count;
    }
    // One search over all the texts: a hit that starts in text i counts when it ends there too;
    // one that runs into the next text is looked for again a byte later.
    int64_t i = 0, from = 0;
    while (from < used) {
        const uint8_t *hit = memmem(text + from, (size_t)(used - from), needle, (size_t)needleLength);
        if (hit == NULL) break;
        int64_t at = hit - text;
        while (load_u32(ends + 4 * i) <= at) i++;  // the text holding `at` (at < used: one does)
        int64_t end = load_u32(ends + 4 * i);
        if (at + needleLength <= end) {
            set_bit(bits, bitCount, firstId + i);
            from = end;
            i++;
        } else {
            from = at + 1;
        }
    }
    return count;
}

int64_t quaketui_digest_keep_names(const uint8_t *blob, int64_t length, int64_t firstId,
                                   const uint8_t *const *needles, const int64_t *needleLengths, const int32_t *atEnds,
                                   int needleCount, uint64_t *bits, int64_t bitCount) {
    int64_t count, used;
    const uint8_t *ends, *text;
    if (!read_names(blob, length, &count, &ends, &text, &used)) return -1;
    int64_t start = 0;
    for (int64_t i = 0; i < count; i++) {
        int64_t end = load_u32(ends + 4 * i), id = firstId + i;
        if (id < bitCount && (bits[id >> 6] >> (id & 63)) & 1) {
            int found = 0;
            int64_t trimmed = end_before_spaces(text, start, end);
            for (int k = 0; k < needleCount && !found; k++) {
                int atEnd = atEnds && atEnds[k];
                if (needleLengths[k] > (atEnd ? trimmed : end) - start) continue;
                found = atEnd
                    ? memcmp(text + trimmed - needleLengths[k], needles[k], (size_t)needleLengths[k]) == 0
                    : memmem(text + start, (size_t)(end - start), needles[k], (size_t)needleLengths[k]) != NULL;
            }
            if (!found) bits[id >> 6] &= ~(UINT64_C(1) << (id & 63));
        }
        start = end;
    }
    return count;
}
