#!/usr/bin/python3
"""Reference trajectories made with Debian's Siconos 4.4 (python3-siconos) for
tests/mechanics/test_siconos_compat.c, written to data/siconos_refs/.

    /usr/bin/python3 tools/siconos_refs/make_refs.py [OUTDIR]

Models (the test builds the same ones on our API):

bowl_ts_linear_44.ref   ball in a circular bowl (q-dependent contact Jacobian,
                        Newton impact e = 0.5 + Coulomb mu = 0.3, FrictionContact(2)),
                        Moreau-Jean theta = 1/2, h = 1e-3, 500 steps,
                        TimeStepping with SICONOS_TS_LINEAR as Siconos 4.4 runs it:
                        the relation's Jacobian is evaluated at the predictor
                        q_k + h v_k (MoreauJeanOSI::computeInitialNewtonState
                        moves q there before prepareNewtonIteration).
bowl_ts_linear_qk.ref   the same model, each step taken with the Jacobian at q_k:
                        Siconos 4.4's own step functions, called in the order of
                        the SICONOS_TS_LINEAR branch of TimeStepping::newtonSolve,
                        with q put back to q_k after initializeNewtonLoop(); this is
                        what TimeStepping's LINEAR option does in later Siconos
                        releases (no initial Newton state, Jacobians from the
                        outputs at the step start).
diode_bridge_theta05_gamma07.ref
                        the DiodeBridge tutorial's circuit with EulerMoreauOSI(theta
                        = 0.5, gamma = 0.7), h = 1e-6, 4999 steps; every 5th row.

Rows: 'rows cols' then %.17g rows. bowl: t, x, y, vx, vy, P_N, P_T, gap.
diode: t, v_C, i_L, y0, -lambda0, -lambda1, lambda2, y0 + lambda2.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, rows):
    with open(path, "w") as f:
        f.write("%d %d\n" % (len(rows), len(rows[0])))
        for r in rows:
            f.write(" ".join("%.17g" % v for v in r) + "\n")


def bowl(sk, plugin, mode):
    import numpy as np
    R, r, m, g = 1.0, 0.1, 1.0, 9.81
    q0 = np.array([0.5, -0.7])
    q0 *= (R - r) / np.hypot(*q0)
    ds = sk.LagrangianLinearTIDS(list(q0), [1.0, 0.3], np.eye(2) * m)
    ds.setFExtPtr(np.array([0.0, -m * g]))
    rel = sk.LagrangianScleronomousR(plugin + ":bowl_h", plugin + ":bowl_G")
    inter = sk.Interaction(sk.NewtonImpactFrictionNSL(0.5, 0.0, 0.3, 2), rel)
    nsds = sk.NonSmoothDynamicalSystem(0.0, 0.5)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    osnsp = sk.FrictionContact(2)
    osnsp.numericsSolverOptions().dparam[0] = 1e-14   # tolerance
    osnsp.numericsSolverOptions().iparam[0] = 100000  # iterations
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, 1e-3), sk.MoreauJeanOSI(0.5), osnsp)
    sim.setNewtonOptions(sk.SICONOS_TS_LINEAR)
    rows = []
    while sim.hasNextEvent():
        if mode == "qk":
            qk = ds.q().copy()
            sim.initialize()
            sim.resetLambdas()
            sim.initializeNewtonLoop()        # moves q to the predictor ...
            q = ds.q()
            q[:] = qk                         # ... which this mode undoes
            sim.prepareNewtonIteration()      # W and the Jacobians at q_k
            sim.computeFreeState()
            sim.computeOneStepNSProblem(sk.SICONOS_OSNSP_TS_VELOCITY)
            sim.update()                      # p = H(q_k)^T P, then q_{k+1}
            sim.saveYandLambdaInOldVariables()
        else:
            sim.computeOneStep()
        q, v, P, y = ds.q(), ds.velocity(), inter.lambda_(1), inter.y(0)
        rows.append([sim.nextTime(), q[0], q[1], v[0], v[1], P[0], P[1], y[0]])
        sim.nextStep()
    return rows


def diode_bridge(sk, theta, gamma):
    import numpy as np
    L, C, R, h, T = 1e-2, 1e-6, 1e3, 1e-6, 5e-3
    ds = sk.FirstOrderLinearDS([10.0, 0.0], np.array([[0.0, -1.0 / C], [1.0 / L, 0.0]]))
    Cm = np.zeros((4, 2)); Cm[2, 0] = -1.0; Cm[3, 0] = 1.0
    D = np.zeros((4, 4))
    D[0, 0] = D[0, 1] = D[1, 0] = D[1, 1] = 1.0 / R
    D[0, 2] = D[1, 3] = -1.0
    D[2, 0] = D[3, 1] = 1.0
    B = np.zeros((2, 4)); B[0, 2] = -1.0 / C; B[0, 3] = 1.0 / C
    rel = sk.FirstOrderLinearTIR(Cm, B)
    rel.setDPtr(D)
    inter = sk.Interaction(sk.ComplementarityConditionNSL(4), rel)
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(ds)
    nsds.link(inter, ds)
    lcp = sk.LCP()
    lcp.numericsSolverOptions().dparam[0] = 1e-14
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.EulerMoreauOSI(theta, gamma), lcp)
    rows = []
    for k in range(1, 5000):
        sim.computeOneStep()
        if k % 5 == 0:
            x, y, l = ds.x(), inter.y(0), inter.lambda_(0)
            rows.append([sim.nextTime(), x[0], x[1], y[0], -l[0], -l[1], l[2], y[0] + l[2]])
        sim.nextStep()
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "data", "siconos_refs")
    os.makedirs(out, exist_ok=True)
    import siconos.kernel as sk
    with tempfile.TemporaryDirectory() as tmp:
        # Siconos appends ".so" to the plugin's path (the part before ':')
        subprocess.check_call(["cc", "-O2", "-shared", "-fPIC", "-o", os.path.join(tmp, "bowl_plugin.so"),
                               os.path.join(HERE, "bowl_plugin.c"), "-lm"])
        plugin = os.path.join(tmp, "bowl_plugin")
        write(os.path.join(out, "bowl_ts_linear_44.ref"), bowl(sk, plugin, "44"))
        write(os.path.join(out, "bowl_ts_linear_qk.ref"), bowl(sk, plugin, "qk"))
    write(os.path.join(out, "diode_bridge_theta05_gamma07.ref"), diode_bridge(sk, 0.5, 0.7))
    print("written to", os.path.abspath(out))


if __name__ == "__main__":
    main()
