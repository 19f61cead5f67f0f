/* nsbench_mpi.c — a campaign over MPI ranks (`mpirun -np N nsbench ...`).
 *
 * Forking after MPI_Init is fragile (registered memory, progress threads,
 * transports that warn or corrupt on fork), so no MPI process ever forks a
 * run: before MPI_Init each rank forks a *runner*, a plain copy of nsbench
 * without any MPI state, which owns the per-run processes (nb_engine: one
 * child per run with the time and memory limits, --jobs at a time). The
 * rank talks to its runner over a socket pair: a task goes down (length,
 * then id, kind, solver, file), a row comes back. The runner dies with its
 * rank (PR_SET_PDEATHSIG, checked after the fork), its runs die with it.
 *
 * Rank 0 hands the tasks out (dynamically: each rank holds at most --jobs
 * tasks at a time, a new one goes out when a row comes back, so slow runs
 * do not leave ranks idle), collects the rows into the same table a single
 * process fills, and writes the CSV, summary and profiles; it runs tasks
 * through its own runner too. Ranks > 0 forward tasks and rows until rank 0
 * says stop. Rows travel as bytes: ranks of one campaign run the same
 * nsbench on machines of one architecture (as mpirun requires anyway).
 *
 * A rank whose runner is gone (killed, out of memory) sends its tasks back
 * marked lost, never as results: rank 0 gives no more tasks to that rank
 * and hands the lost ones to the ranks that still have a runner (a task
 * whose runner died twice under it is recorded as a crash). When no runner
 * is left, the tasks not run are recorded "interrupted" — --resume runs
 * them — and nsbench exits with 130, as when it is interrupted.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "nsbench.h"
#ifdef NB_HAVE_MPI
#include <mpi.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { TAG_TASK = 1, TAG_ROW = 2, TAG_STOP = 3 };
#define NB_FILE_MAX 4096

typedef struct wire_task {
    uint32_t id;
    int32_t kind;
    int32_t probe;
    char solver[NB_NAME_LEN];
    char file[NB_FILE_MAX];
} wire_task;
#define WIRE_TASK_HEAD offsetof(wire_task, file)

typedef struct wire_row {
    uint32_t id;
    int32_t lost;            /* 1: not run, or killed with its runner: run it elsewhere */
    nb_row row;              /* row.file is not sent (NULL on arrival) */
} wire_row;

/* This process's MPI side (one per process: the tool's own state). */
static struct {
    int rank, size, started;
    pid_t runner;
    int sock;                /* to the runner, -1 when closed */
} M = { 0, 1, 0, -1, -1 };

static const char *env_any(const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) return v;
    }
    return NULL;
}

int nb_mpi_env_rank(void)
{
    static const char *const names[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                         NULL };
    const char *v = env_any(names);
    return v ? atoi(v) : -1;
}

int nb_mpi_launched(void)
{
    static const char *const names[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE",
                                         "PMI_RANK", NULL };
    return env_any(names) != NULL;
}

int nb_mpi_size(void)
{
    return M.size;
}

