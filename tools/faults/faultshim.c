// faultshim: an LD_PRELOAD library that fails the Nth eligible system call (issue 29).
//
//   FAULT_CALLS   comma-separated calls that are eligible: open,read,write,pread,pwrite,fsync,
//                 rename,unlink,ftruncate,recv (default: all of them); recv covers recv, recvfrom
//                 and recvmsg (curl reads its sockets with them)
//   FAULT_PATH    only calls on a path (or a descriptor opened on a path) containing this text;
//                 a socket's is "socket:[INODE]" and a pipe's "pipe:[INODE]" (/proc/self/fd)
//   FAULT_NTH     the 1-based eligible call to fail; 0 or unset: fail none, only count
//   FAULT_TIMES   how many eligible calls to fail from the Nth on (default 1)
//   FAULT_ERRNO   EIO (default), ENOSPC, EINTR or ECONNRESET (a peer's reset, for recv); KILL: the process kills itself with SIGKILL
//                 instead of making the call (a kill -9 at exactly that point)
//   FAULT_ARM     a file: calls are neither counted nor failed until it exists (a browser is
//                 armed by the test once it is idle, so the sweep's range is the save alone)
//   FAULT_COUNT   a file that receives the number of eligible calls at exit (the sweep's range)
//   FAULT_LOG     a file that receives one line per failed call ("read /path/to/file")
//   FAULT_TRACE   a file that receives one line per eligible call ("17 fsync /path/to/file")
//
// Built by tools/faults/build.sh; used by tools/faults/sweep.sh and EndToEndTests.FaultSweepTests.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <pthread.h>
#include <signal.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter, nth, times = 1;
static int fault_errno = EIO, configured, kill_instead, armed;
static const char *calls, *path_filter, *count_file, *log_file, *trace_file, *arm_file;

static void configure(void) {
    if (configured) return;
    configured = 1;
    calls = getenv("FAULT_CALLS");
    path_filter = getenv("FAULT_PATH");
    count_file = getenv("FAULT_COUNT");
    log_file = getenv("FAULT_LOG");
    trace_file = getenv("FAULT_TRACE");
    arm_file = getenv("FAULT_ARM");
    armed = !arm_file || !*arm_file;
    const char *n = getenv("FAULT_NTH");
    nth = n ? atol(n) : 0;
    const char *t = getenv("FAULT_TIMES");
    if (t) times = atol(t);
    const char *e = getenv("FAULT_ERRNO");
    if (e && strcmp(e, "ENOSPC") == 0) fault_errno = ENOSPC;
    else if (e && strcmp(e, "EINTR") == 0) fault_errno = EINTR;
    else if (e && strcmp(e, "ECONNRESET") == 0) fault_errno = ECONNRESET;
    else if (e && strcmp(e, "KILL") == 0) kill_instead = 1;
}

static int call_enabled(const char *name) {
    if (!calls || !*calls) return 1;
    size_t len = strlen(name);
    for (const char *p = calls; (p = strstr(p, name)); p += len) {
        if ((p == calls || p[-1] == ',') && (p[len] == ',' || p[len] == 0)) return 1;
    }
    return 0;
}

static void log_line(const char *file, long number, const char *name, const char *path) {
    if (!file) return;
    static int (*real_open)(const char *, int, ...);
    static ssize_t (*real_write)(int, const void *, size_t);
    if (!real_open) real_open = dlsym(RTLD_NEXT, "open");
    if (!real_write) real_write = dlsym(RTLD_NEXT, "write");
    int fd = real_open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    char line[4200];
    int n = number > 0 ? snprintf(line, sizeof line, "%ld %s %s\n", number, name, path ? path : "?")
                       : snprintf(line, sizeof line, "%s %s\n", name, path ? path : "?");
    if (n > 0) real_write(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    close(fd);
}

/// Whether this call fails; sets errno when it does.
static int should_fail(const char *name, const char *path) {
    int saved = errno;
    pthread_mutex_lock(&lock);
    configure();
    int fail = 0;
    long number = 0;
    if (!armed) armed = access(arm_file, F_OK) == 0;
    if (armed && call_enabled(name) && (!path_filter || (path && strstr(path, path_filter)))) {
        number = ++counter;
        fail = nth > 0 && counter >= nth && counter < nth + times;
    }
    pthread_mutex_unlock(&lock);
    if (number) log_line(trace_file, number, name, path);
    if (fail) {
        log_line(log_file, 0, name, path);
        if (kill_instead) kill(getpid(), SIGKILL);
        errno = fault_errno;
    } else {
        errno = saved;
    }
    return fail;
}

static const char *fd_path(int fd, char *buffer, size_t size) {
    configure();
    if (!path_filter && !log_file && !trace_file) return NULL;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, buffer, size - 1);
    if (n < 0) return NULL;
    buffer[n] = 0;
    return buffer;
}

