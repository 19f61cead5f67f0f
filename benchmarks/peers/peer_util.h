/* peer_util.h — what the peer programs of benchmarks/peers share: the
 * command line (SCENE [--settled-from K] [--iterations N] [--steps S]), a
 * monotonic clock and the per-step timing that gives settled_ms. The scene
 * file and the overlap measures are examples/spheres_box/scene_file.h,
 * shared with spheres_box itself. */
#ifndef PEER_UTIL_H
#define PEER_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

typedef struct peer_args {
    const char *scene;    /* the file of spheres_box --write-scene */
    long settled_from;    /* first step of the timed settled window (default 1500) */
    long iterations;      /* solver iterations (each program's default) */
    long steps;           /* override of the scene's step count (0: the scene's) */
} peer_args;

static inline double peer_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A whole number in [lo, hi] from s, or −1. */
static inline long peer_long(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    return (end != s && *end == '\0' && v >= lo && v <= hi) ? v : -1;
}

/* 0, or 2 after a message on stderr (the caller returns it). */
static inline int peer_parse(int argc, char **argv, peer_args *a, const char *prog)
{
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        long *dst = !strcmp(k, "--settled-from") ? &a->settled_from : !strcmp(k, "--iterations") ? &a->iterations
                  : !strcmp(k, "--steps") ? &a->steps : NULL;
        if (dst) {
            if (i + 1 >= argc || (*dst = peer_long(argv[i + 1], 0, 1000000000L)) < 0) {
                fprintf(stderr, "%s: %s needs a whole number in [0, 1e9]\n", prog, k);
                return 2;
            }
            i++;
        } else if (k[0] != '-' && !a->scene) {
            a->scene = k;
        } else {
            fprintf(stderr, "usage: %s SCENE [--iterations N] [--settled-from K] [--steps S]\n"
                            "  SCENE: a file of spheres_box --write-scene\n", prog);
            return 2;
        }
    }
    if (!a->scene) {
        fprintf(stderr, "%s: no scene file (spheres_box --write-scene FILE makes one)\n", prog);
        return 2;
    }
    return 0;
}

static inline double peer_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Per-step wall and process CPU times summed over the steps >= from. */
typedef struct peer_clock { long from, count; double settled, settled_cpu, total; } peer_clock;

static inline void peer_clock_step(peer_clock *c, long step, double secs, double cpu)
{
    c->total += secs;
    if (step >= c->from) { c->settled += secs; c->settled_cpu += cpu; c->count++; }
}

static inline double peer_settled_ms(const peer_clock *c)
{
    return c->count > 0 ? 1e3 * c->settled / (double)c->count : NAN;
}

static inline double peer_settled_cpu_ms(const peer_clock *c)
{
    return c->count > 0 ? 1e3 * c->settled_cpu / (double)c->count : NAN;
}

#endif
