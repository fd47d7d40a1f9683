// The store's VFS (CQuakeSQL.h): SQLite's own "unix" VFS with one change, an fsync interrupted
// by a signal (EINTR) is made again. SQLite retries EINTR in its reads, writes, opens and
// truncations, but not in fsync (`full_fsync` in os_unix.c): one interrupted sync of the WAL
// failed a whole import or delete with "Interrupted system call" (issue 57). Every other method
// is the unix VFS's own, called through.
#include "CQuakeSQL.h"

#include <errno.h>
#include <sqlite3.h>
#include <string.h>

// A file of this VFS: its methods, then the unix VFS's file right after it in the same block.
typedef struct RetryFile {
    sqlite3_file base;
    sqlite3_file *real;
} RetryFile;

static sqlite3_vfs *unix_vfs;
static sqlite3_vfs retry_vfs;

#define REAL(file) (((RetryFile *)(file))->real)

static int retry_close(sqlite3_file *f) {
    int rc = REAL(f)->pMethods ? REAL(f)->pMethods->xClose(REAL(f)) : SQLITE_OK;
    f->pMethods = 0;
    return rc;
}
static int retry_read(sqlite3_file *f, void *p, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), p, n, o); }
static int retry_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xWrite(REAL(f), p, n, o); }
static int retry_truncate(sqlite3_file *f, sqlite3_int64 size) { return REAL(f)->pMethods->xTruncate(REAL(f), size); }

// The one change: SQLITE_IOERR_FSYNC whose errno (the file's last, SQLITE_FCNTL_LAST_ERRNO) is
// EINTR is tried again, up to 8 times. A sync that failed for any other reason is reported.
static int retry_sync(sqlite3_file *f, int flags) {
    sqlite3_file *real = REAL(f);
    int rc = SQLITE_OK;
    for (int tries = 0; tries < 8; tries++) {
        rc = real->pMethods->xSync(real, flags);
        if (rc != SQLITE_IOERR_FSYNC) return rc;
        int last = 0;
        if (real->pMethods->xFileControl(real, SQLITE_FCNTL_LAST_ERRNO, &last) != SQLITE_OK || last != EINTR) return rc;
    }
    return rc;
}
static int retry_file_size(sqlite3_file *f, sqlite3_int64 *size) { return REAL(f)->pMethods->xFileSize(REAL(f), size); }
static int retry_lock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xLock(REAL(f), level); }
static int retry_unlock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xUnlock(REAL(f), level); }
static int retry_check_lock(sqlite3_file *f, int *out) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out); }
static int retry_file_control(sqlite3_file *f, int op, void *arg) {
    int rc = REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
    // SQLite names the VFS stack for `PRAGMA vfs_list`-like queries: say what is in between.
    if (op == SQLITE_FCNTL_VFSNAME && rc == SQLITE_OK && arg) {
        char *inner = *(char **)arg;
        *(char **)arg = sqlite3_mprintf("quaketui/%z", inner);
    }
    return rc;
}
static int retry_sector_size(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int retry_device(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int retry_shm_map(sqlite3_file *f, int page, int size, int extend, void volatile **out) {
    return REAL(f)->pMethods->xShmMap(REAL(f), page, size, extend, out);
}
static int retry_shm_lock(sqlite3_file *f, int offset, int n, int flags) { return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags); }
static void retry_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int retry_shm_unmap(sqlite3_file *f, int deleteFlag) { return REAL(f)->pMethods->xShmUnmap(REAL(f), deleteFlag); }
static int retry_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **pp) { return REAL(f)->pMethods->xFetch(REAL(f), o, n, pp); }
static int retry_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

static const sqlite3_io_methods retry_methods = {
    3,
    retry_close, retry_read, retry_write, retry_truncate, retry_sync, retry_file_size,
    retry_lock, retry_unlock, retry_check_lock, retry_file_control, retry_sector_size, retry_device,
    retry_shm_map, retry_shm_lock, retry_shm_barrier, retry_shm_unmap, retry_fetch, retry_unfetch,
};

