/* gfc_delassus.h — the reduction of a global contact problem (M, H, q, b)
 * to its local one, shared by the global friction and global rolling
 * kinds. Internal. */
#ifndef NS_GFC_DELASSUS_H
#define NS_GFC_DELASSUS_H
#include "nonsmooth/ns_factor.h"
#include "nonsmooth/ns_matrix.h"

/** W = Hᵀ M⁻¹ H in BLOCK storage of d×d blocks (*Wb, new) and
 *  qt = b + Hᵀ M⁻¹ q (length m), with F the factor of M (n×n) and Hs the
 *  n×m matrix H in CSC storage, m = d·nc > 0. W is formed 64 columns at a
 *  time (M⁻¹ H_J dense, then Hᵀ·). On failure *Wb is NULL and msg says
 *  why, prefixed by who. */
ns_status ns_delassus_block(ns_factor *F, const ns_matrix *Hs, ns_int n, ns_int m, int d,
                            const double *q, const double *b, ns_matrix **Wb, double *qt,
                            const char *who, char *msg);

#endif
