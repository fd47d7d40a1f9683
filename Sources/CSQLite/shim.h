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
#endif
