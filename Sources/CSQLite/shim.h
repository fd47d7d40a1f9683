#ifndef QUAKETUI_CSQLITE_SHIM_H
#define QUAKETUI_CSQLITE_SHIM_H
// Debian's libsqlite3-dev header. Everything quaketui needs imports into Swift as is;
// SQLITE_TRANSIENT (a cast macro Swift cannot import) is defined once in Swift instead. This
// header holds only what Swift cannot call; quaketui's own C (the distance function, the id set
// and its SQL functions) is the CQuakeSQL target.
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
#endif
