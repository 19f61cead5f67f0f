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
 * A child dies with its parent: PR_SET_PDEATHSIG (SIGKILL), then a check of
 * getppid() for a parent that died between fork() and prctl(); so a
 * SIGKILLed nsbench leaves no run behind.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "nsbench.h"
#include "malloc_policy.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
    nb_task *task;
    double start, deadline;
    unsigned char buf[sizeof(nb_record)];
    size_t got;
    int killed;
    long rss_kb_seen;        /* largest RSS polled */
} slot;

struct nb_engine {
    const nb_config *c;
    int jobs, active;
    slot *slots;
    struct pollfd *pfd;
    int *pslot;
    long base_vm_kb;
};

static volatile sig_atomic_t interrupted;
static struct sigaction old_int, old_term;
static int caught;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

void nb_signals_catch(void)
{
    if (caught++) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
}

void nb_signals_restore(void)
{
    if (!caught || --caught) return;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
}

int nb_interrupted(void)
{
    return interrupted != 0;
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
static void child_main(const nb_config *c, const nb_task *t, int fd, long base_vm_kb,
                       pid_t parent)
{
    /* die with the parent; a parent gone before prctl() took effect has
     * already made us an orphan */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(4);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
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
        /* the heap's kept memory counts against that limit: an eighth of
         * it at most, so that a run at its limit is still near it in RSS
         * (the "memory" status) */
        ns_tool_malloc_policy_cap(c->mem_limit_mb * 1024.0 * 1024.0 / 8.0);
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

void nb_row_unrun(nb_row *r, const nb_task *t, const char *status, const char *msg)
{
    memset(r, 0, sizeof *r);
    r->size = -1;
    r->iterations = -1;
    r->error = NAN;
    r->seconds = NAN;
    r->solves = -1;
    r->peak_kb = -1;
    snprintf(r->kind, sizeof r->kind, "%s", ns_kind_name(t->kind));
    snprintf(r->solver, sizeof r->solver, "%s", t->solver ? t->solver : "");
    snprintf(r->status, sizeof r->status, "%s", status);
    snprintf(r->message, sizeof r->message, "%s", msg ? msg : "");
}

static void finish(const nb_config *c, nb_task *t, slot *s, int wstatus,
                   const struct rusage *ru)
{
    nb_row *r = &t->row;
    nb_row_unrun(r, t, "", NULL);
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
        r->solves = rec.solves;
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

nb_engine *nb_engine_new(const nb_config *c)
{
    nb_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->c = c;
    e->jobs = c->jobs > 0 ? c->jobs : 1;
    e->slots = calloc((size_t)e->jobs, sizeof *e->slots);
    e->pfd = calloc((size_t)e->jobs + 1, sizeof *e->pfd);
    e->pslot = calloc((size_t)e->jobs + 1, sizeof *e->pslot);
    if (!e->slots || !e->pfd || !e->pslot) {
        nb_engine_free(e);
        return NULL;
    }
    long self_rss;
    proc_mem_kb(getpid(), &self_rss, &e->base_vm_kb);
    return e;
}

void nb_engine_free(nb_engine *e)
{
    if (!e) return;
    free(e->slots);
    free(e->pfd);
    free(e->pslot);
    free(e);
}

int nb_engine_idle(const nb_engine *e)
{
    return e->jobs - e->active;
}

int nb_engine_active(const nb_engine *e)
{
    return e->active;
}

int nb_engine_start(nb_engine *e, nb_task *t)
{
    const nb_config *c = e->c;
    int k = 0;
    while (k < e->jobs && e->slots[k].used) k++;
    int fds[2];
    if (k == e->jobs || pipe(fds) != 0) {
        nb_row_unrun(&t->row, t, "crash", NULL);
        snprintf(t->row.message, sizeof t->row.message, "could not start a process: %s",
                 k == e->jobs ? "no free slot" : strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int er = errno;
        close(fds[0]);
        close(fds[1]);
        nb_row_unrun(&t->row, t, "crash", NULL);
        snprintf(t->row.message, sizeof t->row.message, "could not start a process: %s",
                 strerror(er));
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(c, t, fds[1], e->base_vm_kb, parent);
    }
    close(fds[1]);
    slot *s = &e->slots[k];
    memset(s, 0, sizeof *s);
    s->used = 1;
    s->pid = pid;
    s->fd = fds[0];
    s->task = t;
    s->start = nb_now();
    /* the solver stops itself at the time limit (repeat times); the margin
     * covers reading the file and a solver that checks the clock rarely */
    double budget = c->time_limit * (c->repeat > 0 ? c->repeat : 1);
    s->deadline = s->start + budget * 1.1 + 1.0;
    e->active++;
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

/* Limits and reaping, once over every slot. */
static void sweep(nb_engine *e, nb_done_fn done, void *ctx)
{
    const nb_config *c = e->c;
    double limit_kb = c->mem_limit_mb * 1024.0;
    double t = nb_now();
    for (int k = 0; k < e->jobs; k++) {
        slot *s = &e->slots[k];
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
        finish(c, s->task, s, wstatus, &ru);
        s->used = 0;
        e->active--;
        if (done) done(ctx, s->task);
    }
}

int nb_engine_step(nb_engine *e, int extra_fd, int timeout_ms, nb_done_fn done, void *ctx)
{
    int np = 0, extra_ready = 0;
    for (int k = 0; k < e->jobs; k++) {
        if (e->slots[k].used && e->slots[k].fd >= 0) {
            e->pfd[np].fd = e->slots[k].fd;
            e->pfd[np].events = POLLIN;
            e->pfd[np].revents = 0;
            e->pslot[np++] = k;
        }
    }
    int nchild = np;
    if (extra_fd >= 0) {
        e->pfd[np].fd = extra_fd;
        e->pfd[np].events = POLLIN;
        e->pfd[np].revents = 0;
        e->pslot[np++] = -1;
    }
    if (np > 0) {
        /* children that closed their pipe but are not reaped yet: look soon */
        int wait_ms = timeout_ms;
        if (nchild < e->active && wait_ms > 10) wait_ms = 10;
        int r = poll(e->pfd, (nfds_t)np, wait_ms);
        if (r > 0)
            for (int j = 0; j < np; j++) {
                if (!e->pfd[j].revents) continue;
                if (e->pslot[j] < 0) extra_ready = 1;
                else read_pipe(&e->slots[e->pslot[j]]);
            }
    } else if (e->active > 0) {
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    sweep(e, done, ctx);
    return extra_ready;
}

void nb_engine_kill_all(nb_engine *e, nb_done_fn done, void *ctx)
{
    for (int k = 0; k < e->jobs; k++) {
        slot *s = &e->slots[k];
        if (!s->used || s->killed) continue;
        kill(s->pid, SIGKILL);
        s->killed = KILL_INTERRUPT;
    }
    for (int i = 0; i < 500 && e->active > 0; i++) {  /* SIGKILL is quick; 5 s at most */
        sweep(e, done, ctx);
        if (e->active > 0) {
            struct timespec ts = { 0, 10 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
    }
}

typedef struct run_ctx {
    nb_progress *prog;
    size_t done, n;
    nb_done_fn done_fn;
    void *ctx;
} run_ctx;

static void run_done(void *vctx, nb_task *t)
{
    run_ctx *rc = vctx;
    rc->done++;
    nb_progress_count(rc->prog, &t->row);
    if (rc->done_fn) rc->done_fn(rc->ctx, t);
}

int nb_run_tasks(const nb_config *c, nb_task *tasks, size_t n, nb_progress *prog,
                 const char *phase, nb_done_fn done, void *ctx)
{
    nb_engine *e = nb_engine_new(c);
    if (!e) return -1;
    nb_signals_catch();
    run_ctx rc = { prog, 0, n, done, ctx };
    size_t next = 0;
    int status = 0;
    nb_progress_set(prog, 0, n, phase);
    while (next < n || nb_engine_active(e) > 0) {
        while (!interrupted && nb_engine_idle(e) > 0 && next < n) {
            nb_task *t = &tasks[next++];
            if (nb_engine_start(e, t) != 0) {
                run_done(&rc, t);
                continue;
            }
            char cur[NB_MSG_LEN];
            snprintf(cur, sizeof cur, "%s%s%s", t->file, t->solver ? " · " : "",
                     t->solver ? t->solver : "");
            nb_progress_set(prog, prog->done, n, cur);
        }
        if (interrupted) {
            nb_engine_kill_all(e, run_done, &rc);
            for (; next < n; next++) {
                nb_row_unrun(&tasks[next].row, &tasks[next], "interrupted", NULL);
                run_done(&rc, &tasks[next]);
            }
            status = 130;
        }
        if (nb_engine_active(e) == 0) break;
        nb_engine_step(e, -1, 50, run_done, &rc);
        nb_progress_tick(prog);
    }
    if (interrupted) status = 130;
    nb_signals_restore();
    nb_engine_free(e);
    return status;
}
