/* solve_spec.c — the one parser of solver specs "NAME[/key=value]...":
 * the solver's name checked against the registry, each key against the
 * common keys and the solver's option table (solve_options.c), each value
 * against the option's type and range, then written into ns_options.
 * nsolve, nsbench, the Python package and the mechanics layer all come
 * here, so a spec means the same thing everywhere. */
#include "nonsmooth/ns_solver.h"
#include "core/ns_internal.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The option of solver s (or a common one) called key[0..klen); NULL if none. */
static const ns_solver_option *find_key(const ns_solver_info *s, const char *key, size_t klen)
{
    size_t n;
    const ns_solver_option *t = ns_solver_common_options(&n);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++)
            if (strlen(t[i].key) == klen && strncmp(t[i].key, key, klen) == 0) return &t[i];
        t = ns_solver_options(s, &n);
    }
    return NULL;
}

/* "tol, max_iter, time_limit, omega, ..." for the error messages: the keys
 * the solvers cand[0..ncand) take (the common ones, then each solver's own
 * not listed for an earlier one). */
static void valid_keys(const ns_solver_info *const *cand, size_t ncand, char *buf, size_t len)
{
    size_t n, used = 0;
    buf[0] = '\0';
    for (size_t c = 0; c <= ncand; c++) {   /* c = 0: the common keys, else cand[c − 1]'s */
        const ns_solver_option *t = c ? ns_solver_options(cand[c - 1], &n) : ns_solver_common_options(&n);
        for (size_t i = 0; i < n && used < len; i++) {
            int seen = 0;
            for (size_t e = 0; e + 1 < c && !seen; e++)
                seen = find_key(cand[e], t[i].key, strlen(t[i].key)) != NULL;
            if (seen) continue;
            int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t[i].key);
            if (w < 0) break;
            used += (size_t)w;
        }
    }
}

/* Index of word val[0..vlen) in the comma-separated list choices, or -1. */
static int choice_index(const char *choices, const char *val, size_t vlen)
{
    int idx = 0;
    for (const char *c = choices; *c; idx++) {
        const char *end = strchr(c, ',');
        size_t clen = end ? (size_t)(end - c) : strlen(c);
        if (clen == vlen && strncmp(c, val, vlen) == 0) return idx;
        if (!end) break;
        c = end + 1;
    }
    return -1;
}

/* The one-contact solver names a string choice field points to (static,
 * so that ns_options.local_solver stays valid after the spec is freed). */
static const char *static_word(const char *val, size_t vlen)
{
    static const char *const words[] = { "ac", "fb", "nm", "proj", "enum", "newton" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == vlen && strncmp(words[i], val, vlen) == 0) return words[i];
    return NULL;
}

/* Sets option d of o from val[0..vlen). */
static ns_status set_value(const char *spec, const ns_solver_info *s, const ns_solver_option *d,
                           const char *val, size_t vlen, ns_options *o, char *err)
{
    char text[128];
    if (vlen == 0 || vlen >= sizeof text)
        return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: %s value for '%s'", spec,
                       s->name, vlen ? "too long a" : "no", d->key);
    memcpy(text, val, vlen);
    text[vlen] = '\0';
    char *field = (char *)o + d->offset;
    switch (d->type) {
    case NS_OPT_INT: {
        char *end;
        errno = 0;
        long v = strtol(text, &end, 10);
        if (*end || errno || end == text || v < d->min || v > d->max)
            return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: %s='%s' is not an integer "
                           "in [%.0f, %.0f]", spec, s->name, d->key, text, d->min, d->max);
        int iv = (int)v;          /* int fields, and unsigned seed (same size, v >= 0) */
        memcpy(field, &iv, sizeof iv);
        return NS_OK;
    }
    case NS_OPT_DOUBLE: {
        char *end;
        errno = 0;
        double v = strtod(text, &end);
        int above = d->max_open ? !(v < d->max) : !(v <= d->max);
        if (*end || end == text || !isfinite(v) || !(v >= d->min) || above) {
            if (d->min > 0 && d->min < 1e-300)
                return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: %s='%s' is not a number "
                               "in (0, %g%s", spec, s->name, d->key, text, d->max,
                               d->max_open ? ")" : "]");
            return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: %s='%s' is not a number "
                           "in [%g, %g%s", spec, s->name, d->key, text, d->min, d->max,
                           d->max_open ? ")" : "]");
        }
        memcpy(field, &v, sizeof v);
        return NS_OK;
    }
    case NS_OPT_CHOICE: {
        int idx = choice_index(d->choices, val, vlen);
        if (idx < 0)
            return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: %s='%s' is not one of %s",
                           spec, s->name, d->key, text, d->choices);
        if (d->offset == offsetof(ns_options, local_solver)) {
            const char *w = static_word(val, vlen);
            if (!w) return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: %s='%s' is not one of %s",
                                   spec, s->name, d->key, text, d->choices);
            memcpy(field, &w, sizeof w);
        } else {
            memcpy(field, &idx, sizeof idx);
        }
        return NS_OK;
    }
    case NS_OPT_SOLVER: {
        const ns_solver_info *l = ns_solver_find(text, d->solver_kind);
        if (!l) return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: %s='%s' is not a %s solver",
                               spec, s->name, d->key, text, ns_kind_name(d->solver_kind));
        const char *name = l->name; /* static, in the registry */
        memcpy(field, &name, sizeof name);
        return NS_OK;
    }
    }
    return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s: bad option table", spec, s->name);
}

