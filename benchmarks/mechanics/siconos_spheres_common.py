"""Pieces shared by the Siconos side of the spheres benchmarks
(benchmarks/mechanics/siconos_spheres_box.py, benchmarks/scale/siconos_pile.py):
the contact Jacobian of a sphere against a wall or another sphere and the
bookkeeping of the live contacts (Siconos interactions linked and updated)."""
import numpy as np
import siconos.kernel as sk

# outward normals of the floor z = 0 and the walls x = -a, x = +a, y = -a, y = +a
WN = np.array([[0, 0, 1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], dtype=float)


def tangents(nv):
    a = np.array([0.0, 1.0, 0.0]) if abs(nv[0]) > 0.6 else np.array([1.0, 0.0, 0.0])
    t1 = a - a.dot(nv) * nv
    t1 /= np.linalg.norm(t1)
    return t1, np.cross(nv, t1)


def contact_H(nv, Rlo, Rhi, Q, gap, two):
    """H (3 x 6, or 3 x 12 for two spheres: normal, two tangents, with the
    omega x r terms) and e such that y = H Q + e = (gap, 0, 0)."""
    t1, t2 = tangents(nv)
    T = [nv, t1, t2]
    H = np.zeros((3, 12 if two else 6))
    o2 = 6 if two else 0
    for r in range(3):
        H[r, o2:o2 + 3] = T[r]
        if r:
            H[r, o2 + 3:o2 + 6] = -Rhi * np.cross(nv, T[r])
        if two:
            H[r, 0:3] = -T[r]
            if r:
                H[r, 3:6] = -Rlo * np.cross(nv, T[r])
    return H, np.array([gap, 0.0, 0.0]) - H.dot(Q)


def keep(contacts, sim, law, key, nv, gap, Q, Rlo, Rhi, two, dsl):
    """The contact key (i, j; j >= n for walls) is live this step: link a new
    interaction, or refresh the H and e of the existing one; marks it seen
    (contacts[key] = [interaction, relation, seen])."""
    H, b = contact_H(nv, Rlo, Rhi, Q, gap, two)
    c = contacts.get(key)
    if c is None:
        rel = sk.LagrangianLinearTIR(H, b)
        inter = sk.Interaction(law, rel)
        if two:
            sim.link(inter, dsl[0], dsl[1])
        else:
            sim.link(inter, dsl[0])
        contacts[key] = [inter, rel, True]
    else:
        c[1].setJachqPtr(H)
        c[1].setEPtr(b)
        c[2] = True
