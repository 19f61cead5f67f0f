/* scene_file.c — the spheres_box scene file and the overlap measures
 * (scene_file.h). */
#include "scene_file.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void say(char *err, size_t len, const char *fmt, ...)
{
    if (!err || len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

int sbx_scene_write(const char *path, const sbx_scene *s, char *err, size_t len)
{
    if (!path || !s || s->n < 1 || !s->x || !s->v || !s->w || !s->R || !s->m || !s->I) {
        say(err, len, "scene write: %s", !path ? "path is NULL" : "scene is NULL or empty");
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) { say(err, len, "%s: cannot write: %s", path, strerror(errno)); return -1; }
    fprintf(f, "nonsmooth-spheres-scene 1\n# spheres_box scene: box, law, step, then per sphere "
               "x y z vx vy vz wx wy wz R m I (SI units)\n");
    fprintf(f, "n %d\nbox %.17g %.17g\ngravity %.17g %.17g %.17g\nmu %.17g\ne %.17g\nh %.17g\nsteps %ld\n",
            s->n, s->ax, s->ay, s->g[0], s->g[1], s->g[2], s->mu, s->e, s->h, s->steps);
    for (int i = 0; i < s->n; i++) {
        const double *x = s->x + 3 * i, *v = s->v + 3 * i, *w = s->w + 3 * i;
        fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                x[0], x[1], x[2], v[0], v[1], v[2], w[0], w[1], w[2], s->R[i], s->m[i], s->I[i]);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) { say(err, len, "%s: write failed", path); return -1; }
    return 0;
}

void sbx_scene_free(sbx_scene *s)
{
    if (!s) return;
    free(s->x); free(s->v); free(s->w); free(s->R); free(s->m); free(s->I);
    free(s);
}

/* The next line that is not a comment or blank; 0 at end of file. */
static int next_line(FILE *f, char *buf, size_t len, long *lineno)
{
    while (fgets(buf, (int)len, f)) {
        (*lineno)++;
        char *p = buf;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') continue;
        return 1;
    }
    return 0;
}

/* Reads k finite numbers from p into out; 0 if exactly k are there. */
static int numbers(const char *p, int k, double *out)
{
    for (int t = 0; t < k; t++) {
        char *end;
        errno = 0;
        out[t] = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(out[t])) return -1;
        p = end;
    }
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return *p == '\0' ? 0 : -1;
}

/* "KEY v1 ... vk" */
static int keyed(FILE *f, const char *key, int k, double *out, long *lineno, const char *path,
                 char *err, size_t len)
{
    char buf[1024];
    if (!next_line(f, buf, sizeof buf, lineno)) {
        say(err, len, "%s: line %ld: end of file, expected '%s'", path, *lineno, key);
        return -1;
    }
    size_t kl = strlen(key);
    if (strncmp(buf, key, kl) != 0 || (buf[kl] != ' ' && buf[kl] != '\t')) {
        say(err, len, "%s: line %ld: expected '%s'", path, *lineno, key);
        return -1;
    }
    if (numbers(buf + kl, k, out) != 0) {
        say(err, len, "%s: line %ld: '%s' needs %d finite number%s", path, *lineno, key, k, k > 1 ? "s" : "");
        return -1;
    }
    return 0;
}

