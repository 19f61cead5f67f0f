/* peer_bullet.cpp — the spheres_box scene (spheres_box --write-scene FILE)
 * simulated by Bullet (Debian's libbullet-dev, double precision build
 * bullet-float64): btDiscreteDynamicsWorld, btSequentialImpulseConstraintSolver
 * (projected Gauss–Seidel on velocity-level impulses, warm-started),
 * btDbvtBroadphase. One internal step of size h per step (stepSimulation
 * with maxSubSteps = 0), the scene's h and step count.
 *
 * Scene: each sphere a btSphereShape of radius R, mass m, inertia (I, I, I),
 * the scene's initial velocity and spin; the floor and the four walls are
 * btStaticPlaneShape (infinite planes, as in spheres_box). Contact law:
 * Bullet multiplies the two bodies' friction and restitution, so every
 * body (walls included) gets sqrt(mu) and sqrt(e). No sleeping
 * (DISABLE_DEACTIVATION), no damping, no rolling friction.
 *
 * Bullet's length-dependent defaults are tuned for objects of about 1 m;
 * our spheres have R ≤ 5 cm, so they are scaled by s = Rmax / 1 m (0.05
 * for every spheres_box scene): contact breaking
 * threshold 0.02 s, split-impulse penetration threshold −0.04 s, plane
 * margin 0.04 s, restitution velocity threshold 0.2 s m/s. Other solver
 * settings are Bullet's defaults (erp2 0.2, split impulse on, warm
 * starting 0.85). --iterations N: solver iterations (default 100).
 *
 * Prints one "peer:" line (scene_file.h). */
#include <btBulletDynamicsCommon.h>
#include <cmath>
#include <cstdio>
#include <vector>
#include "scene_file.h"
#include "peer_util.h"

int main(int argc, char **argv)
{
    peer_args a = { NULL, 1500, 100, 0 };
    int rc = peer_parse(argc, argv, &a, "peer_bullet");
    if (rc) return rc;
    char err[512];
    sbx_scene *s = sbx_scene_read(a.scene, err, sizeof err);
    if (!s) { fprintf(stderr, "peer_bullet: %s\n", err); return 2; }
    if (a.iterations < 1) { fprintf(stderr, "peer_bullet: --iterations must be >= 1\n"); sbx_scene_free(s); return 2; }
    long steps = a.steps > 0 ? a.steps : s->steps;
    double Rmax = 0.0;
    for (int i = 0; i < s->n; i++) Rmax = std::fmax(Rmax, s->R[i]);
    const double scale = Rmax / 1.0;   /* Bullet's defaults assume ~1 m objects */

    gContactBreakingThreshold = btScalar(0.02 * scale);
    btDefaultCollisionConfiguration conf;
    btCollisionDispatcher disp(&conf);
    btDbvtBroadphase broad;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&disp, &broad, &solver, &conf);
    world.setGravity(btVector3(s->g[0], s->g[1], s->g[2]));
    btContactSolverInfo &si = world.getSolverInfo();
    si.m_numIterations = (int)a.iterations;
    si.m_splitImpulsePenetrationThreshold = btScalar(-0.04 * scale);
    si.m_restitutionVelocityThreshold = btScalar(0.2 * scale);

    const btScalar fr = std::sqrt(s->mu), re = std::sqrt(s->e);
    /* floor z = 0 and walls x = ±ax, y = ±ay, normals into the box */
    const double planes[5][4] = { { 0, 0, 1, 0 }, { 1, 0, 0, -s->ax }, { -1, 0, 0, -s->ax },
                                  { 0, 1, 0, -s->ay }, { 0, -1, 0, -s->ay } };
    std::vector<btCollisionShape *> shapes;
    std::vector<btRigidBody *> bodies;
    for (const auto &p : planes) {
        btStaticPlaneShape *sh = new btStaticPlaneShape(btVector3(p[0], p[1], p[2]), p[3]);
        sh->setMargin(btScalar(0.04 * scale));
        btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, sh);
        ci.m_friction = fr; ci.m_restitution = re;
        btRigidBody *b = new btRigidBody(ci);
        world.addRigidBody(b);
        shapes.push_back(sh);
        bodies.push_back(b);
    }
    std::vector<btRigidBody *> spheres;
    for (int i = 0; i < s->n; i++) {
        btSphereShape *sh = new btSphereShape(s->R[i]);
        btRigidBody::btRigidBodyConstructionInfo ci(s->m[i], nullptr, sh, btVector3(s->I[i], s->I[i], s->I[i]));
        ci.m_startWorldTransform.setIdentity();
        ci.m_startWorldTransform.setOrigin(btVector3(s->x[3 * i], s->x[3 * i + 1], s->x[3 * i + 2]));
        ci.m_friction = fr; ci.m_restitution = re;
        btRigidBody *b = new btRigidBody(ci);
        b->setLinearVelocity(btVector3(s->v[3 * i], s->v[3 * i + 1], s->v[3 * i + 2]));
        b->setAngularVelocity(btVector3(s->w[3 * i], s->w[3 * i + 1], s->w[3 * i + 2]));
        b->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(b);
        shapes.push_back(sh);
        bodies.push_back(b);
        spheres.push_back(b);
    }

    peer_clock clk = { a.settled_from, 0, 0.0, 0.0, 0.0 };
    for (long k = 0; k < steps; k++) {
        double t0 = peer_now(), c0 = peer_cpu();
        world.stepSimulation(btScalar(s->h), 0);
        peer_clock_step(&clk, k, peer_now() - t0, peer_cpu() - c0);
    }

    std::vector<double> x(3 * (size_t)s->n);
    double ke = 0.0;
    for (int i = 0; i < s->n; i++) {
        const btRigidBody *b = spheres[(size_t)i];
        const btVector3 &p = b->getCenterOfMassPosition(), &v = b->getLinearVelocity(), &w = b->getAngularVelocity();
        for (int t = 0; t < 3; t++) x[3 * (size_t)i + t] = p[t];
        ke += 0.5 * s->m[i] * v.length2() + 0.5 * s->I[i] * w.length2();
    }
    sbx_overlap ov;
    char set[64];
    snprintf(set, sizeof set, "sequential-impulse/it=%ld", a.iterations);
    if (sbx_overlaps(s->n, x.data(), s->R, s->ax, s->ay, &ov) != 0) { fprintf(stderr, "peer_bullet: out of memory\n"); return 1; }
    sbx_peer_line(stdout, "bullet", set, s->n, steps, peer_settled_ms(&clk), peer_settled_cpu_ms(&clk), clk.total, &ov, ke);

    for (btRigidBody *b : bodies) { world.removeRigidBody(b); delete b; }
    for (btCollisionShape *sh : shapes) delete sh;
    sbx_scene_free(s);
    return 0;
}
