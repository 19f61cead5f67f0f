/* lcp_auto.c — the default LCP solver (and the relay's, on its LCP
 * reformulation): a polyalgorithm that ends with a solution or a checked
 * certificate of infeasibility. In order, stopping at the first solution
 * whose error is ≤ tol:
 *   1. lexicographic Lemke, covering vector 1 (today's lemke: on the
 *      problems it solves, auto costs what lemke costs). On a secondary
 *      ray, the ray's z part is checked as a Farkas certificate
 *      (y ≥ 0, Mᵀy ≤ 0, qᵀy < 0; ns_feas_check): it is one whenever M is
 *      copositive-plus, and then auto stops with no_solution;
 *   2. Lemke with the covering vector d_i = max_j |M_ij| (row-scale
 *      invariant), then with a fixed pseudo-random d in [1, 2];
 *   3. Lemke–Howson when M has bimatrix structure [[0, A], [Bᵀ, 0]],
 *      A, B > 0, q < 0 (lcp_lh.c) — for such M right after step 1;
 *   4. principal pivoting (lcp_ppm.c: block pivoting, Murty's rule);
 *   5. the semismooth Newton (Fischer–Burmeister, with its line search and
 *      gradient safeguard) from the best point so far;
 *   6. enumeration when n ≤ 16;
 *   7. the Farkas search (Lemke on the feasibility LP, solve_certificate.c):
 *      a checked certificate gives no_solution — right after step 1 when
 *      Lemke ended on a ray that is no certificate (and M is no game).
 * Otherwise the best iterate is returned with status failed and the reason.
 * The time limit applies to the whole chain. */