static int write_full(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* 0 done, 1 end of file before anything, -1 error or cut short */
static int read_full(int fd, void *buf, size_t len)
{
    char *p = buf;
    size_t got = 0;
    while (got < len) {
        ssize_t r = read(fd, p + got, len - got);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) return got == 0 ? 1 : -1;
        if (r < 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static size_t task_bytes(const wire_task *w)
{
    return WIRE_TASK_HEAD + strnlen(w->file, NB_FILE_MAX - 1) + 1;
}

/* ---- the runner: no MPI here, only the process engine ---- */

typedef struct rtask {
    nb_task t;               /* first: the engine's done() gets &rtask.t */
    uint32_t id;
} rtask;

typedef struct runner_ctx {
    int sock;
    rtask **queue;
    size_t nq, capq;
} runner_ctx;

static void runner_send(void *vctx, nb_task *t)
{
    runner_ctx *rc = vctx;
    rtask *rt = (rtask *)t;
    wire_row w;
    memset(&w, 0, sizeof w);
    w.id = rt->id;
    w.row = t->row;
    w.row.file = NULL;
    if (write_full(rc->sock, &w, sizeof w)) { /* the rank is gone: so are we, soon */ }
    free((char *)t->file);
    free((char *)t->solver);
    free(rt);
}

static void runner_main(const nb_config *c, int sock, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    signal(SIGPIPE, SIG_IGN);
    nb_signals_catch();
    nb_engine *e = nb_engine_new(c);
    if (!e) _exit(1);
    runner_ctx rc = { sock, NULL, 0, 0 };
    wire_task *w = malloc(sizeof *w);
    if (!w) _exit(1);
    int eof = 0;
    for (;;) {
        while (rc.nq > 0 && nb_engine_idle(e) > 0) {
            rtask *t = rc.queue[0];
            memmove(rc.queue, rc.queue + 1, (rc.nq - 1) * sizeof *rc.queue);
            rc.nq--;
            if (nb_engine_start(e, &t->t) != 0) runner_send(&rc, &t->t);
        }
        if (eof || nb_interrupted()) {
            nb_engine_kill_all(e, runner_send, &rc);
            if (eof) break;
        }
        int ready = nb_engine_step(e, eof ? -1 : sock, 50, runner_send, &rc);
        if (!ready) continue;
        uint32_t len = 0;
        int r = read_full(sock, &len, sizeof len);
        if (r == 0 && len >= WIRE_TASK_HEAD && len <= sizeof *w) r = read_full(sock, w, len);
        else if (r == 0) r = -1;
        if (r != 0) {
            eof = 1;
            continue;
        }
        w->file[NB_FILE_MAX - 1] = '\0';
        w->solver[NB_NAME_LEN - 1] = '\0';
        rtask *t = calloc(1, sizeof *t);
        if (!t) _exit(1);
        t->id = w->id;
        t->t.file = strdup(w->file);
        t->t.kind = (ns_kind)w->kind;
        t->t.solver = w->probe ? NULL : strdup(w->solver);
        if (!t->t.file || (!w->probe && !t->t.solver)) _exit(1);
        if (rc.nq == rc.capq) {
            size_t cap = rc.capq ? 2 * rc.capq : 16;
            rtask **q = realloc(rc.queue, cap * sizeof *q);
            if (!q) _exit(1);
            rc.queue = q;
            rc.capq = cap;
        }
        rc.queue[rc.nq++] = t;
    }
    _exit(0);
}

/* ---- the MPI side ---- */

int nb_mpi_start(const nb_config *c)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();  /* before MPI_Init: the runner holds no MPI state */
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        close(sv[0]);
        runner_main(c, sv[1], parent);
    }
    close(sv[1]);
    M.runner = pid;
    M.sock = sv[0];
    signal(SIGPIPE, SIG_IGN);
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) return -1;
    M.started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &M.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &M.size);
    return M.rank;
}

static void close_runner(void)
{
    if (M.sock >= 0) close(M.sock);  /* the runner kills what it still runs and exits */
    M.sock = -1;
    if (M.runner > 0) {
        int st;
        while (waitpid(M.runner, &st, 0) < 0 && errno == EINTR) {}
    }
    M.runner = -1;
}

void nb_mpi_end(void)
{
    if (!M.started) {
        close_runner();
        return;
    }
    if (M.rank == 0)
        for (int r = 1; r < M.size; r++) MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
    close_runner();
    MPI_Finalize();
    M.started = 0;
}

/* A row for a task whose runner is gone. */
static void lost_row(wire_row *out, const wire_task *w, const char *why)
{
    nb_task t;
    memset(&t, 0, sizeof t);
    t.kind = (ns_kind)w->kind;
    t.solver = w->probe ? NULL : w->solver;
    memset(out, 0, sizeof *out);
    out->id = w->id;
    out->lost = 1;
    nb_row_unrun(&out->row, &t, "interrupted", why);
}

/* How many times a task may lose its runner before it counts as a crash
 * (a run that kills its runner would otherwise go round the ranks). */
#define NB_LOST_MAX 2

