// The SQL profile (CQuakeSQL.h): with QUAKETUI_SQL_PROFILE=FILE, every statement any connection
// finishes appends one line to FILE: how long it ran, when it ended, on which thread, and its SQL
// with the values bound. For finding where a key's or a count's time goes, beside `perf`, whose
// call graphs stop at SQLite (built without frame pointers). Off, it costs one getenv per open.
#define _GNU_SOURCE
#include "CQuakeSQL.h"

#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_once_t profile_once = PTHREAD_ONCE_INIT;
static int profile_fd = -1;
// Statements that ran for less are not written (QUAKETUI_SQL_PROFILE_MIN_MS; 0 by default): a
// profile of every statement of a 5,000,000-quake import is 5 GB.
static sqlite3_int64 profile_min_ns = 0;

static void profile_open(void) {
    const char *path = getenv("QUAKETUI_SQL_PROFILE");
    if (path && *path) profile_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    const char *min = getenv("QUAKETUI_SQL_PROFILE_MIN_MS");
    if (min && *min) {
        double ms = strtod(min, 0);
        if (ms > 0) profile_min_ns = (sqlite3_int64)(ms * 1e6);
    }
}

// One line per statement, written with one write(2) (O_APPEND: lines of threads and processes
// never interleave): "<ms> ms at <CLOCK_MONOTONIC s> tid <thread> <sql, newlines as spaces>".
static int profile_callback(unsigned type, void *context, void *statement, void *elapsed) {
    (void)context;
    if (type != SQLITE_TRACE_PROFILE || *(sqlite3_int64 *)elapsed < profile_min_ns) return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    char *sql = sqlite3_expanded_sql((sqlite3_stmt *)statement);
    char line[1024];
    int length = snprintf(line, sizeof line - 1, "%.3f ms at %lld.%06ld tid %ld %.900s",
                          (double)*(sqlite3_int64 *)elapsed / 1e6, (long long)now.tv_sec, now.tv_nsec / 1000,
                          (long)syscall(SYS_gettid), sql ? sql : "(no memory for the SQL)");
    sqlite3_free(sql);
    if (length < 0) return 0;
    if (length > (int)sizeof line - 2) length = (int)sizeof line - 2;
    for (int i = 0; i < length; i++) if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
    line[length++] = '\n';
    (void)!write(profile_fd, line, (size_t)length);
    return 0;
}

void quaketui_profile_if_asked(struct sqlite3 *db) {
    pthread_once(&profile_once, profile_open);
    if (profile_fd >= 0) sqlite3_trace_v2(db, SQLITE_TRACE_PROFILE, profile_callback, 0);
}
