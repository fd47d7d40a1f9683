// Counts per integer bucket (CQuakeSQL.h): a search's section counts, gathered by the scan that
// builds its match set (quaketui_match_counting in match.c).
#include "CQuakeSQL.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void quaketui_buckets_free(quaketui_buckets *buckets) {
    free(buckets->counts);
    buckets->counts = 0;
    buckets->base = 0;
    buckets->length = 0;
    buckets->overflow = 0;
}

void quaketui_buckets_add(quaketui_buckets *buckets, int64_t bucket) {
    if (buckets->overflow) return;
    // A bucket this far out (a store edited by hand) gives up before the span arithmetic below
    // could overflow: every bound then stays within -2^62 ... 2^62.
    if (bucket > INT64_MAX / 2 || bucket < INT64_MIN / 2) { quaketui_buckets_free(buckets); buckets->overflow = 1; return; }
    if (buckets->length == 0 || bucket < buckets->base || bucket >= buckets->base + buckets->length) {
        // The span of the buckets counted so far (not of the array, whose doubling may reach past
        // them on one side: a span measured from it would give up on buckets that fit).
        int64_t first = 0, last = -1;
        if (buckets->length) {
            while (buckets->counts[first] == 0) first++;  // the array holds at least one count
            last = buckets->length - 1;
            while (buckets->counts[last] == 0) last--;
        }
        int64_t low = buckets->length ? buckets->base + first : bucket, high = buckets->length ? buckets->base + last + 1 : bucket + 1;
        if (bucket < low) low = bucket;
        if (bucket >= high) high = bucket + 1;
        if (high - low > QUAKETUI_BUCKETS_LIMIT) { quaketui_buckets_free(buckets); buckets->overflow = 1; return; }
        int64_t length = buckets->length * 2 > high - low ? buckets->length * 2 : high - low;
        if (length < 64) length = 64;
        if (length > QUAKETUI_BUCKETS_LIMIT) length = QUAKETUI_BUCKETS_LIMIT;
        // Room to grow on the side the new bucket is on.
        int64_t base = buckets->length && bucket < buckets->base ? high - length : low;
        uint32_t *counts = calloc((size_t)length, sizeof(uint32_t));
        if (!counts) { quaketui_buckets_free(buckets); buckets->overflow = 1; return; }
        if (buckets->length) {
            memcpy(counts + (buckets->base + first - base), buckets->counts + first, (size_t)(last - first + 1) * sizeof(uint32_t));
        }
        free(buckets->counts);
        buckets->counts = counts;
        buckets->base = base;
        buckets->length = length;
    }
    buckets->counts[bucket - buckets->base]++;
}
