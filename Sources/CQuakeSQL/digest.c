// The digest's passes (CQuakeSQL.h): a search's match set and section counts, and the map's
// cells, from the packed keys of every row, without SQLite's per-row cost (20–100 ns a row:
// 0.15–0.5 s over 5M quakes).
#define _GNU_SOURCE  // memmem
#include "CQuakeSQL.h"

#include <math.h>
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

// MagnitudeFrequency.tenth(of:): floor(m × 10 + 0.5), the product rounded before the sum (not
// fused into one fma, as Swift computes it), stepped to the bin whose edges, (2t - 1) / 20 and
// (2t + 1) / 20, hold the magnitude. NaN gives NaN, which every range test below refuses.
static inline double magnitude_tenth(double magnitude) {
    double scaled = magnitude * 10;
    double t = floor(scaled + 0.5);
    if (magnitude < (t * 2 - 1) / 20) t -= 1;
    else if (magnitude >= (t * 2 + 1) / 20) t += 1;
    return t;
}

// Schema.timeBucket: floor(time / 900000), also before 1970. A time within 2^62 of the end of
// int64 (a store edited by hand; SQL's arithmetic turns to REAL there) gives a bucket the counts
// give up on (quaketui_buckets_add), so the caller walks.
static inline int64_t time_bucket(int64_t time) {
    if (time < -(INT64_C(1) << 62)) return INT64_MIN;
    return time >= 0 ? time / 900000 : -((899999 - time) / 900000);
}

// Schema.magnitudeBucket: -1 unknown, 0 below 1, 6 from 6, else the integer part.
static inline int64_t magnitude_bucket(double magnitude) {
    if (isnan(magnitude)) return -1;
    if (magnitude < 1) return 0;
    if (magnitude >= 6) return 6;
    return (int64_t)magnitude;
}

