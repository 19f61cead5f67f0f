/* quaternion.h — unit quaternions (scalar first, body → world) and the
 * 3-vector helpers of rigid bodies, shared by the Newton–Euler system and
 * the rigid-body relations. */
#ifndef NSM_QUATERNION_H
#define NSM_QUATERNION_H
#include <math.h>

/* R (3×3, column-major) of the unit quaternion p = (w, x, y, z). */
static inline void nsm_quat_matrix(const double *p, double *R)
{
    double w = p[0], x = p[1], y = p[2], z = p[3];
    R[0] = 1 - 2 * (y * y + z * z); R[3] = 2 * (x * y - w * z);     R[6] = 2 * (x * z + w * y);
    R[1] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[7] = 2 * (y * z - w * x);
    R[2] = 2 * (x * z - w * y);     R[5] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}

/* c = a ⊗ b */
static inline void nsm_quat_mul(const double *a, const double *b, double *c)
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    c[0] = w; c[1] = x; c[2] = y; c[3] = z;
}

static inline double nsm_dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline void nsm_cross3(const double *a, const double *b, double *c)
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    c[0] = x; c[1] = y; c[2] = z;
}

/* y = R x, y = Rᵀ x (R 3×3 column-major); y may not alias x */
static inline void nsm_mat3_vec(const double *R, const double *x, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = R[i] * x[0] + R[i + 3] * x[1] + R[i + 6] * x[2];
}
static inline void nsm_mat3t_vec(const double *R, const double *x, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
}
#endif
