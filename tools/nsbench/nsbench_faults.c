/* nsbench_faults.c — TESTING HOOKS: pseudo-solvers that misbehave on
 * purpose, so the tests can check that one bad run is recorded with its
 * status while the benchmark goes on. They are not in the library's
 * registry and exist only when NSBENCH_TEST_FAULTS=1 is set:
 *   test-crash  dies of SIGSEGV (a write through a null pointer)
 *   test-hang   loops forever without looking at the time limit
 *   test-oom    allocates and touches memory without bound
 *   test-slow   sleeps 0.25 s, then solves with the kind's default solver
 *               (a run long enough to kill nsbench in the middle of)
 * They accept a problem of any kind. With NSBENCH_TEST_TRACE=PATH too, each
 * run appends "file,solver" to PATH when its solve is over (before its
 * record goes to nsbench): the tests count the runs done. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const nb_fault_names[] = { "test-crash", "test-hang", "test-oom", "test-slow",
                                       NULL };

void nb_fault_trace(const char *file, const char *solver)
{
    const char *path = getenv("NSBENCH_TEST_TRACE");
    if (!path || !*path) return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) return;
    char line[4200];
    int n = snprintf(line, sizeof line, "%s,%s\n", file, solver);
    if (n > 0 && (size_t)n < sizeof line && write(fd, line, (size_t)n) != n) {
        /* a lost trace line makes the test fail, which is what it should do */
    }
    close(fd);
}

int nb_fault_is_name(const char *name)
{
    for (int i = 0; name && nb_fault_names[i]; i++)
        if (!strcmp(name, nb_fault_names[i])) return 1;
    return 0;
}

void nb_fault_run(const char *name)
{
    if (!strcmp(name, "test-crash")) {
        int *volatile nowhere = NULL;
        *nowhere = 1;
        raise(SIGSEGV);          /* in case the write did not fault */
        abort();
    } else if (!strcmp(name, "test-hang")) {
        volatile unsigned long spin = 0;
        for (;;) spin++;
    } else if (!strcmp(name, "test-slow")) {
        struct timespec ts = { 0, 250 * 1000 * 1000 };
        while (nanosleep(&ts, &ts) != 0) {}
    } else if (!strcmp(name, "test-oom")) {
        const size_t chunk = (size_t)8 << 20;
        char *volatile head = NULL;  /* keeps every chunk reachable */
        for (;;) {
            char *p = malloc(chunk);
            if (!p) abort();     /* what an unchecked xmalloc would do */
            memset(p, 1, chunk);
            memcpy(p, (const void *)&head, sizeof head);
            head = p;
        }
    }
}