// Whether row `index` of `chunk` is one the query takes: its place and every filter (not the
// minimum magnitude, which the results test beside the match set).
static inline int takes_row(const quaketui_digest_chunk *chunk, int64_t index, const quaketui_digest_query *query) {
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

int64_t quaketui_digest_tally(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query, int64_t from,
                              quaketui_tally *tally, int64_t *tenths, int64_t *depths,
                              int64_t *regions, int64_t regionCount, quaketui_digest_row *row) {
    for (int64_t index = from; index < chunk->count; index++) {
        const uint8_t *slot = chunk->keys + index * KEY_SLOT;
        if (!takes_row(chunk, index, query) || !passes_magnitude(load_f64(slot + 16), query)) continue;
        quaketui_digest_decode(0, slot, row);
        quaketui_digest_decode(2, chunk->details + index * DETAIL_SLOT, row);
        // What the caller counts: everything CatalogueStatistics.add does beyond adding to a bin.
        int tenth = -1, depth = -1;
        // Tally.tenthSlot(of:): a magnitude off the slots (or NaN) counts as none.
        double bin = magnitude_tenth(row->magnitude) - QUAKETUI_TALLY_TENTH_BASE;
        if (bin >= 0 && bin < QUAKETUI_TALLY_TENTHS) {
            tenth = (int)bin;
            if (!tally->keepsLargest || row->magnitude > tally->smallestLargestMagnitude
                || (row->magnitude == tally->smallestLargestMagnitude && row->time < tally->smallestLargestTime)) return index;
        }
        if (isfinite(row->depth) && (depth = depth_slot(row->depthBucket)) < 0) return index;
        if (!(tally->hasDay && tally->dayStart <= row->time && row->time < tally->dayEnd)) return index;
        int64_t earliest = row->time < tally->earliest ? row->time : tally->earliest;
        int64_t latest = row->time > tally->latest ? row->time : tally->latest;
        if (tally->countsHours) {
            int64_t span, hour;
            if (__builtin_sub_overflow(latest, earliest, &span) || span >= QUAKETUI_TALLY_HOURLY_SPAN
                || __builtin_sub_overflow(row->time, ((row->time % 3600000) + 3600000) % 3600000, &hour)
                || !tally->hasHour || tally->hourStart != hour) return index;
            tally->hourCount++;
        }
        tally->count++;
        tally->earliest = earliest;
        tally->latest = latest;
        tally->dayCount++;
        if (tenth >= 0) tenths[tenth]++;
        if (depth >= 0) depths[depth]++;
        if ((int64_t)row->region < regionCount) regions[row->region]++;
    }
    return chunk->count;
}

void quaketui_time_order_place(quaketui_time_order *order, int64_t time, double magnitude, int16_t tenth) {
    int64_t run = time / QUAKETUI_RUN_MS;
    if (time % QUAKETUI_RUN_MS < 0) run -= 1;
    // The run's start, in unsigned arithmetic: defined where it wraps, exact where it does not.
    uint64_t milliseconds = (uint64_t)time - (uint64_t)run * QUAKETUI_RUN_MS;
    run -= order->first;
    if (run < 0 || run >= order->runCount || milliseconds >= QUAKETUI_RUN_MS) { order->failed = 1; return; }
    int32_t position = order->ends[run];
    if (position >= order->starts[run + 1]) { order->failed = 1; return; }
    // MagnitudeCodes.code(of:): hundredths by their value, the others by the caller.
    double scaled = round(magnitude * 100);
    uint32_t code = 0;
    if (scaled >= QUAKETUI_LOWEST_HUNDREDTH && scaled < QUAKETUI_LOWEST_HUNDREDTH + QUAKETUI_HUNDREDTHS
        && (double)(int64_t)scaled / 100 == magnitude) {
        code = (uint32_t)((int64_t)scaled - QUAKETUI_LOWEST_HUNDREDTH);
    } else {
        order->deferred[order->deferredCount] = position;
        order->deferredMagnitudes[order->deferredCount] = magnitude;
        order->deferredTenths[order->deferredCount] = tenth;
        order->deferredCount++;
    }
    order->rows[position] = (uint32_t)milliseconds << QUAKETUI_CODE_BITS | code;
    order->ends[run] = position + 1;
}

int64_t quaketui_digest_composition(const quaketui_digest_chunk *chunk, const quaketui_digest_query *query,
                                    const int32_t *kindSlots, int64_t kindSlotCount, int64_t *kindCounts,
                                    int64_t *kindTenths, quaketui_time_order *order) {
    int64_t taken = 0;
    if (!chunk->details) return -1;
    for (int64_t index = 0; index < chunk->count; index++) {
        const uint8_t *slot = chunk->keys + index * KEY_SLOT;
        double magnitude = load_f64(slot + 16);
        if (!takes_row(chunk, index, query) || !passes_magnitude(magnitude, query)) continue;
        uint32_t kind = load_u32(chunk->details + index * DETAIL_SLOT + 12);
        int32_t kindSlot = kind < kindSlotCount ? kindSlots[kind] : -1;
        if (kindSlot < 0) return -1;
        kindCounts[kindSlot]++;
        double t = magnitude_tenth(magnitude);
        if (t >= QUAKETUI_USABLE_TENTH_MIN && t <= QUAKETUI_USABLE_TENTH_MAX) {
            int tenth = (int)t;
            kindTenths[kindSlot * QUAKETUI_USABLE_TENTHS + tenth - QUAKETUI_USABLE_TENTH_MIN]++;
            if (!order->failed) quaketui_time_order_place(order, (int64_t)load_u64(slot + 8), magnitude, (int16_t)tenth);
        }
        taken++;
    }
    return taken;
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

int64_t quaketui_digest_match_names(const uint8_t *blob, int64_t length, int64_t firstId,
                                    const uint8_t *needle, int64_t needleLength,
                                    uint64_t *bits, int64_t bitCount) {
    int64_t count, used;
    const uint8_t *ends, *text;
    if (!read_names(blob, length, &count, &ends, &text, &used)) return -1;
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
                                   const uint8_t *const *needles, const int64_t *needleLengths, int needleCount,
                                   uint64_t *bits, int64_t bitCount) {
    int64_t count, used;
    const uint8_t *ends, *text;
    if (!read_names(blob, length, &count, &ends, &text, &used)) return -1;
    int64_t start = 0;
    for (int64_t i = 0; i < count; i++) {
        int64_t end = load_u32(ends + 4 * i), id = firstId + i;
        if (id < bitCount && (bits[id >> 6] >> (id & 63)) & 1) {
            int found = 0;
            for (int k = 0; k < needleCount && !found; k++) {
                found = needleLengths[k] <= end - start
                    && memmem(text + start, (size_t)(end - start), needles[k], (size_t)needleLengths[k]) != NULL;
            }
            if (!found) bits[id >> 6] &= ~(UINT64_C(1) << (id & 63));
        }
        start = end;
    }
    return count;
}
