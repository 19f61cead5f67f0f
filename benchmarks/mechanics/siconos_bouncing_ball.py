#!/usr/bin/python3
"""Bouncing ball (docs/mechanics.md, example 1) with Siconos 4.4's kernel:
same model as examples/bouncing_ball (q = (z, x, theta), M = diag(1, 1,
3/5 m R^2), y = z - R, Newton e = 0.9, Moreau-Jean theta = 0.5, h = 0.005,
LCP per step with Lemke). Prints 'steps seconds final_z' (seconds: TimeStepping.run(),
the C++ stepping loop). Run with the system Python (/usr/bin/python3): Debian's
python3-siconos installs into /usr/lib/python3/dist-packages."""
import sys
import time
import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
h, R, m, g, e, theta = 0.005, 0.1, 1.0, 9.81, 0.9, 0.5
T = steps * h
mass = np.eye(3)
mass[2, 2] = 0.6 * m * R * R
ball = sk.LagrangianLinearTIDS(np.array([1.0, 0.0, 0.0]), np.zeros(3), mass)
ball.setFExtPtr(np.array([-m * g, 0.0, 0.0]))
rel = sk.LagrangianLinearTIR(np.array([[1.0, 0.0, 0.0]]), np.array([-R]))
inter = sk.Interaction(sk.NewtonImpactNSL(e), rel)
nsds = sk.NonSmoothDynamicalSystem(0.0, T)
nsds.insertDynamicalSystem(ball)
nsds.link(inter, ball)
osi = sk.MoreauJeanOSI(theta)
lcp = sk.LCP(sn.SICONOS_LCP_LEMKE)
sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), osi, lcp)
t0 = time.perf_counter()
sim.run()            # the stepping loop in C++ (no Python per step)
secs = time.perf_counter() - t0
k = steps
print(k, "%.4f" % secs, "%.6f" % ball.q()[0])
