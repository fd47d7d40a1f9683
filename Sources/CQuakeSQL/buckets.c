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
        int64_t low = buckets->length ? (bucket < buckets->base ? bucket : buckets->base) : bucket;
        int64_t high = buckets->length ? (bucket >= buckets->base + buckets->length ? bucket + 1 : buckets->base + buckets->length) : bucket + 1;
        if (high - low > QUAKETUI_BUCKETS_LIMIT) { quaketui_buckets_free(buckets); buckets->overflow = 1; return; }
        int64_t length = buckets->length * 2 > high - low ? buckets->length * 2 : high - low;
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
