/* io_dat.h — private entry points of the Siconos-style .dat readers and
 * writers (docs/formats.md §2–§3), shared by the io files. */
#ifndef NS_IO_DAT_H
#define NS_IO_DAT_H
#include <stdio.h>
#include "nonsmooth/ns_problem.h"
#include "io/io_lexer.h"

/** Reads one NumericsMatrix block (header + dense, SBM or sparse payload)
 *  at the lexer's position; field names the matrix in messages ("M", "H").
 *  *out: new matrix (caller frees) or NULL on failure. *nptr (may be NULL)
 *  receives the SBM row-pointer length (formats §2.3 field 6), or -1. */
ns_status ns_dat_read_matrix(ns_lexer *lx, const char *field, ns_matrix **out,
                             ns_int *nptr);

/** Reads a raw SBM payload (formats §2.5: no storage header). */
ns_status ns_dat_read_sbm_raw(ns_lexer *lx, const char *field, ns_matrix **out);

/** Writes A as a NumericsMatrix block (dense, SBM, SPARSE as CSC origin 2)
 *  with %.17g values. Refuses non-finite values (NS_BAD_INPUT). */
ns_status ns_dat_write_matrix(FILE *f, const ns_matrix *A, const char *field,
                              char *err);

/** Reads a problem of the given kind (not NS_KIND_NONE) in its .dat layout.
 *  *out: new problem or NULL. */
ns_status ns_dat_read_problem(ns_lexer *lx, ns_kind kind, ns_problem **out);

/* The layouts, one reader and one writer per kind row of the kind table
 * (problems/kind_ops.h): lcp, avi, equality and relay share one reader. */
ns_status ns_dat_read_lcp_like(ns_lexer *lx, ns_kind kind, ns_problem **out);
ns_status ns_dat_read_mlcp(ns_lexer *lx, ns_kind kind, ns_problem **out);
ns_status ns_dat_read_fc(ns_lexer *lx, ns_kind kind, ns_problem **out);
ns_status ns_dat_read_gfc(ns_lexer *lx, ns_kind kind, ns_problem **out);
/* n reals of field into a new array (*out; NULL on failure). */
ns_status ns_dat_read_vec(ns_lexer *lx, const char *field, ns_int n, double **out);
/* The head the global layouts share: d in [dmin, dmax], nc, M (square),
 * H (rows(M) × d·nc), q, b; all new (all NULL on failure). */
ns_status ns_dat_read_global_head(ns_lexer *lx, int dmin, int dmax, ns_int *d, ns_int *nc,
                                  ns_matrix **M, ns_matrix **H, double **q, double **b);
ns_status ns_dat_read_gmp(ns_lexer *lx, ns_kind kind, ns_problem **out);
ns_status ns_dat_read_rfc(ns_lexer *lx, ns_kind kind, ns_problem **out);
ns_status ns_dat_read_grfc(ns_lexer *lx, ns_kind kind, ns_problem **out);
ns_status ns_dat_write_lcp(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_equality(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_relay(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_avi(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_mlcp(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_fc(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_gfc(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_gmp(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_rfc(FILE *f, const ns_problem *p, char *err);
ns_status ns_dat_write_grfc(FILE *f, const ns_problem *p, char *err);

/** Writes p in its .dat layout. */
ns_status ns_dat_write_problem(FILE *f, const ns_problem *p, char *err);

/** Detects the kind of a .dat text by trying the layouts strictly; *out
 *  (may be NULL) receives the problem read. Fails with the message of the
 *  layout that got furthest. */
ns_status ns_dat_detect(const char *buf, size_t len, const char *name,
                        ns_kind *kind, ns_problem **out, char *err);

/** Writes n values with %.17g separated by sep, ending with a line feed
 *  (nothing at all when n = 0 and newline_if_empty = 0). */
void ns_dat_write_values(FILE *f, const double *x, size_t n, const char *sep);

#endif
