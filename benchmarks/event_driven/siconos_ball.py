#!/usr/bin/python3
"""Bouncing ball of docs/mechanics.md with Siconos (Debian python3-siconos)
EventDriven + LsodarOSI. Prints one CSV line per impact: time,v_before,v_after
then a final line '# wall <seconds> final_z <z> final_v <v>'.
usage: siconos_ball.py [rtol atol [output_step [T [max_seconds]]]]  (run with /usr/bin/python3)
The loop stops after max_seconds of wall time (Siconos' LSODAR event-driven
scheme may stall at the accumulation point); the last line says so."""
import sys, time
import numpy as np
import siconos.kernel as sk

rtol = float(sys.argv[1]) if len(sys.argv) > 1 else 1e-12
atol = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-14
h = float(sys.argv[3]) if len(sys.argv) > 3 else 0.005
T = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
maxsec = float(sys.argv[5]) if len(sys.argv) > 5 else 60.0
R, m, g, z0, e = 0.1, 1.0, 9.81, 1.0, 0.9

mass = np.eye(3)
mass[2, 2] = 0.6 * m * R * R
ball = sk.LagrangianLinearTIDS([z0, 0, 0], [0, 0, 0], mass)
ball.setFExtPtr(np.array([-m * g, 0.0, 0.0]))
H = np.zeros((1, 3)); H[0, 0] = 1.0
rel = sk.LagrangianLinearTIR(H, [-R])
inter = sk.Interaction(sk.NewtonImpactNSL(e), rel)
nsds = sk.NonSmoothDynamicalSystem(0.0, T)
nsds.insertDynamicalSystem(ball)
nsds.link(inter, ball)
osi = sk.LsodarOSI()
osi.setTol(1, rtol, atol)
td = sk.TimeDiscretisation(0.0, h)
s = sk.EventDriven(nsds, td)
s.insertIntegrator(osi)
s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_IMPACT)
s.insertNonSmoothProblem(sk.LCP(), sk.SICONOS_OSNSP_ED_SMOOTH_ACC)
impacts = []
t0 = time.perf_counter()
s.initialize() if hasattr(s, "initialize") else None
stalled = False
while s.hasNextEvent():
    if time.perf_counter() - t0 > maxsec:
        stalled = True
        break
    s.advanceToEvent()
    vb = ball.velocity()[0]
    s.processEvents()
    va = ball.velocity()[0]
    if vb < 0 and va > 0 and vb < -1e-12:
        impacts.append((s.startingTime(), vb, va))
wall = time.perf_counter() - t0
for t, vb, va in impacts:
    print("%.17g,%.17g,%.17g" % (t, vb, va))
print("# wall %.6f final_t %.12g final_z %.12g final_v %.3g stalled %d" % (wall, s.startingTime(), ball.q()[0], ball.velocity()[0], stalled))
