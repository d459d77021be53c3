/* Steps a server's wall clock for the conformance suite: preloaded into redis-server, it adds
 * the milliseconds written in the file named by LOCKSTEP_WALL_STEP_FILE to every reading of the
 * wall clock (clock_gettime of CLOCK_REALTIME, gettimeofday, time), and leaves the monotonic
 * clock alone, as an NTP step or an operator setting the date would. It calls the kernel
 * directly and allocates nothing, so it is safe to call from inside a memory allocator (where
 * libfaketime recurses and crashes Debian's redis-server, which uses jemalloc). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static long long step_us(void) {
    const char *path = getenv("LOCKSTEP_WALL_STEP_FILE");
    if (!path) return 0;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[32];
    long n = syscall(SYS_read, fd, buf, sizeof buf - 1);
    syscall(SYS_close, fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    long long v = 0; int neg = 0; char *p = buf;
    if (*p == '-') { neg = 1; p++; }
    while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
    return (neg ? -v : v) * 1000;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    int r = (int)syscall(SYS_clock_gettime, id, ts);
    if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
        long long ns = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + step_us() * 1000;
        ts->tv_sec = ns / 1000000000LL; ts->tv_nsec = ns % 1000000000LL;
    }
    return r;
}

int gettimeofday(struct timeval *tv, void *tz) {
    int r = (int)syscall(SYS_gettimeofday, tv, tz);
    if (r == 0 && tv) {
        long long us = (long long)tv->tv_sec * 1000000LL + tv->tv_usec + step_us();
        tv->tv_sec = us / 1000000LL; tv->tv_usec = us % 1000000LL;
    }
    return r;
}

time_t time(time_t *t) {
    struct timeval tv;
    gettimeofday(&tv, 0);
    if (t) *t = tv.tv_sec;
    return tv.tv_sec;
}
