// The bitmap id set (CQuakeSQL.h): a results controller's search and filter matches
// (QuakeStore's MatchSet). Tested against Swift's Set in Tests/CQuakeSQLTests.
#include "CQuakeSQL.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

// Makes room for `id` (0 ≤ id). Returns 0, or SQLITE_NOMEM (the set is unchanged).
static int reserve(quaketui_idset *set, int64_t id) {
    int64_t word = id / 64;
    if (word < set->wordCount) return 0;
    int64_t wanted = set->wordCount * 2 > word + 1 ? set->wordCount * 2 : word + 1;
    if (wanted < 1024) wanted = 1024;
    if ((uint64_t)wanted > SIZE_MAX / sizeof(uint64_t)) return SQLITE_NOMEM;
    uint64_t *words = realloc(set->words, (size_t)wanted * sizeof(uint64_t));
    if (!words) return SQLITE_NOMEM;
    memset(words + set->wordCount, 0, (size_t)(wanted - set->wordCount) * sizeof(uint64_t));
    set->words = words;
    set->wordCount = wanted;
    return 0;
}

int quaketui_idset_insert(quaketui_idset *set, int64_t id) {
    if (id < 0 || id >= QUAKETUI_IDSET_LIMIT) return SQLITE_RANGE;
    int rc = reserve(set, id);
    if (rc) return rc;
    uint64_t bit = (uint64_t)1 << (id % 64);
    if (!(set->words[id / 64] & bit)) { set->words[id / 64] |= bit; set->count++; }
    return 0;
}

void quaketui_idset_remove(quaketui_idset *set, int64_t id) {
    if (!quaketui_idset_contains(set, id)) return;
    set->words[id / 64] &= ~((uint64_t)1 << (id % 64));
    set->count--;
}

void quaketui_idset_clear(quaketui_idset *set) {
    if (set->words) memset(set->words, 0, (size_t)set->wordCount * sizeof(uint64_t));
    set->count = 0;
}

void quaketui_idset_free(quaketui_idset *set) {
    free(set->words);
    set->words = 0;
    set->wordCount = 0;
    set->count = 0;
}

int quaketui_idset_copy(quaketui_idset *target, const quaketui_idset *source) {
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

int64_t quaketui_idset_next(const quaketui_idset *set, int64_t from) {
    if (from < 0) from = 0;
    for (int64_t word = from / 64; word < set->wordCount; word++) {
        uint64_t bits = set->words[word];
        if (word == from / 64) bits &= ~(uint64_t)0 << (from % 64);
        if (bits) return word * 64 + __builtin_ctzll(bits);
    }
    return -1;
}