ns_status ns_solver_spec_parse(const char *spec, ns_kind kind, char *name_out,
                               size_t len, ns_options *o, char *err)
{
    if (!name_out || len == 0 || !o)
        return ns_fail(err, NS_BAD_INPUT, "solver spec: %s is NULL",
                       !name_out || !len ? "name_out" : "options");
    name_out[0] = '\0';
    if (!spec) spec = "";
    const char *slash = strchr(spec, '/');
    size_t nlen = slash ? (size_t)(slash - spec) : strlen(spec);
    char name[NS_SOLVER_NAME_LEN];
    if (nlen >= sizeof name || nlen >= len)
        return ns_fail(err, NS_NOT_FOUND, "solver spec '%.64s...': the solver name is too long", spec);
    memcpy(name, spec, nlen);
    name[nlen] = '\0';

    /* The solvers this name may be: one of the kind, or (NS_KIND_NONE) all
     * kinds having it. */
    const ns_solver_info *cand[32];
    size_t ncand = 0;
    if (kind != NS_KIND_NONE) {
        const ns_solver_info *s = nlen ? ns_solver_find(name, kind) : ns_solver_default(kind);
        if (!s) {
            if (nlen)
                return ns_fail(err, NS_NOT_FOUND, "solver spec '%s': no solver '%s' for %s problems",
                               spec, name, ns_kind_name(kind));
            return ns_fail(err, NS_NOT_FOUND, "solver spec '%s': no default solver for %s problems",
                           spec, ns_kind_name(kind));
        }
        cand[ncand++] = s;
    } else {
        if (!nlen) return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': no solver name (the "
                                  "default depends on the problem's kind)", spec);
        for (size_t i = 0; i < ns_solver_count() && ncand < 32; i++)
            if (strcmp(ns_solver_at(i)->name, name) == 0) cand[ncand++] = ns_solver_at(i);
        if (!ncand) return ns_fail(err, NS_NOT_FOUND, "solver spec '%s': no solver '%s'", spec, name);
    }

    const char *p = slash;
    while (p && *p == '/') {
        const char *item = p + 1;
        const char *next = strchr(item, '/');
        size_t ilen = next ? (size_t)(next - item) : strlen(item);
        const char *eq = memchr(item, '=', ilen);
        if (!eq || eq == item)
            return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': '%.*s' is not key=value", spec,
                           (int)ilen, item);
        size_t klen = (size_t)(eq - item);
        const char *val = eq + 1;
        size_t vlen = ilen - klen - 1;
        int found = 0;
        for (size_t c = 0; c < ncand; c++) {
            const ns_solver_option *d = find_key(cand[c], item, klen);
            if (!d) continue;
            found = 1;
            ns_status st = set_value(spec, cand[c], d, val, vlen, o, err);
            if (st != NS_OK) return st;
            break;
        }
        if (!found) {
            char keys[256];
            valid_keys(cand, ncand, keys, sizeof keys);
            /* before the kind is known the name stands for its solvers of
             * every kind: the keys any of them takes */
            return ns_fail(err, NS_BAD_INPUT, "solver spec '%s': %s (%s) has no option '%.*s' "
                           "(valid: %s)", spec, cand[0]->name,
                           ncand > 1 ? "any kind" : ns_kind_name(cand[0]->kind),
                           (int)klen, item, keys);
        }
        p = next;
    }
    snprintf(name_out, len, "%s", cand[0]->name);
    return NS_OK;
}
