/* nsbench_faults.c — TESTING HOOKS: pseudo-solvers that misbehave on
 * purpose, so the tests can check that one bad run is recorded with its
 * status while the benchmark goes on. They are not in the library's
 * registry and exist only when NSBENCH_TEST_FAULTS=1 is set:
 *   test-crash  dies of SIGSEGV (a write through a null pointer)
 *   test-hang   loops forever without looking at the time limit
 *   test-oom    allocates and touches memory without bound
 * They accept a problem of any kind. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>

const char *const nb_fault_names[] = { "test-crash", "test-hang", "test-oom", NULL };

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
