/* solvers.h — entry points of every registered solver (private; the public
 * way in is ns_solve with a name from the registry). Signatures follow the
 * per-kind typedefs of ns_solver.h. */
#ifndef NS_SOLVERS_H
#define NS_SOLVERS_H
#include "nonsmooth/ns_solver.h"

/* equality */
ns_status ns_equality_direct(const ns_equality *p, double *z, double *w,
                             const ns_options *o, ns_result *res);
/* lcp */
ns_status ns_lcp_pgs(const ns_lcp *p, double *z, double *w,
                     const ns_options *o, ns_result *res);
ns_status ns_lcp_psor(const ns_lcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res);
ns_status ns_lcp_lemke(const ns_lcp *p, double *z, double *w,
                       const ns_options *o, ns_result *res);
ns_status ns_lcp_enum(const ns_lcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res);
ns_status ns_lcp_newton_fb(const ns_lcp *p, double *z, double *w,
                           const ns_options *o, ns_result *res);
ns_status ns_lcp_newton_min(const ns_lcp *p, double *z, double *w,
                            const ns_options *o, ns_result *res);
ns_status ns_lcp_ppm(const ns_lcp *p, double *z, double *w,
                     const ns_options *o, ns_result *res);
ns_status ns_lcp_auto(const ns_lcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res);
/* mlcp */
ns_status ns_mlcp_auto(const ns_mlcp *p, double *z, double *w,
                       const ns_options *o, ns_result *res);
ns_status ns_mlcp_lemke(const ns_mlcp *p, double *z, double *w,
                        const ns_options *o, ns_result *res);
ns_status ns_mlcp_enum(const ns_mlcp *p, double *z, double *w,
                       const ns_options *o, ns_result *res);
ns_status ns_mlcp_pgs(const ns_mlcp *p, double *z, double *w,
                      const ns_options *o, ns_result *res);
ns_status ns_mlcp_newton_fb(const ns_mlcp *p, double *z, double *w,
                            const ns_options *o, ns_result *res);
/* relay */
ns_status ns_relay_lemke(const ns_relay *p, double *z, double *w,
                         const ns_options *o, ns_result *res);
ns_status ns_relay_enum(const ns_relay *p, double *z, double *w,
                        const ns_options *o, ns_result *res);
ns_status ns_relay_pgs(const ns_relay *p, double *z, double *w,
                       const ns_options *o, ns_result *res);
ns_status ns_relay_auto(const ns_relay *p, double *z, double *w,
                         const ns_options *o, ns_result *res);
ns_status ns_relay_ppm(const ns_relay *p, double *z, double *w,
                       const ns_options *o, ns_result *res);
ns_status ns_relay_newton_fb(const ns_relay *p, double *z, double *w,
                             const ns_options *o, ns_result *res);
/* avi */
ns_status ns_avi_lemke(const ns_avi *p, double *z, double *w,
                       const ns_options *o, ns_result *res);
ns_status ns_avi_auto(const ns_avi *p, double *z, double *w,
                      const ns_options *o, ns_result *res);
/* fc3d (numerics/fc; the nsgs and nsn entries also serve FC2D) */
ns_status ns_fc3d_nsgs(const ns_fc *p, double *r, double *u,
                       const ns_options *o, ns_result *res);
ns_status ns_fc3d_nsgs_ac(const ns_fc *p, double *r, double *u,
                          const ns_options *o, ns_result *res);
ns_status ns_fc3d_nsgs_fb(const ns_fc *p, double *r, double *u,
                          const ns_options *o, ns_result *res);
ns_status ns_fc3d_nsgs_nm(const ns_fc *p, double *r, double *u,
                          const ns_options *o, ns_result *res);
ns_status ns_fc3d_nsgs_proj(const ns_fc *p, double *r, double *u,
                            const ns_options *o, ns_result *res);
ns_status ns_fc3d_nsn_ac(const ns_fc *p, double *r, double *u,
                         const ns_options *o, ns_result *res);
ns_status ns_fc3d_nsn_fb(const ns_fc *p, double *r, double *u,
                         const ns_options *o, ns_result *res);
ns_status ns_fc3d_nsn_nm(const ns_fc *p, double *r, double *u,
                         const ns_options *o, ns_result *res);
/* nsn-ac with the Goldstein–Price line search instead of non-monotone Armijo */
ns_status ns_fc3d_nsn_ac_gp(const ns_fc *p, double *r, double *u,
                            const ns_options *o, ns_result *res);
ns_status ns_fc3d_auto(const ns_fc *p, double *r, double *u,
                       const ns_options *o, ns_result *res);
ns_status ns_fc3d_fpp(const ns_fc *p, double *r, double *u,
                      const ns_options *o, ns_result *res);
ns_status ns_fc3d_eg(const ns_fc *p, double *r, double *u,
                     const ns_options *o, ns_result *res);
ns_status ns_fc3d_prox(const ns_fc *p, double *r, double *u,
                       const ns_options *o, ns_result *res);
