/* ns_test.c — helpers shared by the test programs. */
#define _XOPEN_SOURCE 700
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "ns_test.h"
#include "nonsmooth/ns_matrix.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ns_test_data_dir(void)
{
    const char *env = getenv("NS_SHARED_DATA");
    const char *dir = env && *env ? env : NS_SHARED_DATA;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return NULL;
    return dir;
}

char *ns_test_data_path(char *buf, size_t len, const char *rel)
{
    const char *d = ns_test_data_dir();
    snprintf(buf, len, "%s/%s", d ? d : ".", rel);
    return buf;
}

/* Every name handed out is removed (a file, or a directory with what is in
 * it) when the test program exits, unless NS_TEST_KEEP is set: the tests
 * run the examples and tools into such directories and leave nothing
 * behind in /tmp. Only the process that made the names removes them (a
 * forked child that exits must not). Test programs only: the library has
 * no such state. */
#define TMP_MAX_NAMES 1024
static char *tmp_names[TMP_MAX_NAMES];
static int tmp_count;
static pid_t tmp_owner;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    remove(path);
    return 0;
}

static void remove_tmp_names(void)
{
    if (getpid() != tmp_owner) return;
    const char *keep = getenv("NS_TEST_KEEP");
    for (int k = 0; k < tmp_count; k++) {
        if (!(keep && *keep)) nftw(tmp_names[k], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(tmp_names[k]);
    }
    tmp_count = 0;
}

static void remember_tmp_name(const char *name)
{
    if (tmp_count == 0 && !tmp_owner) {
        tmp_owner = getpid();
        atexit(remove_tmp_names);
    }
    if (tmp_count >= TMP_MAX_NAMES) return;
    char *c = strdup(name);
    if (c) tmp_names[tmp_count++] = c;
}

char *ns_test_tmpname(char *buf, size_t len, const char *suffix)
{
    static const char *dflt = "/tmp";
    const char *t = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/nstestXXXXXX", t && *t ? t : dflt);
    int fd = mkstemp(tmpl);
    if (fd >= 0) { close(fd); unlink(tmpl); }
    snprintf(buf, len, "%s%s", tmpl, suffix ? suffix : "");
    remember_tmp_name(buf);
    return buf;
}

void ns_rng_seed(ns_rng *r, uint64_t seed)
{
    r->s = seed ? seed : 0x9E3779B97F4A7C15ull;
}

double ns_rng_uniform(ns_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t v = r->s * 0x2545F4914F6CDD1Dull;
    return (double)(v >> 11) * (1.0 / 9007199254740992.0);
}

double ns_rng_range(ns_rng *r, double a, double b)
{
    return a + (b - a) * ns_rng_uniform(r);
}

int ns_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

ns_matrix *ns_test_tridiag(int n, double d, double de, double o, double s)
{
    ns_matrix *A = ns_matrix_sparse_new(n, n, 3 * (ns_int)n - 2);
    if (!A) return NULL;
    ns_int k = 0;
    for (int c = 0; c < n; c++) {
        A->csc.p[c] = k;
        if (c > 0) { A->csc.i[k] = c - 1; A->csc.x[k++] = o * s; }
        A->csc.i[k] = c; A->csc.x[k++] = (c == 0 || c == n - 1 ? de : d) * s;
        if (c < n - 1) { A->csc.i[k] = c + 1; A->csc.x[k++] = o * s; }
    }
    A->csc.p[n] = k;
    return A;
}

int ns_test_json_valid(const char *path)
{
    if (system("command -v python3 >/dev/null 2>&1") != 0) return -1;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "python3 -m json.tool '%s' >/dev/null 2>&1", path);
    return system(cmd) == 0;
}

void ns_test_check_json(const char *args, const char *path)
{
    if (!args || !strstr(args, "--json")) return;
    int v = ns_test_json_valid(path);
    if (v == 0) fail_msg("--json output of '%s' is not valid JSON (%s)", args, path);
}