#include "solve/solvers.h"
#include "solve/certificate.h"
#include "core/ns_internal.h"
#include "lcp/lcp_kernels.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_lcp_auto_dense(ns_int n, const double *M, const double *q, double *z,
                            double *w, const ns_options *o, ns_kernel_error_fn err,
                            const void *ctx, ns_result *res, double **cert_y)
{
    size_t un = (size_t)n;
    *cert_y = NULL;
    res->iterations = 0;
    /* step 1 first, with nothing else allocated: a problem lemke solves
     * costs what lemke costs */
    double *ray = NULL;
    ns_status s0 = ns_lemke_dense_ex(n, M, q, NULL, z, w, o, err, ctx, res, &ray);
    static const char *const step_name[8] = { "lemke", "lemke", "lemke", "lemke-howson", "ppm",
                                              "newton-fb", "enum", "farkas search" };
    snprintf(res->method, sizeof res->method, "lemke");
    if (s0 == NS_CONVERGED && res->error <= o->tol) { free(ray); return NS_CONVERGED; }
    if (!ns_status_is_outcome(s0) && s0 != NS_SINGULAR) { free(ray); return s0; }
    int first_iters = res->iterations;
    double t0 = ns_now();   /* lemke kept its own limit; the rest share one */
    double *zb = ns_malloc(un + 1, sizeof(double)), *wb = ns_malloc(un + 1, sizeof(double));
    double *d = ns_malloc(un + 1, sizeof(double));
    double *lo = ns_calloc(un + 1, sizeof(double)), *hi = ns_malloc(un + 1, sizeof(double));
    unsigned char *type = ns_malloc(un + 1, 1);
    if (!zb || !wb || !d || !lo || !hi || !type) {
        free(zb); free(wb); free(ray); free(d); free(lo); free(hi); free(type);
        return ns_fail(res->message, NS_NO_MEMORY, "lcp auto: out of memory");
    }
    ns_feas f = { .N = n, .M = (double *)M, .q = q, .lo = lo, .hi = hi, .type = type };
    for (ns_int i = 0; i < n; i++) { hi[i] = INFINITY; type[i] = 1; }
    ns_certificate cert;
    memset(&cert, 0, sizeof cert);
    double best = INFINITY;
    int best_step = 0, cert_step = 7;   /* cert_step: 0 when Lemke's ray is the certificate */
    ns_status st = NS_FAILED;
    int total = first_iters, have_cert = 0;
    char why[NS_ERRMSG_LEN] = "";
    /* the order of the steps; a game goes to Lemke–Howson right after Lemke */
    int order[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    if (ns_bimatrix_split(n, M, q)) { order[1] = 3; order[2] = 1; order[3] = 2; }
    else if (s0 == NS_NO_SOLUTION)   /* a ray that is no certificate: search for one first */
        for (int k = 1; k < 8; k++) order[k] = k == 1 ? 7 : k - 1;
    for (int k = 0; k < 8; k++) {
        int step = order[k];
        ns_result r;
        ns_result_init(&r);
        ns_status s = NS_UNSUPPORTED;
        if (step == 0) {   /* done above: its outcome */
            s = s0;
            r.error = res->error;
            goto judge;
        }
        ns_options os = *o;
        if (o->time_limit > 0) {
            os.time_limit = o->time_limit - (ns_now() - t0);
            if (os.time_limit <= 0) { st = NS_TIME_LIMIT; break; }
        }
        memset(z, 0, un * sizeof(double));
        switch (step) {
        case 1:
            for (ns_int i = 0; i < n; i++) {
                double a = 0.0;
                for (ns_int j = 0; j < n; j++) a = fmax(a, fabs(M[i + (size_t)j * n]));
                d[i] = a > 0 ? a : 1.0;
            }
            s = ns_lemke_dense_ex(n, M, q, d, z, w, &os, err, ctx, &r, NULL);
            break;
        case 2: {
            unsigned long long x = 88172645463325252ULL;
            for (ns_int i = 0; i < n; i++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                d[i] = 1.0 + (double)(x >> 11) / 9007199254740992.0;
            }
            s = ns_lemke_dense_ex(n, M, q, d, z, w, &os, err, ctx, &r, NULL);
            break;
        }
        case 3:
            if (order[1] != 3) continue;
            s = ns_lh_dense(n, M, q, z, w, &os, err, ctx, &r);
            break;
        case 4:
            os.max_iter = 20 * n + 100;
            s = ns_ppm_dense(n, M, q, z, w, &os, err, ctx, &r);
            break;
        case 5:
            if (!isfinite(best)) continue;
            memcpy(z, zb, un * sizeof(double));
            os.max_iter = 100;
            s = ns_newton_dense(n, M, q, NULL, 0, z, w, &os, err, ctx, &r);
            break;
        case 6:
            if (n > 16) continue;
            os.max_iter = 1 << 16;
            s = ns_enum_dense(n, M, q, NULL, z, w, &os, err, ctx, &r);
            break;
        case 7: {
            ns_status fs = ns_feas_search(&f, &cert, &os, why);
            ns_log(o, 1, "lcp auto: step 7 (farkas search): %s", fs == NS_OK ? "certificate" : why);
            if (fs == NS_OK) {
                have_cert = 1;
                st = NS_NO_SOLUTION;
            }
            break;
        }
        }
        if (step == 7) {
            if (have_cert) break;
            continue;
        }
        total += r.iterations;
judge:
        ns_log(o, 1, "lcp auto: step %d: %s, error %.3g", step, ns_status_name(s), r.error);
        double e = err(ctx, z, w);
        if (isfinite(e) && e < best) {
            best = e;
            best_step = step;
            memcpy(zb, z, un * sizeof(double));
        }
        if (e <= o->tol && ns_status_is_outcome(s)) { st = NS_CONVERGED; break; }
        if (s == NS_INTERRUPTED || ns_cancelled(o)) { st = NS_INTERRUPTED; break; }
        if (step == 0 && s == NS_NO_SOLUTION && ray) {
            free(cert.y);
            cert.kind = NS_CERT_FARKAS;
            cert.len = n;
            cert.y = ray;
            ray = NULL;
            {
                for (ns_int i = 0; i < n; i++) if (cert.y[i] < 0) cert.y[i] = 0.0;
                if (ns_feas_check(&f, &cert, why) == NS_OK) {
                    have_cert = 1;
                    cert_step = 0;
                    st = NS_NO_SOLUTION;
                    break;
                }
            }
        }
    }
    res->iterations = total;
    snprintf(res->method, sizeof res->method, "%s", step_name[have_cert && st == NS_NO_SOLUTION
                                                            ? cert_step : best_step]);
    if (st != NS_CONVERGED && isfinite(best)) memcpy(z, zb, un * sizeof(double));
    else if (st != NS_CONVERGED) memset(z, 0, un * sizeof(double));
    res->error = err(ctx, z, w);
    if (st == NS_CONVERGED) res->message[0] = '\0';
    if (st == NS_NO_SOLUTION && have_cert) {
        *cert_y = cert.y;
        cert.y = NULL;
        ns_fail(res->message, NS_NO_SOLUTION, "auto: infeasible, Farkas certificate checked");
    } else if (st != NS_CONVERGED && st != NS_TIME_LIMIT && st != NS_INTERRUPTED) {
        st = ns_fail(res->message, NS_FAILED, "auto: no method reached tol (best error %.3g) "
                     "and no certificate of infeasibility was found (%.200s)", best, why);
    }
    free(cert.y);
    free(zb); free(wb); free(ray); free(d); free(lo); free(hi); free(type);
    return st;
}

static double lcp_err(const void *ctx, const double *z, double *w)
{
    return ns_lcp_error((const ns_lcp *)ctx, z, w);
}

/* Moves a kernel's certificate vector into res->cert (owned there). */
static void set_cert(ns_result *res, double *y, ns_int n, const char *source)
{
    free(res->cert.y);
    memset(&res->cert, 0, sizeof res->cert);
    res->cert.kind = NS_CERT_FARKAS;
    res->cert.len = n;
    res->cert.y = y;
    snprintf(res->cert.source, sizeof res->cert.source, "%s", source);
}

ns_status ns_lcp_auto(const ns_lcp *p, double *z, double *w, const ns_options *o,
                      ns_result *res)
{
    /* the kernels only read M: a dense one is used in place */
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M), *y = NULL;
    if (!Mc && p->M->storage != NS_DENSE)
        return ns_fail(res->message, NS_NO_MEMORY, "lcp auto: out of memory");
    const double *M = Mc ? Mc : p->M->dense;
    ns_status st = ns_lcp_auto_dense(p->n, M, p->q, z, w, o, lcp_err, p, res, &y);
    if (st == NS_NO_SOLUTION) { set_cert(res, y, p->n, "lcp auto"); y = NULL; }
    free(Mc); free(y);
    return st;
}

ns_status ns_lcp_lemke(const ns_lcp *p, double *z, double *w,
                       const ns_options *o, ns_result *res)
{
    double *Mc = p->M->storage == NS_DENSE ? NULL : ns_dense_copy(p->M), *ray = NULL;
    if (!Mc && p->M->storage != NS_DENSE)
        return ns_fail(res->message, NS_NO_MEMORY, "lemke: out of memory");
    const double *M = Mc ? Mc : p->M->dense;
    ns_status st = ns_lemke_dense_ex(p->n, M, p->q, NULL, z, w, o, lcp_err, p, res, &ray);
    if (st == NS_NO_SOLUTION && ray) {
        for (ns_int i = 0; i < p->n; i++) if (ray[i] < 0) ray[i] = 0.0;
        set_cert(res, ray, p->n, "lemke secondary ray");
        ray = NULL;
    }
    free(Mc); free(ray);
    return st;
}
