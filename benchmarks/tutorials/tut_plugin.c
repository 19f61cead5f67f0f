/* tut_plugin.c — the double pendulum's functions in the calling convention
 * of Siconos' plugins (column-major matrices, trailing z arguments), for
 * siconos_tutorials.cpp: the same model as examples/tutorials/double_pendulum.c
 * (m1 = m2 = l1 = l2 = 1, g = 10, the program's scaled equations and
 * Jacobians). */
#include <math.h>

#define M1 1.0
#define M2 1.0
#define L1 1.0
#define L2 1.0
#define G 10.0

void dp_mass(unsigned n, const double *q, double *M, unsigned nz, double *z)
{
    double c = cos(q[0] - q[1]);
    M[0] = (M1 + M2) * L1; M[1] = M2 * L1 * c; M[2] = M2 * L2 * c; M[3] = M2 * L2;
}
void dp_fgyr(unsigned n, const double *q, const double *v, double *f, unsigned nz, double *z)
{
    double s = sin(q[0] - q[1]);
    f[0] = M2 * L2 * v[1] * v[1] * s;
    f[1] = -M2 * L1 * v[0] * v[0] * s;
}
void dp_jfgyrq(unsigned n, const double *q, const double *v, double *J, unsigned nz, double *z)
{
    double c = cos(q[0] - q[1]);
    J[0] = M2 * L2 * v[1] * v[0] * c; J[1] = -M2 * L1 * v[0] * v[0] * c;
    J[2] = -M2 * L2 * v[1] * v[1] * c; J[3] = M2 * L1 * v[0] * v[0] * c;
}
void dp_jfgyrv(unsigned n, const double *q, const double *v, double *J, unsigned nz, double *z)
{
    double s = sin(q[0] - q[1]);
    J[0] = 0; J[1] = -2.0 * M2 * L1 * v[0] * s; J[2] = 2.0 * M2 * L2 * v[1] * s; J[3] = 0;
}
void dp_fint(double t, unsigned n, const double *q, const double *v, double *f, unsigned nz, double *z)
{
    f[0] = sin(q[0]) * G * (M1 + M2);
    f[1] = sin(q[1]) * G * M2;
}
void dp_jfintq(double t, unsigned n, const double *q, const double *v, double *J, unsigned nz, double *z)
{
    J[0] = cos(q[0]) * G * (M1 + M2); J[1] = 0; J[2] = 0; J[3] = cos(q[1]) * G * M2;
}
void dp_jfintv(double t, unsigned n, const double *q, const double *v, double *J, unsigned nz, double *z)
{
    J[0] = J[1] = J[2] = J[3] = 0;
}
void dp_h0(unsigned n, const double *q, unsigned m, double *y, unsigned nz, double *z) { y[0] = L1 * sin(q[0]); }
void dp_g0(unsigned n, const double *q, unsigned m, double *H, unsigned nz, double *z) { H[0] = L1 * cos(q[0]); H[1] = 0; }
void dp_h1(unsigned n, const double *q, unsigned m, double *y, unsigned nz, double *z)
{
    y[0] = L1 * sin(q[0]) + L2 * sin(q[1]);
}
void dp_g1(unsigned n, const double *q, unsigned m, double *H, unsigned nz, double *z)
{
    H[0] = L1 * cos(q[0]);
    H[1] = L2 * cos(q[1]);
}