ns_status ns_fc3d_desaxce(const ns_fc *p, double *r, double *u,
                          const ns_options *o, ns_result *res);
ns_status ns_fc3d_tresca_fp(const ns_fc *p, double *r, double *u,
                            const ns_options *o, ns_result *res);
/* ADMM on the conic program with De Saxce's term (fc3d_admm.c; FC2D too) */
ns_status ns_fc3d_admm(const ns_fc *p, double *r, double *u,
                       const ns_options *o, ns_result *res);
ns_status ns_fc3d_ipm(const ns_fc *p, double *r, double *u,
                      const ns_options *o, ns_result *res);
ns_status ns_fc3d_ipm_fp(const ns_fc *p, double *r, double *u,
                         const ns_options *o, ns_result *res);
ns_status ns_fc2d_lemke(const ns_fc *p, double *r, double *u,
                        const ns_options *o, ns_result *res);
ns_status ns_fc2d_enum(const ns_fc *p, double *r, double *u,
                       const ns_options *o, ns_result *res);
/* gfc (numerics/gfc) */
ns_status ns_gfc_reduce(const ns_gfc *p, double *v, double *u, double *r,
                        const ns_options *o, ns_result *res);
ns_status ns_gfc_reduce_nsgs_ac(const ns_gfc *p, double *v, double *u, double *r,
                                const ns_options *o, ns_result *res);
ns_status ns_gfc_reduce_nsn_ac(const ns_gfc *p, double *v, double *u, double *r,
                               const ns_options *o, ns_result *res);
ns_status ns_gfc_nsn_ac(const ns_gfc *p, double *v, double *u, double *r,
                        const ns_options *o, ns_result *res);
/* ADMM on (M, H) without W (gfc_admm.c; GFC2D too) */
ns_status ns_gfc_admm(const ns_gfc *p, double *v, double *u, double *r,
                      const ns_options *o, ns_result *res);
ns_status ns_gfc_ipm(const ns_gfc *p, double *v, double *u, double *r,
                     const ns_options *o, ns_result *res);
/* nsn-ac, admm, nsn-ac, ipm in turn, W never formed (gfc_chain.c) */
ns_status ns_gfc_chain(const ns_gfc *p, double *v, double *u, double *r,
                       const ns_options *o, ns_result *res);
ns_status ns_gfc_ipm_fp(const ns_gfc *p, double *v, double *u, double *r,
                        const ns_options *o, ns_result *res);
/* gmp (numerics/gmp) */
ns_status ns_gmp_nsgs(const ns_gmp *p, double *z, double *w,
                      const ns_options *o, ns_result *res);
/* ncp (numerics/ncp), mcp (numerics/mcp) */
ns_status ns_ncp_newton_fb(const ns_ncp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_ncp_newton_min(const ns_ncp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_ncp_homotopy(const ns_ncp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_ncp_auto(const ns_ncp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_mcp_newton_fb(const ns_mcp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_mcp_newton_min(const ns_mcp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_mcp_homotopy(const ns_mcp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_mcp_auto(const ns_mcp *p, double *z, double *F,
                          const ns_options *o, ns_result *res);
/* vi (numerics/vi) */
ns_status ns_vi_fpp(const ns_vi *p, double *x, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_vi_eg(const ns_vi *p, double *x, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_vi_hp(const ns_vi *p, double *x, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_vi_newton_fb(const ns_vi *p, double *x, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_vi_newton_min(const ns_vi *p, double *x, double *F,
                          const ns_options *o, ns_result *res);
ns_status ns_vi_auto(const ns_vi *p, double *x, double *F,
                          const ns_options *o, ns_result *res);
/* cqp (numerics/cqp) */
ns_status ns_cqp_pg_bb(const ns_cqp *p, double *x, double *y, double *g,
                          const ns_options *o, ns_result *res);
ns_status ns_cqp_admm(const ns_cqp *p, double *x, double *y, double *g,
                          const ns_options *o, ns_result *res);
ns_status ns_cqp_auto(const ns_cqp *p, double *x, double *y, double *g,
                          const ns_options *o, ns_result *res);
/* soclcp (numerics/soclcp) */
ns_status ns_soclcp_nsgs(const ns_soclcp *p, double *r, double *v,
                          const ns_options *o, ns_result *res);
ns_status ns_soclcp_fpp(const ns_soclcp *p, double *r, double *v,
                          const ns_options *o, ns_result *res);
ns_status ns_soclcp_eg(const ns_soclcp *p, double *r, double *v,
                          const ns_options *o, ns_result *res);
ns_status ns_soclcp_auto(const ns_soclcp *p, double *r, double *v,
                          const ns_options *o, ns_result *res);
ns_status ns_soclcp_newton_fb(const ns_soclcp *p, double *r, double *v,
                              const ns_options *o, ns_result *res);
ns_status ns_soclcp_ipm(const ns_soclcp *p, double *r, double *v,
                        const ns_options *o, ns_result *res);
#endif
