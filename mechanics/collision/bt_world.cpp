// bt_world.cpp — Bullet's collision library behind the C interface of
// bt_world.h. A btCollisionWorld with a dynamic AABB tree broad phase,
// the default dispatcher with multipoint convex–convex and plane–convex
// manifolds (a face resting on a face gets its corner points in one step),
// shapes and their data owned here. No Bullet dynamics is used.
#include "bt_world.h"
#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <memory>
#include <new>
#include <vector>

// The dispatcher keeps points up to `threshold` apart (the largest contact
// margin of the laws): its near callback asks the convex–convex algorithms
// for points that close (Bullet's own asks sphere pairs for touching ones
// only) and its manifolds do not drop them (breaking threshold raised to it).
struct ns_dispatcher : public btCollisionDispatcher {
    double threshold = 0.0;
    explicit ns_dispatcher(btCollisionConfiguration *c) : btCollisionDispatcher(c) { setNearCallback(near); }
    btPersistentManifold *getNewManifold(const btCollisionObject *b0, const btCollisionObject *b1) override
    {
        btPersistentManifold *m = btCollisionDispatcher::getNewManifold(b0, b1);
        if (m && convex_pair(b0, b1) && m->getContactBreakingThreshold() < threshold) m->setContactBreakingThreshold(threshold);
        return m;
    }
    static bool convex_pair(const btCollisionObject *a, const btCollisionObject *b)
    {
        return a->getCollisionShape()->isConvex() && b->getCollisionShape()->isConvex();
    }
    static void near(btBroadphasePair &pair, btCollisionDispatcher &d, const btDispatcherInfo &info)
    {
        auto *o0 = static_cast<btCollisionObject *>(pair.m_pProxy0->m_clientObject);
        auto *o1 = static_cast<btCollisionObject *>(pair.m_pProxy1->m_clientObject);
        // concave shapes (mesh, heightfield, plane): Bullet's own path (their
        // closest-point algorithms do not fill the pair's manifold)
        if (!convex_pair(o0, o1)) { defaultNearCallback(pair, d, info); return; }
        if (!d.needsCollision(o0, o1)) return;
        btCollisionObjectWrapper w0(nullptr, o0->getCollisionShape(), o0, o0->getWorldTransform(), -1, -1);
        btCollisionObjectWrapper w1(nullptr, o1->getCollisionShape(), o1, o1->getWorldTransform(), -1, -1);
        if (!pair.m_algorithm) pair.m_algorithm = d.findAlgorithm(&w0, &w1, nullptr, BT_CONTACT_POINT_ALGORITHMS);
        if (!pair.m_algorithm) return;
        btManifoldResult r(&w0, &w1);
        r.m_closestPointDistanceThreshold = static_cast<ns_dispatcher &>(d).threshold;
        pair.m_algorithm->processCollision(&w0, &w1, info, &r);
    }
};

struct nsm_bt_world {
    btDefaultCollisionConfiguration config;
    ns_dispatcher dispatcher;
    btDbvtBroadphase broadphase;
    btCollisionWorld world;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btCollisionObject>> objects;
    std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshes;
    std::vector<std::vector<double>> vdata;   // vertex / height arrays Bullet points into
    std::vector<std::vector<int>> idata;
    nsm_bt_world() : dispatcher(&config), world(&dispatcher, &broadphase, &config)
    {
        config.setConvexConvexMultipointIterations();
        config.setPlaneConvexMultipointIterations();
    }
    ~nsm_bt_world()
    {
        for (auto &o : objects) world.removeCollisionObject(o.get());
    }
    int add(btCollisionShape *s)
    {
        if (!s) return -1;
        try { shapes.emplace_back(s); } catch (...) { delete s; return -1; }
        return (int)shapes.size() - 1;
    }
};

// Bullet's shapes have their own (throwing) operator new
template <class T, class... A> static int make(nsm_bt_world *w, A... a)
{
    try {
        return w->add(new T(a...));
    } catch (...) {
        return -1;
    }
}