#define REAL(name) static __typeof__(name) *real_##name; if (!real_##name) real_##name = dlsym(RTLD_NEXT, #name)

static int open_common(const char *name, const char *path) { return should_fail("open", path) ? -1 : 0; }

int open(const char *path, int flags, ...) {
    REAL(open);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    if (open_common("open", path)) return -1;
    return real_open(path, flags, mode);
}
int open64(const char *path, int flags, ...) {
    REAL(open64);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    if (open_common("open", path)) return -1;
    return real_open64(path, flags, mode);
}
/* The path openat() names, made whole from its directory descriptor so the fault rules match it. */
static const char *at_path(int dirfd, const char *path, char *full, size_t size) {
    char dir[4096];
    if (!path || path[0] == '/' || dirfd == AT_FDCWD || !fd_path(dirfd, dir, sizeof dir)) return path;
    snprintf(full, size, "%s/%s", dir, path);
    return full;
}
int openat(int dirfd, const char *path, int flags, ...) {
    REAL(openat);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    char full[8192];
    if (open_common("open", at_path(dirfd, path, full, sizeof full))) return -1;
    return real_openat(dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) {
    REAL(openat64);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    char full[8192];
    if (open_common("open", at_path(dirfd, path, full, sizeof full))) return -1;
    return real_openat64(dirfd, path, flags, mode);
}

#define FD_CALL(label, fd) char buffer_[4096]; if (should_fail(label, fd_path(fd, buffer_, sizeof buffer_))) return -1

ssize_t read(int fd, void *buf, size_t count) { REAL(read); FD_CALL("read", fd); return real_read(fd, buf, count); }
ssize_t write(int fd, const void *buf, size_t count) { REAL(write); FD_CALL("write", fd); return real_write(fd, buf, count); }
ssize_t pread(int fd, void *buf, size_t count, off_t offset) { REAL(pread); FD_CALL("pread", fd); return real_pread(fd, buf, count, offset); }
ssize_t pread64(int fd, void *buf, size_t count, off64_t offset) { REAL(pread64); FD_CALL("pread", fd); return real_pread64(fd, buf, count, offset); }
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) { REAL(pwrite); FD_CALL("pwrite", fd); return real_pwrite(fd, buf, count, offset); }
ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) { REAL(pwrite64); FD_CALL("pwrite", fd); return real_pwrite64(fd, buf, count, offset); }
int fsync(int fd) { REAL(fsync); FD_CALL("fsync", fd); return real_fsync(fd); }
int fdatasync(int fd) { REAL(fdatasync); FD_CALL("fsync", fd); return real_fdatasync(fd); }
int ftruncate(int fd, off_t length) { REAL(ftruncate); FD_CALL("ftruncate", fd); return real_ftruncate(fd, length); }
int ftruncate64(int fd, off64_t length) { REAL(ftruncate64); FD_CALL("ftruncate", fd); return real_ftruncate64(fd, length); }
int rename(const char *from, const char *to) { REAL(rename); if (should_fail("rename", to)) return -1; return real_rename(from, to); }
int renameat(int olddirfd, const char *from, int newdirfd, const char *to) {
    REAL(renameat); if (should_fail("rename", to)) return -1; return real_renameat(olddirfd, from, newdirfd, to);
}
ssize_t recv(int fd, void *buf, size_t count, int flags) { REAL(recv); FD_CALL("recv", fd); return real_recv(fd, buf, count, flags); }
ssize_t recvfrom(int fd, void *buf, size_t count, int flags, struct sockaddr *from, socklen_t *length) {
    REAL(recvfrom); FD_CALL("recv", fd); return real_recvfrom(fd, buf, count, flags, from, length);
}
ssize_t recvmsg(int fd, struct msghdr *message, int flags) { REAL(recvmsg); FD_CALL("recv", fd); return real_recvmsg(fd, message, flags); }
int unlink(const char *path) { REAL(unlink); if (should_fail("unlink", path)) return -1; return real_unlink(path); }

__attribute__((destructor)) static void report_count(void) {
    configure();
    if (!count_file) return;
    static __typeof__(open) *real_open_;
    static __typeof__(write) *real_write_;
    real_open_ = dlsym(RTLD_NEXT, "open");
    real_write_ = dlsym(RTLD_NEXT, "write");
    int fd = real_open_(count_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    char text[32];
    int n = snprintf(text, sizeof text, "%ld\n", counter);
    real_write_(fd, text, (size_t)n);
    close(fd);
}
