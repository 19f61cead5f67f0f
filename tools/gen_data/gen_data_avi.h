/* gen_data_avi.h — the AVI files of the collection (gen_data_avi.c). */
#ifndef NS_GEN_DATA_AVI_H
#define NS_GEN_DATA_AVI_H
#include "nonsmooth/nonsmooth.h"
#include <stdio.h>

/** Writes OUT/avi/avi_*.dat and one MANIFEST row each to man; seeds
 *  seeds are fixed (1001 + case), *seed is left alone; uniform(r, a, b) and rng_new(seed) (malloc'ed, freed
 *  here) are gen_data's generator. Adds to *files; 0, or -1 on failure
 *  (message on stderr). */
int gen_data_avi(const char *out, FILE *man, unsigned *seed,
                 double (*uniform)(void *, double, double), void *(*rng_new)(unsigned),
                 int *files);
#endif
