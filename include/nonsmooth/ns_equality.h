/* ns_equality.h — linear system M z + q = 0. */
#ifndef NS_EQUALITY_H
#define NS_EQUALITY_H
#include "ns_matrix.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_equality {
    ns_int n;
    ns_matrix *M;      /* (n × n) owned */
    double *q;         /* (n) owned */
} ns_equality;

ns_equality *ns_equality_new(ns_matrix *M, const double *q);
ns_status ns_equality_validate(const ns_equality *p, char *err);
void ns_equality_free(ns_equality *p);

#ifdef __cplusplus
}
#endif
#endif
