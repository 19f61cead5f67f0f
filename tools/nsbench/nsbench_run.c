/* nsbench_run.c — process isolation: one forked child per task, at most
 * --jobs at a time.
 *
 * The child lowers its limits (RLIMIT_AS to the memory limit plus what the
 * process had mapped at fork, no core files), does the task and writes one
 * nb_record to a pipe. The parent polls the pipes, enforces the wall-time
 * limit (the solver's own limit plus a margin), watches the resident memory
 * of each child in /proc, reaps with wait4 (peak memory from ru_maxrss) and
 * turns what happened into the task's row:
 *   record received         → the record's status
 *   killed past the deadline→ "timeout"
 *   killed over the memory  → "memory"
 *   died of a signal        → "memory" if its peak was near the limit, else "crash"
 *   exited without a record → "crash" (exit code in the message)
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "nsbench.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define NB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NB_ASAN 1
#endif
#endif
#ifndef NB_ASAN
#define NB_ASAN 0
#endif

enum { KILL_NONE, KILL_TIME, KILL_MEMORY, KILL_INTERRUPT };

typedef struct slot {
    int used;
    pid_t pid;
    int fd;                  /* -1 once EOF seen */
    size_t task;
    double start, deadline;
    unsigned char buf[sizeof(nb_record)];
    size_t got;
    int killed;
    long rss_kb_seen;        /* largest RSS polled */
} slot;

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

double nb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Resident and virtual size of a process in kB (from /proc), -1 unknown. */
static void proc_mem_kb(pid_t pid, long *rss_kb, long *vm_kb)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
    *rss_kb = *vm_kb = -1;
    FILE *f = fopen(path, "r");
    if (!f) return;
    long vm, rss;
    if (fscanf(f, "%ld %ld", &vm, &rss) == 2) {
        long page_kb = sysconf(_SC_PAGESIZE) / 1024;
        *rss_kb = rss * page_kb;
        *vm_kb = vm * page_kb;
    }
    fclose(f);
}

/* In the child: limits, then the task, then the record; never returns. */
static void child_main(const nb_config *c, const nb_task *t, int fd, long base_vm_kb)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    struct rlimit core = { 0, 0 };
    setrlimit(RLIMIT_CORE, &core);
    if (!NB_ASAN && c->mem_limit_mb > 0) {
        /* ASan reserves terabytes of address space: there the parent's
         * RSS watch is the only memory limit. */
        double bytes = (c->mem_limit_mb * 1024.0 + (double)(base_vm_kb > 0 ? base_vm_kb : 0))
                       * 1024.0;
        struct rlimit as = { (rlim_t)bytes, (rlim_t)bytes };
        setrlimit(RLIMIT_AS, &as);
    }
    if (!c->verbose) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
            close(devnull);
        }
    }
    nb_record rec;
    if (t->solver) nb_child_solve(c, t->file, t->kind, t->solver, &rec);
    else nb_child_probe(t->file, &rec);
    const unsigned char *p = (const unsigned char *)&rec;
    size_t left = sizeof rec;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(3);
        p += w;
        left -= (size_t)w;
    }
    _exit(0);
}

static void row_unknowns(nb_row *r)
{
    r->size = -1;
    r->iterations = -1;
    r->error = NAN;
    r->seconds = NAN;
    r->peak_kb = -1;
}

