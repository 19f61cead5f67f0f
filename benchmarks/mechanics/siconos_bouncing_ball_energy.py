#!/usr/bin/python3
"""Largest energy increase over one step of the bouncing ball (docs/mechanics.md,
example 1: e = 0.9, h = 0.005, Moreau-Jean theta = 1/2) with Siconos 4.4:
the same 1.57e-5 J at t = 8.085 s as examples/bouncing_ball, which equals the
bound (1 - e) m (g h)^2 / (8 (1 + e)) of docs/mechanics-api.md (energy).
Run: /usr/bin/python3 benchmarks/mechanics/siconos_bouncing_ball_energy.py"""
import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn
h, R, m, g, e = 0.005, 0.1, 1.0, 9.81, 0.9
mass = np.eye(3); mass[2, 2] = 0.6 * m * R * R
ball = sk.LagrangianLinearTIDS(np.array([1.0, 0, 0]), np.zeros(3), mass)
ball.setFExtPtr(np.array([-m * g, 0, 0]))
inter = sk.Interaction(sk.NewtonImpactNSL(e), sk.LagrangianLinearTIR(np.array([[1.0, 0, 0]]), np.array([-R])))
nsds = sk.NonSmoothDynamicalSystem(0.0, 10.0); nsds.insertDynamicalSystem(ball); nsds.link(inter, ball)
sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5), sk.LCP(sn.SICONOS_LCP_LEMKE))
Ep = 0.5 * m * 0 + m * g * 1.0; worst = 0; wt = 0; k = 0
while sim.hasNextEvent():
    sim.computeOneStep(); sim.nextStep(); k += 1
    q, v = ball.q(), ball.velocity()
    E = 0.5 * m * v[0] ** 2 + m * g * q[0]
    if E - Ep > worst: worst, wt = E - Ep, k * h
    Ep = E
print("siconos max energy increase per step %.3g J at t = %.4f" % (worst, wt))
