/* nsx_cells.h — broad-phase proximity search for spheres: a uniform grid
 * (cell lists) that finds every pair of spheres closer than a margin in
 * O(n) time for a bounded radius spread.
 *
 *   nsx_cells *g = nsx_cells_new();
 *   each step:
 *     const int *pairs; long np = nsx_cells_pairs(g, n, pos, R, margin, &pairs);
 *     for (long k = 0; k < np; k++) { int i = pairs[2k], j = pairs[2k+1]; ... }
 *   nsx_cells_free(g);
 *
 * The grid's cells have side 2 Rmax + margin (Rmax: the largest radius), over
 * the bounding box of the centres, so every pair within reach lies in the
 * same or in adjacent cells; each cell is compared with itself and its 13
 * "forward" neighbours, so each pair is met once. A counting sort puts the
 * spheres in cell order (O(n + cells)); the cell count is capped at
 * 2n + 64 (the side grows when the spheres spread far), so memory stays
 * linear in n. All buffers are kept and reused from call to call: once they
 * have grown to the scene's size, a call allocates nothing.
 *
 * Independent of the nonsmooth libraries (plain C11 + libm): a granular
 * user can copy or link it as is. Not thread-safe per object; distinct
 * objects are independent. */
#ifndef NSX_CELLS_H
#define NSX_CELLS_H
#include <stddef.h>

typedef struct nsx_cells nsx_cells;

/** Empty grid; NULL on allocation failure. */
nsx_cells *nsx_cells_new(void);
/** Frees g and its buffers (NULL allowed). */
void nsx_cells_free(nsx_cells *g);

/** Pairs (i, j), i < j, of the n spheres (centre pos[i][0..2], radius R[i])
 *  with |x_i − x_j| < R_i + R_j + margin (margin ≥ 0). *pairs receives 2 ×
 *  count indices (i0, j0, i1, j1, ...), owned by g and valid until the
 *  next call; the order is deterministic (grid order). Returns the count,
 *  or −1 on allocation failure or bad input (n < 0, a NaN centre). *tests,
 *  if not NULL, receives the number of distances computed. */
long nsx_cells_pairs(nsx_cells *g, int n, const double *const *pos,
                     const double *R, double margin, const int **pairs,
                     long *tests);

/** Bytes held by g's buffers (for memory reports). */
size_t nsx_cells_bytes(const nsx_cells *g);

#endif
