#ifndef QUAKETUI_CSQLITE_SHIM_H
#define QUAKETUI_CSQLITE_SHIM_H
// Debian's libsqlite3-dev header. Everything quaketui needs imports into Swift as is;
// SQLITE_TRANSIENT (a cast macro Swift cannot import) is defined once in Swift instead.
#include <sqlite3.h>
#endif