extern "C" {

nsm_bt_world *nsm_bt_new(void) { return new (std::nothrow) nsm_bt_world(); }
void nsm_bt_free(nsm_bt_world *w) { delete w; }

int nsm_bt_sphere(nsm_bt_world *w, double r) { return make<btSphereShape>(w, (btScalar)r); }
int nsm_bt_box(nsm_bt_world *w, const double *h) { return make<btBoxShape>(w, btVector3(h[0], h[1], h[2])); }
int nsm_bt_capsule(nsm_bt_world *w, double r, double hl) { return make<btCapsuleShapeZ>(w, (btScalar)r, (btScalar)(2.0 * hl)); }
int nsm_bt_cylinder(nsm_bt_world *w, double r, double hl) { return make<btCylinderShapeZ>(w, btVector3(r, r, hl)); }
int nsm_bt_cone(nsm_bt_world *w, double r, double h) { return make<btConeShapeZ>(w, (btScalar)r, (btScalar)h); }
int nsm_bt_convex_hull(nsm_bt_world *w, int n, const double *p)
{
    btConvexHullShape *s;
    try {
        s = new btConvexHullShape();
    } catch (...) {
        return -1;
    }
    for (int i = 0; i < n; i++) s->addPoint(btVector3(p[3 * i], p[3 * i + 1], p[3 * i + 2]), i == n - 1);
    return w->add(s);
}
int nsm_bt_trimesh(nsm_bt_world *w, int nv, const double *v, int nt, const int *tri)
{
    try {
        w->vdata.emplace_back(v, v + 3 * (size_t)nv);
        w->idata.emplace_back(tri, tri + 3 * (size_t)nt);
        btIndexedMesh m;
        m.m_numTriangles = nt;
        m.m_triangleIndexBase = (const unsigned char *)w->idata.back().data();
        m.m_triangleIndexStride = 3 * sizeof(int);
        m.m_numVertices = nv;
        m.m_vertexBase = (const unsigned char *)w->vdata.back().data();
        m.m_vertexStride = 3 * sizeof(double);
        m.m_indexType = PHY_INTEGER;
        m.m_vertexType = PHY_DOUBLE;
        w->meshes.emplace_back(new btTriangleIndexVertexArray());
        w->meshes.back()->addIndexedMesh(m, PHY_INTEGER);
        return w->add(new btBvhTriangleMeshShape(w->meshes.back().get(), true));
    } catch (...) {
        return -1;
    }
}
int nsm_bt_plane(nsm_bt_world *w, const double *n, double d)
{
    return make<btStaticPlaneShape>(w, btVector3(n[0], n[1], n[2]), (btScalar)d);
}
int nsm_bt_heightfield(nsm_bt_world *w, int nx, int ny, const double *h, double dx, double dy)
{
    try {
        w->vdata.emplace_back(h, h + (size_t)nx * ny);
        double lo = h[0], hi = h[0];
        for (size_t i = 0; i < (size_t)nx * ny; i++) { lo = h[i] < lo ? h[i] : lo; hi = h[i] > hi ? h[i] : hi; }
        auto *s = new btHeightfieldTerrainShape(nx, ny, w->vdata.back().data(), lo, hi, 2, false);
        s->setLocalScaling(btVector3(dx, dy, 1.0));
        return w->add(s);
    } catch (...) {
        return -1;
    }
}
void nsm_bt_shape_margin(nsm_bt_world *w, int shape, double m) { w->shapes[shape]->setMargin(m); }
void nsm_bt_threshold(nsm_bt_world *w, double d)
{
    w->dispatcher.threshold = d;
    for (int i = 0; i < w->dispatcher.getNumManifolds(); i++) {
        btPersistentManifold *m = w->dispatcher.getManifoldByIndexInternal(i);
        if (ns_dispatcher::convex_pair(m->getBody0(), m->getBody1()) && m->getContactBreakingThreshold() < d)
            m->setContactBreakingThreshold(d);
    }
}

int nsm_bt_object(nsm_bt_world *w, int shape, int is_static)
{
    try {
        w->objects.emplace_back(new btCollisionObject());
    } catch (...) {
        return -1;
    }
    btCollisionObject *o = w->objects.back().get();
    o->setCollisionShape(w->shapes[shape].get());
    o->setUserIndex((int)w->objects.size() - 1);
    if (is_static) {
        o->setCollisionFlags(o->getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
        w->world.addCollisionObject(o, btBroadphaseProxy::StaticFilter,
                                    btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter);
    } else {
        w->world.addCollisionObject(o, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
    }
    return (int)w->objects.size() - 1;
}

void nsm_bt_pose(nsm_bt_world *w, int obj, const double *p, const double *q)
{
    btTransform T(btQuaternion(q[1], q[2], q[3], q[0]), btVector3(p[0], p[1], p[2]));
    w->objects[obj]->setWorldTransform(T);
}

int nsm_bt_detect(nsm_bt_world *w, nsm_bt_point_fn fn, void *ctx)
{
    w->world.updateAabbs();
    w->world.performDiscreteCollisionDetection();
    int nm = w->dispatcher.getNumManifolds();
    for (int i = 0; i < nm; i++) {
        btPersistentManifold *mf = w->dispatcher.getManifoldByIndexInternal(i);
        int a = mf->getBody0()->getUserIndex(), b = mf->getBody1()->getUserIndex();
        for (int k = 0; k < mf->getNumContacts(); k++) {
            btManifoldPoint &pt = mf->getContactPoint(k);
            const btVector3 &pa = pt.getPositionWorldOnA(), &pb = pt.getPositionWorldOnB(), &n = pt.m_normalWorldOnB;
            double PA[3] = { pa.x(), pa.y(), pa.z() }, PB[3] = { pb.x(), pb.y(), pb.z() }, N[3] = { n.x(), n.y(), n.z() };
            int rc = fn(ctx, a, b, PA, PB, N, pt.getDistance(), &pt.m_userPersistentData);
            if (rc) return rc;
        }
    }
    return 0;
}

}  // extern "C"