sbx_scene *sbx_scene_read(const char *path, char *err, size_t len)
{
    if (!path) { say(err, len, "scene read: path is NULL"); return NULL; }
    FILE *f = fopen(path, "r");
    if (!f) { say(err, len, "%s: cannot read: %s", path, strerror(errno)); return NULL; }
    char buf[1024];
    long ln = 0;
    sbx_scene *s = NULL;
    if (!next_line(f, buf, sizeof buf, &ln) || strncmp(buf, "nonsmooth-spheres-scene 1", 25) != 0) {
        say(err, len, "%s: line %ld: not a spheres scene (expected 'nonsmooth-spheres-scene 1')", path, ln);
        goto fail;
    }
    double nv, box[2], g[3], mu, e, h, steps;
    if (keyed(f, "n", 1, &nv, &ln, path, err, len) || keyed(f, "box", 2, box, &ln, path, err, len) ||
        keyed(f, "gravity", 3, g, &ln, path, err, len) || keyed(f, "mu", 1, &mu, &ln, path, err, len) ||
        keyed(f, "e", 1, &e, &ln, path, err, len) || keyed(f, "h", 1, &h, &ln, path, err, len) ||
        keyed(f, "steps", 1, &steps, &ln, path, err, len))
        goto fail;
    const char *why = !(nv >= 1 && nv <= 1e8 && nv == floor(nv)) ? "n: a whole number in [1, 1e8]"
                    : !(box[0] > 0 && box[1] > 0) ? "box: half-widths must be > 0"
                    : !(mu >= 0) ? "mu must be >= 0"
                    : !(e >= 0 && e <= 1) ? "e must be in [0, 1]"
                    : !(h > 0) ? "h must be > 0"
                    : !(steps >= 0 && steps <= 1e9 && steps == floor(steps)) ? "steps: a whole number in [0, 1e9]"
                    : NULL;
    if (why) { say(err, len, "%s: %s", path, why); goto fail; }
    s = calloc(1, sizeof *s);
    if (!s) { say(err, len, "%s: out of memory", path); goto fail; }
    s->n = (int)nv; s->ax = box[0]; s->ay = box[1];
    memcpy(s->g, g, sizeof g);
    s->mu = mu; s->e = e; s->h = h; s->steps = (long)steps;
    size_t n = (size_t)s->n;
    s->x = malloc(3 * n * sizeof *s->x); s->v = malloc(3 * n * sizeof *s->v); s->w = malloc(3 * n * sizeof *s->w);
    s->R = malloc(n * sizeof *s->R); s->m = malloc(n * sizeof *s->m); s->I = malloc(n * sizeof *s->I);
    if (!s->x || !s->v || !s->w || !s->R || !s->m || !s->I) { say(err, len, "%s: out of memory", path); goto fail; }
    for (int i = 0; i < s->n; i++) {
        double r[12];
        if (!next_line(f, buf, sizeof buf, &ln)) {
            say(err, len, "%s: line %ld: end of file after %d of %d spheres", path, ln, i, s->n);
            goto fail;
        }
        if (numbers(buf, 12, r) != 0) {
            say(err, len, "%s: line %ld: sphere %d needs 12 finite numbers (x y z vx vy vz wx wy wz R m I)",
                path, ln, i);
            goto fail;
        }
        if (!(r[9] > 0 && r[10] > 0 && r[11] > 0)) {
            say(err, len, "%s: line %ld: sphere %d: R, m and I must be > 0", path, ln, i);
            goto fail;
        }
        memcpy(s->x + 3 * i, r, 3 * sizeof *r);
        memcpy(s->v + 3 * i, r + 3, 3 * sizeof *r);
        memcpy(s->w + 3 * i, r + 6, 3 * sizeof *r);
        s->R[i] = r[9]; s->m[i] = r[10]; s->I[i] = r[11];
    }
    if (next_line(f, buf, sizeof buf, &ln)) {
        say(err, len, "%s: line %ld: more than n = %d spheres", path, ln, s->n);
        goto fail;
    }
    fclose(f);
    return s;
fail:
    fclose(f);
    sbx_scene_free(s);
    return NULL;
}

typedef struct { double x; int i; } keyx;

static int by_x(const void *a, const void *b)
{
    double d = ((const keyx *)a)->x - ((const keyx *)b)->x;
    return (d > 0) - (d < 0);
}

int sbx_overlaps(int n, const double *x, const double *R, double ax, double ay, sbx_overlap *o)
{
    memset(o, 0, sizeof *o);
    if (n <= 0) return 0;
    keyx *k = malloc((size_t)n * sizeof *k);
    if (!k) return -1;
    double rmax = 0.0, psum = 0.0, wsum = 0.0;
    for (int i = 0; i < n; i++) {
        k[i].x = x[3 * i]; k[i].i = i;
        if (R[i] > rmax) rmax = R[i];
        const double *p = x + 3 * i;
        double d[5] = { p[2], ax - p[0], ax + p[0], ay - p[1], ay + p[1] };   /* floor, walls */
        for (int w = 0; w < 5; w++) {
            double ov = R[i] - d[w];
            if (ov > 0) {
                o->walls++; wsum += ov;
                if (ov > o->wall_max) o->wall_max = ov;
            }
        }
    }
    qsort(k, (size_t)n, sizeof *k, by_x);
    for (int a = 0; a < n; a++) {
        int i = k[a].i;
        const double *p = x + 3 * i;
        for (int b = a + 1; b < n && k[b].x - k[a].x < R[i] + rmax; b++) {
            int j = k[b].i;
            const double *q = x + 3 * j;
            double dx = q[0] - p[0], dy = q[1] - p[1], dz = q[2] - p[2], s = R[i] + R[j];
            double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 >= s * s) continue;
            double ov = s - sqrt(d2);
            o->pairs++; psum += ov;
            if (ov > o->pair_max) o->pair_max = ov;
        }
    }
    free(k);
    o->pair_mean = o->pairs ? psum / (double)o->pairs : 0.0;
    o->wall_mean = o->walls ? wsum / (double)o->walls : 0.0;
    return 0;
}

void sbx_peer_line(FILE *f, const char *engine, const char *settings, int n, long steps,
                   double settled_ms, double settled_cpu_ms, double run_s, const sbx_overlap *o,
                   double kinetic_energy)
{
    if (!f || !o) return;
    fprintf(f, "peer: engine=%s settings=%s n=%d steps=%ld settled_ms=%.4g settled_cpu_ms=%.4g run_s=%.4g "
               "max_overlap_um=%.4g mean_overlap_um=%.4g overlapping_pairs=%ld "
               "wall_max_overlap_um=%.4g wall_mean_overlap_um=%.4g overlapping_walls=%ld kinetic_energy=%.4g\n",
            engine ? engine : "?", settings ? settings : "-", n, steps, settled_ms, settled_cpu_ms, run_s,
            1e6 * o->pair_max, 1e6 * o->pair_mean, o->pairs, 1e6 * o->wall_max, 1e6 * o->wall_mean, o->walls,
            kinetic_energy);
}
