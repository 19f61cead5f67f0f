/* bowl_plugin.c — Siconos plugin of the bowl model (tools/siconos_refs/make_refs.py):
 * a ball of radius r = 0.1 inside a fixed circular bowl of radius R = 1 centred
 * at the origin, q = (x, y) the ball's centre. Rows: the normal gap
 * g(q) = (R − r) − |q| and a tangential row (its position is unused; only its
 * Jacobian, the tangent (−n_y, n_x), matters to the friction law).
 * Siconos' plugin signatures (LagrangianScleronomousR): h(nq, q, ny, y, nz, z)
 * and its Jacobian G (ny × nq, column-major). */
#include <math.h>

static const double R_BOWL = 1.0, R_BALL = 0.1;

void bowl_h(unsigned int nq, const double *q, unsigned int ny, double *y, unsigned int nz, double *z)
{
    (void)nq; (void)ny; (void)nz; (void)z;
    y[0] = (R_BOWL - R_BALL) - hypot(q[0], q[1]);
    y[1] = 0.0;
}

void bowl_G(unsigned int nq, const double *q, unsigned int ny, double *G, unsigned int nz, double *z)
{
    (void)nq; (void)ny; (void)nz; (void)z;
    double d = hypot(q[0], q[1]), nx = q[0] / d, nyy = q[1] / d;
    G[0] = -nx;  G[2] = -nyy;   /* row 0: ∇g = −n */
    G[1] = -nyy; G[3] = nx;     /* row 1: the tangent */
}