static int retry_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out) {
    RetryFile *file = (RetryFile *)f;
    file->real = (sqlite3_file *)&file[1];
    int rc = unix_vfs->xOpen(unix_vfs, name, file->real, flags, out);
    // A failed open leaves pMethods NULL, so SQLite does not close it; a good one gets ours.
    f->pMethods = file->real->pMethods ? &retry_methods : 0;
    return rc;
}
// An unlink (a journal, a WAL at the last close) interrupted by a signal is made again too.
static int retry_delete(sqlite3_vfs *v, const char *name, int sync) {
    int rc = SQLITE_OK;
    for (int tries = 0; tries < 8; tries++) {
        errno = 0;
        rc = unix_vfs->xDelete(unix_vfs, name, sync);
        if (rc != SQLITE_IOERR_DELETE || errno != EINTR) return rc;
    }
    return rc;
}
static int retry_access(sqlite3_vfs *v, const char *name, int flags, int *out) { return unix_vfs->xAccess(unix_vfs, name, flags, out); }
static int retry_full_path(sqlite3_vfs *v, const char *name, int n, char *out) { return unix_vfs->xFullPathname(unix_vfs, name, n, out); }
static void *retry_dl_open(sqlite3_vfs *v, const char *name) { return unix_vfs->xDlOpen(unix_vfs, name); }
static void retry_dl_error(sqlite3_vfs *v, int n, char *out) { unix_vfs->xDlError(unix_vfs, n, out); }
static void (*retry_dl_sym(sqlite3_vfs *v, void *lib, const char *symbol))(void) { return unix_vfs->xDlSym(unix_vfs, lib, symbol); }
static void retry_dl_close(sqlite3_vfs *v, void *lib) { unix_vfs->xDlClose(unix_vfs, lib); }
static int retry_randomness(sqlite3_vfs *v, int n, char *out) { return unix_vfs->xRandomness(unix_vfs, n, out); }
static int retry_sleep(sqlite3_vfs *v, int us) { return unix_vfs->xSleep(unix_vfs, us); }
static int retry_current_time(sqlite3_vfs *v, double *out) { return unix_vfs->xCurrentTime(unix_vfs, out); }
static int retry_last_error(sqlite3_vfs *v, int n, char *out) { return unix_vfs->xGetLastError(unix_vfs, n, out); }
static int retry_current_time64(sqlite3_vfs *v, sqlite3_int64 *out) { return unix_vfs->xCurrentTimeInt64(unix_vfs, out); }
static int retry_set_call(sqlite3_vfs *v, const char *name, sqlite3_syscall_ptr call) { return unix_vfs->xSetSystemCall(unix_vfs, name, call); }
static sqlite3_syscall_ptr retry_get_call(sqlite3_vfs *v, const char *name) { return unix_vfs->xGetSystemCall(unix_vfs, name); }
static const char *retry_next_call(sqlite3_vfs *v, const char *name) { return unix_vfs->xNextSystemCall(unix_vfs, name); }

int quaketui_register_retrying_vfs(void) {
    if (unix_vfs) return SQLITE_OK;
    sqlite3_vfs *base = sqlite3_vfs_find("unix");
    if (!base || base->iVersion < 3) return SQLITE_ERROR;
    unix_vfs = base;
    retry_vfs = (sqlite3_vfs){
        3, (int)(sizeof(RetryFile) + base->szOsFile), base->mxPathname, 0, "quaketui", 0,
        retry_open, retry_delete, retry_access, retry_full_path,
        retry_dl_open, retry_dl_error, retry_dl_sym, retry_dl_close,
        retry_randomness, retry_sleep, retry_current_time, retry_last_error,
        retry_current_time64, retry_set_call, retry_get_call, retry_next_call,
    };
    return sqlite3_vfs_register(&retry_vfs, 1);
}
