/* mlcp_auto.c — the default MLCP solver: a fixed chain of exact methods,
 *   1. lemke on the Schur complement (needs M_EE invertible),
 *   2. newton-fb from the same starting point (no invertibility needed),
 *   3. enum (warm active set first; all sets when m ≤ 30),
 * stopping at the first that reaches tol; otherwise
 *   4. the Farkas search on the mixed feasibility system (solve_certificate.c):
 *      a checked certificate gives no_solution;
 * else the iterate with the smallest MLCP error is returned with status
 * failed (or max_iter / time_limit) and the reason. */
#include "solve/solvers.h"
#include "core/ns_internal.h"
#include "solve/certificate.h"
#include "nonsmooth/ns_residual.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ns_status ns_mlcp_auto(const ns_mlcp *p, double *z, double *w,
                       const ns_options *o, ns_result *res)
{
    static const ns_mlcp_solver chain[3] = { ns_mlcp_lemke, ns_mlcp_newton_fb,
                                             ns_mlcp_enum };
    static const int iters[3] = { 1000000, 100, 1073741824 };
    size_t N = (size_t)(p->n + p->m);
    /* step 1 first, with nothing else set up: the common case costs what
     * lemke costs (lemke's error is ns_mlcp_error of the z and w it
     * returns). Without a warm start the driver zeroed z: the start of the
     * later steps too. */
    double *z0 = o->warm_start ? ns_dup(z, N) : NULL;
    if (o->warm_start && !z0) return ns_fail(res->message, NS_NO_MEMORY, "mlcp auto: out of memory");
    ns_status st0 = ns_mlcp_lemke(p, z, w, o, res);
    snprintf(res->method, sizeof res->method, "lemke");
    if (st0 == NS_CONVERGED && res->error <= o->tol) { free(z0); return st0; }
    ns_result r0 = *res;
    res->message[0] = '\0';
    if (!z0 && !(z0 = ns_calloc(N + 1, sizeof(double))))
        return ns_fail(res->message, NS_NO_MEMORY, "mlcp auto: out of memory");
    double *zb = ns_malloc(N + 1, sizeof(double));
    if (!zb) {
        free(z0);
        return ns_fail(res->message, NS_NO_MEMORY, "mlcp auto: out of memory");
    }
    ns_status best_st = NS_MAX_ITER;
    int best_k = 0;
    double best = INFINITY;
    ns_result best_res;
    ns_result_init(&best_res);
    int total_it = 0;
    for (int k = 0; k < 3; k++) {
        ns_options ok = *o;
        if (o->max_iter == iters[0] || k > 0) ok.max_iter = iters[k];
        ns_result r;
        ns_status st;
        if (k == 0) {   /* done above: its outcome (z, w still hold it) */
            r = r0;
            st = st0;
        } else {
            ns_result_init(&r);
            memcpy(z, z0, N * sizeof(double));
            st = chain[k](p, z, w, &ok, &r);
        }
        total_it += r.iterations;
        double e = ns_mlcp_error(p, z, w);
        if (e < best || (st == NS_NO_SOLUTION && k == 2)) {
            best = e; best_st = st; best_res = r;
            best_k = k;
            memcpy(zb, z, N * sizeof(double));
        }
        if (st == NS_CONVERGED && e <= o->tol) break;
        if (st == NS_INTERRUPTED || ns_cancelled(o)) { best_st = NS_INTERRUPTED; break; }
    }
    memcpy(z, zb, N * sizeof(double));
    static const char *const names[3] = { "lemke", "newton-fb", "enum" };
    snprintf(res->method, sizeof res->method, "%s", names[best_k]);
    res->error = ns_mlcp_error(p, z, w);
    res->iterations = total_it;
    memcpy(res->message, best_res.message, sizeof res->message);
    if (best_st != NS_INTERRUPTED && !(best_st == NS_CONVERGED && best <= o->tol)) {
        ns_problem pp = { .kind = NS_KIND_MLCP, .u.mlcp = (ns_mlcp *)p };
        char why[NS_ERRMSG_LEN] = "";
        ns_status cs = ns_certificate_search(&pp, &res->cert, o, why);
        if (cs == NS_OK) {
            snprintf(res->cert.source, sizeof res->cert.source, "mlcp auto: farkas search");
            snprintf(res->method, sizeof res->method, "farkas search");
            best_st = ns_fail(res->message, NS_NO_SOLUTION,
                              "auto: infeasible, Farkas certificate checked");
        } else {
            free(res->cert.y);
            memset(&res->cert, 0, sizeof res->cert);
            if (best_st == NS_NO_SOLUTION || best_st == NS_SINGULAR || best_st == NS_CONVERGED)
                best_st = ns_fail(res->message, NS_FAILED, "auto: best error %.3g above tol and "
                                  "no certificate of infeasibility (%.200s)", best, why);
        }
    }
    free(z0); free(zb);
    return best_st;
}