void nb_mpi_serve(void)
{
    wire_task *w = malloc(sizeof *w);
    size_t nout = 0, capout = 0;
    wire_task *out = NULL;   /* tasks sent to the runner, for a runner that dies */
    if (!w) return;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            if (st.MPI_TAG == TAG_STOP) {
                MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                break;
            }
            int len = 0;
            MPI_Get_count(&st, MPI_BYTE, &len);
            memset(w, 0, sizeof *w);
            MPI_Recv(w, len > (int)sizeof *w ? (int)sizeof *w : len, MPI_BYTE, 0, st.MPI_TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            uint32_t n = (uint32_t)task_bytes(w);
            if (M.sock < 0 || write_full(M.sock, &n, sizeof n) || write_full(M.sock, w, n)) {
                wire_row r;
                lost_row(&r, w, "the runner process of this rank is gone");
                MPI_Send(&r, (int)sizeof r, MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
                continue;
            }
            if (nout == capout) {
                size_t cap = capout ? 2 * capout : 8;
                wire_task *o = realloc(out, cap * sizeof *o);
                if (!o) break;
                out = o;
                capout = cap;
            }
            memcpy(&out[nout], w, WIRE_TASK_HEAD);
            out[nout].file[0] = '\0';
            nout++;
            continue;
        }
        if (M.sock < 0) {
            struct timespec ts = { 0, 2 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            continue;
        }
        struct pollfd p = { M.sock, POLLIN, 0 };
        if (poll(&p, 1, 2) <= 0) continue;
        wire_row r;
        if (read_full(M.sock, &r, sizeof r) != 0) {
            /* the runner died: its tasks are lost runs */
            close(M.sock);
            M.sock = -1;
            for (size_t i = 0; i < nout; i++) {
                wire_row lr;
                lost_row(&lr, &out[i], "the runner process of this rank died");
                MPI_Send(&lr, (int)sizeof lr, MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
            }
            nout = 0;
            continue;
        }
        for (size_t i = 0; i < nout; i++)
            if (out[i].id == r.id) {
                out[i] = out[--nout];
                break;
            }
        MPI_Send(&r, (int)sizeof r, MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
    }
    free(out);
    free(w);
}

/* Rank 0's bookkeeping of one phase. */
typedef struct mpi_phase {
    nb_task *tasks;
    size_t n, next, finished;
    int *held, *dead;        /* per rank */
    int *where;              /* per task: rank holding it, -1 none, -2 done */
    int *lost;               /* per task: runners it lost */
    size_t *requeue;         /* tasks to hand out again, before next */
    size_t nrequeue;
    nb_progress *prog;
    nb_done_fn done;
    void *ctx;
} mpi_phase;

static void phase_done(mpi_phase *ph, size_t i)
{
    ph->where[i] = -2;
    ph->finished++;
    nb_progress_count(ph->prog, &ph->tasks[i].row);
    if (ph->done) ph->done(ph->ctx, &ph->tasks[i]);
}

/* Task i came back lost from rank r (its runner is gone): r takes no more;
 * i goes to another rank, or is a crash after NB_LOST_MAX lost runners. */
static void phase_lost(mpi_phase *ph, size_t i, int r, const char *why)
{
    ph->dead[r] = 1;
    if (ph->where[i] == r) ph->held[r]--;
    ph->where[i] = -1;
    if (++ph->lost[i] >= NB_LOST_MAX) {
        nb_row_unrun(&ph->tasks[i].row, &ph->tasks[i], "crash", "");
        snprintf(ph->tasks[i].row.message, sizeof ph->tasks[i].row.message,
                 "its runner process died %d times while it ran (last: %s)", ph->lost[i], why);
        phase_done(ph, i);
        return;
    }
    ph->requeue[ph->nrequeue++] = i;
}

static void fill_wire(wire_task *w, const nb_task *t, size_t id)
{
    memset(w, 0, WIRE_TASK_HEAD);
    w->id = (uint32_t)id;
    w->kind = (int32_t)t->kind;
    w->probe = t->solver == NULL;
    snprintf(w->solver, sizeof w->solver, "%s", t->solver ? t->solver : "");
    snprintf(w->file, sizeof w->file, "%s", t->file);
}

/* Rank 0's runner is gone: what it held goes elsewhere. */
static void own_runner_gone(mpi_phase *ph, const char *why)
{
    if (M.sock >= 0) close(M.sock);
    M.sock = -1;
    for (size_t i = 0; i < ph->n; i++)
        if (ph->where[i] == 0) phase_lost(ph, i, 0, why);
    ph->dead[0] = 1;
}

int nb_mpi_run_tasks(const nb_config *c, nb_task *tasks, size_t n, nb_progress *prog,
                     const char *phase, nb_done_fn done, void *ctx)
{
    int jobs = c->jobs > 0 ? c->jobs : 1;
    mpi_phase ph = { tasks, n, 0, 0, calloc((size_t)M.size, sizeof(int)),
                     calloc((size_t)M.size, sizeof(int)), malloc((n + 1) * sizeof(int)),
                     calloc(n + 1, sizeof(int)), malloc((n + 1) * sizeof(size_t)), 0, prog,
                     done, ctx };
    wire_task *w = malloc(sizeof *w);
    if (!ph.held || !ph.dead || !ph.where || !ph.lost || !ph.requeue || !w) {
        free(ph.held); free(ph.dead); free(ph.where); free(ph.lost); free(ph.requeue);
        free(w);
        return -1;
    }
    for (size_t i = 0; i < n; i++) ph.where[i] = -1;
    if (M.sock < 0) ph.dead[0] = 1;
    nb_signals_catch();
    nb_progress_set(prog, 0, n, phase);
    int status = 0;
    while (ph.finished < n) {
        int live = 0;
        for (int r = 0; r < M.size; r++) live += !ph.dead[r];
        if (nb_interrupted() || live == 0) {
            /* what is not back is not run: --resume runs it */
            for (size_t i = 0; i < n; i++)
                if (ph.where[i] != -2) {
                    nb_row_unrun(&tasks[i].row, &tasks[i], "interrupted",
                                 live ? NULL : "no rank has a runner process left");
                    phase_done(&ph, i);
                }
            status = 130;
            break;
        }
        for (int r = 0; r < M.size; r++) {
            while (!ph.dead[r] && ph.held[r] < jobs && (ph.nrequeue > 0 || ph.next < n)) {
                size_t i = ph.nrequeue > 0 ? ph.requeue[--ph.nrequeue] : ph.next++;
                nb_task *t = &tasks[i];
                fill_wire(w, t, i);
                uint32_t len = (uint32_t)task_bytes(w);
                if (r == 0) {
                    if (M.sock < 0 || write_full(M.sock, &len, sizeof len) || write_full(M.sock, w, len)) {
                        ph.where[i] = 0;
                        ph.held[0]++;
                        own_runner_gone(&ph, "the runner process of rank 0 is gone");
                        break;
                    }
                } else if (MPI_Send(w, (int)len, MPI_BYTE, r, TAG_TASK, MPI_COMM_WORLD) != MPI_SUCCESS) {
                    ph.where[i] = r;
                    ph.held[r]++;
                    phase_lost(&ph, i, r, "could not send the task to its rank");
                    break;
                }
                ph.where[i] = r;
                ph.held[r]++;
                char cur[NB_MSG_LEN];
                snprintf(cur, sizeof cur, "%s%s%s", t->file, t->solver ? " · " : "",
                         t->solver ? t->solver : "");
                nb_progress_set(prog, prog->done, n, cur);
            }
        }
        /* rows back: from the other ranks, then from our own runner */
        for (;;) {
            int flag = 0, from = -1;
            wire_row r;
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_ROW, MPI_COMM_WORLD, &flag, &st);
            if (flag) {
                MPI_Recv(&r, (int)sizeof r, MPI_BYTE, st.MPI_SOURCE, TAG_ROW, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                from = st.MPI_SOURCE;
            } else if (M.sock >= 0) {
                struct pollfd p = { M.sock, POLLIN, 0 };
                if (poll(&p, 1, 2) <= 0) break;
                if (read_full(M.sock, &r, sizeof r) != 0) {
                    own_runner_gone(&ph, "the runner process of rank 0 died");
                    break;
                }
                from = 0;
            } else {
                struct timespec ts = { 0, 2 * 1000 * 1000 };
                nanosleep(&ts, NULL);
                break;
            }
            if (r.id >= n || ph.where[r.id] != from) continue;  /* not ours: ignore */
            if (r.lost) {
                r.row.message[sizeof r.row.message - 1] = '\0';
                phase_lost(&ph, r.id, from, r.row.message);
                continue;
            }
            nb_task *t = &tasks[r.id];
            t->row = r.row;
            t->row.file = NULL;
            ph.held[from]--;
            phase_done(&ph, r.id);
        }
        nb_progress_tick(prog);
    }
    nb_signals_restore();
    free(ph.held); free(ph.dead); free(ph.where); free(ph.lost); free(ph.requeue);
    free(w);
    return status;
}

#else  /* built without MPI: nothing here */
typedef int nb_mpi_unused;
#endif
