/* nsbench_collect.c — the files of a benchmark: each PATH argument is a
 * file (taken as is) or a directory searched recursively for *.dat, *.hdf5
 * and *.h5; hidden entries are skipped; each directory's files come sorted,
 * so the order (and the CSV) does not depend on the file system. A file or
 * directory is taken once by its identity (device, inode): symbolic links
 * to a file already taken, or to a directory already walked (a link to an
 * ancestor makes a loop), add nothing. */
#define _POSIX_C_SOURCE 200809L
#include "nsbench.h"
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* 1 if id is in the list, else adds it (0), -1 out of memory */
static int seen(struct nb_file_id **v, size_t *n, size_t *cap, const struct stat *st)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].dev == (unsigned long long)st->st_dev && (*v)[i].ino == (unsigned long long)st->st_ino)
            return 1;
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        struct nb_file_id *p = realloc(*v, c * sizeof *p);
        if (!p) return -1;
        *v = p;
        *cap = c;
    }
    (*v)[*n].dev = (unsigned long long)st->st_dev;
    (*v)[*n].ino = (unsigned long long)st->st_ino;
    (*n)++;
    return 0;
}

static int add(nb_files *f, const char *path)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->path[i], path)) return 0;  /* given twice */
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        int k = seen(&f->fid, &f->nfid, &f->capfid, &st);
        if (k) return k > 0 ? 0 : -1;  /* the same file by another name */
    }
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        char **p = realloc(f->path, cap * sizeof *p);
        if (!p) return -1;
        f->path = p;
        f->cap = cap;
    }
    if (!(f->path[f->n] = strdup(path))) return -1;
    f->n++;
    return 0;
}

static int is_problem_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcasecmp(dot, ".dat") || !strcasecmp(dot, ".hdf5") ||
                   !strcasecmp(dot, ".h5"));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(nb_files *f, const char *dir, char *err, int depth)
{
    if (depth > 64) return 0;
    struct stat dst;
    if (stat(dir, &dst) == 0) {
        int k = seen(&f->did, &f->ndid, &f->capdid, &dst);
        if (k > 0) return 0;  /* walked already (a link loop or a second link) */
        if (k < 0) { snprintf(err, NS_ERRMSG_LEN, "out of memory"); return -1; }
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **p = realloc(names, cap * sizeof *p);
            if (!p) { rc = -1; break; }
            names = p;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) { rc = -1; break; }
        snprintf(names[n], len, "%s%s%s", dir,
                 dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
        n++;
    }
    closedir(d);
    if (rc) snprintf(err, NS_ERRMSG_LEN, "out of memory listing %s", dir);
    if (n > 1) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && !rc; i++) {
        struct stat st;
        if (stat(names[i], &st) != 0) continue;  /* dangling link */
        if (S_ISDIR(st.st_mode)) rc = walk(f, names[i], err, depth + 1);
        else if (S_ISREG(st.st_mode) && is_problem_name(strrchr(names[i], '/') + 1)) {
            if (add(f, names[i])) {
                snprintf(err, NS_ERRMSG_LEN, "out of memory");
                rc = -1;
            }
        }
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return rc;
}

int nb_files_collect(nb_files *f, const char *path, char *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, NS_ERRMSG_LEN, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) return walk(f, path, err, 0);
    if (add(f, path)) {
        snprintf(err, NS_ERRMSG_LEN, "out of memory");
        return -1;
    }
    return 0;
}

void nb_files_free(nb_files *f)
{
    for (size_t i = 0; i < f->n; i++) free(f->path[i]);
    free(f->path);
    free(f->fid);
    free(f->did);
    memset(f, 0, sizeof *f);
}
