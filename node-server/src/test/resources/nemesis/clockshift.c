/*
 * The nemesis kit's clock offset (NemesisCluster.clockOffset): LD_PRELOADed into a node's JVM, it
 * moves the wall clock (CLOCK_REALTIME, gettimeofday, time) by TRIBUTARY_CLOCK_OFFSET_MS and leaves
 * the monotonic clock alone, as on a machine whose clock is set wrong. libfaketime does the same
 * but makes every clock read 10-35 times slower (it re-checks its settings, and its thread-safe
 * build takes a lock, on each call); the JVM and Ratis read the clock millions of times, and a
 * node under it missed its 90 s start on two shared cores. This one adds a constant.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long long offset_ns;
static int (*real_clock_gettime)(clockid_t, struct timespec *);
static int (*real_gettimeofday)(struct timeval *, void *);

static void init(void) {
    const char *s = getenv("TRIBUTARY_CLOCK_OFFSET_MS");
    offset_ns = s ? atoll(s) * 1000000LL : 0;
    real_gettimeofday = dlsym(RTLD_NEXT, "gettimeofday");
    real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
}

__attribute__((constructor)) static void load(void) {
    init();
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
    if (!real_clock_gettime) {
        init();
    }
    int r = real_clock_gettime(clock, ts);
    if (r == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
        long long ns = ts->tv_sec * 1000000000LL + ts->tv_nsec + offset_ns;
        ts->tv_sec = ns / 1000000000LL;
        ts->tv_nsec = ns % 1000000000LL;
    }
    return r;
}

int gettimeofday(struct timeval *tv, void *tz) {
    if (!real_gettimeofday) {
        init();
    }
    int r = real_gettimeofday(tv, tz);
    if (r == 0 && tv) {
        long long us = tv->tv_sec * 1000000LL + tv->tv_usec + offset_ns / 1000;
        tv->tv_sec = us / 1000000LL;
        tv->tv_usec = us % 1000000LL;
    }
    return r;
}

time_t time(time_t *t) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (t) {
        *t = ts.tv_sec;
    }
    return ts.tv_sec;
}
