/* peer_ode.c — the spheres_box scene (spheres_box --write-scene FILE)
 * simulated by ODE (Debian's libode-dev, double precision): dWorldQuickStep
 * (projected SOR on the velocity-level LCP, --iterations N sweeps, default
 * 100), collisions with dSpaceCollide in a hash space, one contact joint per
 * contact point, emptied after each step. The scene's h and step count.
 *
 * Scene: each sphere a body of mass m and inertia diag(I, I, I) with a
 * dSphere geom of radius R, the scene's initial velocity and spin; the
 * floor and the four walls are dPlane geoms (infinite planes, as in
 * spheres_box). Contacts: dContactApprox1 (friction pyramid with the
 * friction bound μ times the normal impulse, i.e. Coulomb's law on a
 * 4-sided pyramid), mu, restitution (bounce) e for approach speeds above
 * bounce_vel = 0.01 m/s (Bullet's restitution threshold scaled to 5 cm
 * spheres, the same as peer_bullet). World ERP and CFM: ODE's defaults
 * (0.2, 1e-10 in double precision); no auto-disable, no damping.
 *
 * Prints one "peer:" line (scene_file.h). */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <ode/ode.h>
#include "scene_file.h"
#include "peer_util.h"

typedef struct cbctx {
    dWorldID world;
    dJointGroupID group;
    double mu, e;
} cbctx;

static void near_cb(void *data, dGeomID o1, dGeomID o2)
{
    cbctx *c = data;
    dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (!b1 && !b2) return;   /* two walls */
    dContact ct[4];
    int k = dCollide(o1, o2, 4, &ct[0].geom, sizeof ct[0]);
    for (int i = 0; i < k; i++) {
        ct[i].surface.mode = dContactApprox1 | dContactBounce;
        ct[i].surface.mu = c->mu;
        ct[i].surface.bounce = c->e;
        ct[i].surface.bounce_vel = 0.01;
        dJointID j = dJointCreateContact(c->world, c->group, &ct[i]);
        dJointAttach(j, b1, b2);
    }
}

int main(int argc, char **argv)
{
    peer_args a = { NULL, 1500, 100, 0 };
    int rc = peer_parse(argc, argv, &a, "peer_ode");
    if (rc) return rc;
    char err[512];
    sbx_scene *s = sbx_scene_read(a.scene, err, sizeof err);
    if (!s) { fprintf(stderr, "peer_ode: %s\n", err); return 2; }
    if (a.iterations < 1) { fprintf(stderr, "peer_ode: --iterations must be >= 1\n"); sbx_scene_free(s); return 2; }
    long steps = a.steps > 0 ? a.steps : s->steps;
    dInitODE2(0);
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, s->g[0], s->g[1], s->g[2]);
    dWorldSetQuickStepNumIterations(world, (int)a.iterations);
    dSpaceID space = dHashSpaceCreate(0);
    dHashSpaceSetLevels(space, -5, 0);   /* cells 1/32 m to 1 m: the spheres are 8 to 10 cm wide */
    dJointGroupID group = dJointGroupCreate(0);
    dCreatePlane(space, 0, 0, 1, 0);
    dCreatePlane(space, 1, 0, 0, -s->ax);
    dCreatePlane(space, -1, 0, 0, -s->ax);
    dCreatePlane(space, 0, 1, 0, -s->ay);
    dCreatePlane(space, 0, -1, 0, -s->ay);
    dBodyID *body = malloc((size_t)s->n * sizeof *body);
    double *x = malloc((size_t)s->n * 3 * sizeof *x);
    if (!body || !x) { fprintf(stderr, "peer_ode: out of memory\n"); return 1; }
    for (int i = 0; i < s->n; i++) {
        dMass M;
        dMassSetParameters(&M, s->m[i], 0, 0, 0, s->I[i], s->I[i], s->I[i], 0, 0, 0);
        body[i] = dBodyCreate(world);
        dBodySetMass(body[i], &M);
        dBodySetPosition(body[i], s->x[3 * i], s->x[3 * i + 1], s->x[3 * i + 2]);
        dBodySetLinearVel(body[i], s->v[3 * i], s->v[3 * i + 1], s->v[3 * i + 2]);
        dBodySetAngularVel(body[i], s->w[3 * i], s->w[3 * i + 1], s->w[3 * i + 2]);
        dGeomID g = dCreateSphere(space, s->R[i]);
        dGeomSetBody(g, body[i]);
    }
    cbctx c = { world, group, s->mu, s->e };
    peer_clock clk = { a.settled_from, 0, 0.0, 0.0, 0.0 };
    for (long k = 0; k < steps; k++) {
        double t0 = peer_now(), c0 = peer_cpu();
        dSpaceCollide(space, &c, near_cb);
        dWorldQuickStep(world, s->h);
        dJointGroupEmpty(group);
        peer_clock_step(&clk, k, peer_now() - t0, peer_cpu() - c0);
    }
    double ke = 0.0;
    for (int i = 0; i < s->n; i++) {
        const dReal *p = dBodyGetPosition(body[i]), *v = dBodyGetLinearVel(body[i]), *w = dBodyGetAngularVel(body[i]);
        for (int t = 0; t < 3; t++) x[3 * i + t] = p[t];
        ke += 0.5 * s->m[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
              0.5 * s->I[i] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    sbx_overlap ov;
    char set[64];
    snprintf(set, sizeof set, "quickstep/it=%ld", a.iterations);
    if (sbx_overlaps(s->n, x, s->R, s->ax, s->ay, &ov) != 0) { fprintf(stderr, "peer_ode: out of memory\n"); return 1; }
    sbx_peer_line(stdout, "ode", set, s->n, steps, peer_settled_ms(&clk), peer_settled_cpu_ms(&clk), clk.total, &ov, ke);
    dJointGroupDestroy(group);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    free(body); free(x);
    sbx_scene_free(s);
    return 0;
}