static void finish(const nb_config *c, nb_task *t, slot *s, int wstatus,
                   const struct rusage *ru)
{
    nb_row *r = &t->row;
    row_unknowns(r);
    snprintf(r->kind, sizeof r->kind, "%s", ns_kind_name(t->kind));
    snprintf(r->solver, sizeof r->solver, "%s", t->solver ? t->solver : "");
    r->peak_kb = ru->ru_maxrss > 0 ? ru->ru_maxrss : s->rss_kb_seen;
    double wall = nb_now() - s->start;
    nb_record rec;
    memcpy(&rec, s->buf, sizeof rec);
    int have = s->got == sizeof rec && rec.magic == NB_RECORD_MAGIC;
    double limit_kb = c->mem_limit_mb * 1024.0;
    if (have) {
        rec.status[NB_STATUS_LEN - 1] = '\0';
        rec.message[NB_MSG_LEN - 1] = '\0';
        snprintf(r->status, sizeof r->status, "%s", rec.status);
        snprintf(r->message, sizeof r->message, "%s", rec.message);
        if (rec.kind > NS_KIND_NONE && rec.kind < NS_KIND_COUNT)
            snprintf(r->kind, sizeof r->kind, "%s", ns_kind_name((ns_kind)rec.kind));
        r->size = rec.size;
        r->iterations = rec.iterations;
        r->error = rec.error;
        r->seconds = rec.seconds;
        return;
    }
    r->seconds = wall;
    if (s->killed == KILL_INTERRUPT || (interrupted && WIFSIGNALED(wstatus))) {
        snprintf(r->status, sizeof r->status, "interrupted");
        snprintf(r->message, sizeof r->message, "benchmark interrupted");
    } else if (s->killed == KILL_TIME) {
        snprintf(r->status, sizeof r->status, "timeout");
        snprintf(r->message, sizeof r->message, "killed after %.3g s (time limit %.3g s)",
                 wall, c->time_limit);
    } else if (s->killed == KILL_MEMORY) {
        snprintf(r->status, sizeof r->status, "memory");
        snprintf(r->message, sizeof r->message,
                 "killed at %.0f MB resident (memory limit %.0f MB)",
                 (double)s->rss_kb_seen / 1024.0, c->mem_limit_mb);
    } else if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        if (limit_kb > 0 && (double)r->peak_kb >= 0.75 * limit_kb) {
            snprintf(r->status, sizeof r->status, "memory");
            snprintf(r->message, sizeof r->message,
                     "died of signal %d (%s) at %.0f MB peak, near the %.0f MB limit",
                     sig, strsignal(sig), (double)r->peak_kb / 1024.0, c->mem_limit_mb);
        } else {
            snprintf(r->status, sizeof r->status, "crash");
            snprintf(r->message, sizeof r->message, "died of signal %d (%s)", sig,
                     strsignal(sig));
        }
    } else {
        int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
        snprintf(r->status, sizeof r->status, "crash");
        snprintf(r->message, sizeof r->message, "exited with code %d without a result", code);
    }
}

static int launch(const nb_config *c, nb_task *tasks, size_t i, slot *s, long base_vm_kb)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(c, &tasks[i], fds[1], base_vm_kb);
    }
    close(fds[1]);
    memset(s, 0, sizeof *s);
    s->used = 1;
    s->pid = pid;
    s->fd = fds[0];
    s->task = i;
    s->start = nb_now();
    /* the solver stops itself at the time limit (repeat times); the margin
     * covers reading the file and a solver that checks the clock rarely */
    double budget = c->time_limit * (c->repeat > 0 ? c->repeat : 1);
    s->deadline = s->start + budget * 1.1 + 1.0;
    return 0;
}

static void read_pipe(slot *s)
{
    for (;;) {
        unsigned char tmp[512];
        ssize_t n = read(s->fd, tmp, sizeof tmp);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        if (n <= 0) {
            close(s->fd);
            s->fd = -1;
            return;
        }
        size_t room = sizeof s->buf - s->got;
        size_t take = (size_t)n < room ? (size_t)n : room;
        memcpy(s->buf + s->got, tmp, take);
        s->got += take;
        return;
    }
}

int nb_run_tasks(const nb_config *c, nb_task *tasks, size_t n, nb_progress *prog,
                 const char *phase)
{
    int jobs = c->jobs > 0 ? c->jobs : 1;
    slot *slots = calloc((size_t)jobs, sizeof *slots);
    struct pollfd *pfd = calloc((size_t)jobs, sizeof *pfd);
    int *pslot = calloc((size_t)jobs, sizeof *pslot);
    if (!slots || !pfd || !pslot) {
        free(slots);
        free(pfd);
        free(pslot);
        return -1;
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    long self_rss, base_vm_kb;
    proc_mem_kb(getpid(), &self_rss, &base_vm_kb);
    double limit_kb = c->mem_limit_mb * 1024.0;
    size_t next = 0, done = 0;
    int active = 0, rc = 0;
    nb_progress_set(prog, 0, n, phase);
    while (next < n || active > 0) {
        while (!interrupted && active < jobs && next < n) {
            int k = 0;
            while (slots[k].used) k++;
            if (launch(c, tasks, next, &slots[k], base_vm_kb) != 0) {
                nb_row *r = &tasks[next].row;
                row_unknowns(r);
                snprintf(r->status, sizeof r->status, "crash");
                snprintf(r->message, sizeof r->message, "could not start a process: %s",
                         strerror(errno));
                snprintf(r->kind, sizeof r->kind, "%s", ns_kind_name(tasks[next].kind));
                snprintf(r->solver, sizeof r->solver, "%s",
                         tasks[next].solver ? tasks[next].solver : "");
                next++;
                done++;
                continue;
            }
            char cur[NB_MSG_LEN];
            snprintf(cur, sizeof cur, "%s%s%s", tasks[next].file,
                     tasks[next].solver ? " · " : "",
                     tasks[next].solver ? tasks[next].solver : "");
            nb_progress_set(prog, done, n, cur);
            next++;
            active++;
        }
        if (interrupted && next < n) {
            for (; next < n; next++) {
                nb_row *r = &tasks[next].row;
                row_unknowns(r);
                snprintf(r->status, sizeof r->status, "interrupted");
                snprintf(r->kind, sizeof r->kind, "%s", ns_kind_name(tasks[next].kind));
                snprintf(r->solver, sizeof r->solver, "%s",
                         tasks[next].solver ? tasks[next].solver : "");
                done++;
            }
            rc = 130;
        }
        if (active == 0) break;
        int np = 0;
        for (int k = 0; k < jobs; k++) {
            if (slots[k].used && slots[k].fd >= 0) {
                pfd[np].fd = slots[k].fd;
                pfd[np].events = POLLIN;
                pfd[np].revents = 0;
                pslot[np++] = k;
            }
        }
        if (np > 0) {
            int r = poll(pfd, (nfds_t)np, 50);
            if (r > 0)
                for (int j = 0; j < np; j++)
                    if (pfd[j].revents) read_pipe(&slots[pslot[j]]);
        } else {
            struct timespec ts = { 0, 10 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
        double t = nb_now();
        for (int k = 0; k < jobs; k++) {
            slot *s = &slots[k];
            if (!s->used) continue;
            if (!s->killed) {
                long rss, vm;
                proc_mem_kb(s->pid, &rss, &vm);
                if (rss > s->rss_kb_seen) s->rss_kb_seen = rss;
                if (interrupted) {
                    kill(s->pid, SIGKILL);
                    s->killed = KILL_INTERRUPT;
                } else if (t > s->deadline) {
                    kill(s->pid, SIGKILL);
                    s->killed = KILL_TIME;
                } else if (limit_kb > 0 && (double)rss > limit_kb) {
                    kill(s->pid, SIGKILL);
                    s->killed = KILL_MEMORY;
                }
            }
            if (s->fd >= 0 && !s->killed) continue;  /* still talking */
            int wstatus = 0;
            struct rusage ru;
            memset(&ru, 0, sizeof ru);
            pid_t w = wait4(s->pid, &wstatus, WNOHANG, &ru);
            if (w == 0) continue;
            if (s->fd >= 0) {
                read_pipe(s);  /* whatever was written before the kill */
                if (s->fd >= 0) close(s->fd);
                s->fd = -1;
            }
            finish(c, &tasks[s->task], s, wstatus, &ru);
            s->used = 0;
            active--;
            done++;
            nb_progress_set(prog, done, n, NULL);
        }
        nb_progress_tick(prog);
    }
    if (interrupted) rc = 130;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(slots);
    free(pfd);
    free(pslot);
    return rc;
}
