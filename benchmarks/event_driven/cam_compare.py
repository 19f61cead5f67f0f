#!/usr/bin/env python3
"""Cam follower: event-driven (--scheme ed) and time-stepping (--scheme ts,
h = 1e-4) trajectories on one plot; prints the largest difference in
follower position u over the common output times t = k*h.

usage: cam_compare.py BIN_DIR OUT_DIR [rpm ...]   (default rpm: 358 700)
Writes OUT_DIR/cam_<rpm>.svg and prints one table row per rpm."""
import os, subprocess, sys, time

def run(bindir, out, scheme, rpm, h, T):
    os.makedirs(out, exist_ok=True)
    t0 = time.perf_counter()
    subprocess.run([os.path.join(bindir, "cam_follower"), "--quiet", "--scheme", scheme, "--rpm", str(rpm),
                    "--h", str(h), "--T", str(T), "--out", out], check=True)
    secs = time.perf_counter() - t0
    rows = {}
    with open(os.path.join(out, "trajectory.csv")) as f:
        next(f)
        for line in f:
            v = [float(x) for x in line.split(",")]
            rows[round(v[0] / h)] = v
    return rows, secs

def svg(path, title, series, tmax):
    W, H, L, B = 900, 420, 60, 40
    ys = [y for _, pts, _ in series for _, y in pts]
    lo, hi = min(ys), max(ys)
    sx = lambda t: L + (W - L - 20) * t / tmax
    sy = lambda y: H - B - (H - B - 30) * (y - lo) / (hi - lo or 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}">',
           f'<text x="{W/2}" y="18" text-anchor="middle" font-size="14">{title}</text>',
           f'<rect x="{L}" y="30" width="{W-L-20}" height="{H-B-30}" fill="none" stroke="black"/>',
           f'<text x="{W/2}" y="{H-8}" text-anchor="middle" font-size="12">t [s]</text>']
    for k, (name, pts, color) in enumerate(series):
        d = " ".join(f"{sx(t):.2f},{sy(y):.2f}" for t, y in pts)
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1" points="{d}"/>')
        out.append(f'<text x="{L+10}" y="{48+16*k}" font-size="12" fill="{color}">{name}</text>')
    out.append(f'<text x="5" y="40" font-size="11">{hi:.3f}</text><text x="5" y="{H-B}" font-size="11">{lo:.3f}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out))

def main():
    bindir, outdir = sys.argv[1], sys.argv[2]
    rpms = [float(r) for r in sys.argv[3:]] or [358.0, 700.0]
    h, T = 1e-4, 5.0
    print("| rpm | max |u_ed - u_ts| | at t | mean |diff| | ED wall [s] | TS wall [s] |")
    print("|---|---|---|---|---|---|")
    for rpm in rpms:
        ed, sed = run(bindir, os.path.join(outdir, f"ed_{rpm:g}"), "ed", rpm, h, T)
        ts, sts = run(bindir, os.path.join(outdir, f"ts_{rpm:g}"), "ts", rpm, h, T)
        keys = sorted(set(ed) & set(ts))
        diffs = [(abs(ed[k][1] - ts[k][1]), ed[k][0]) for k in keys]
        worst = max(diffs)
        mean = sum(d for d, _ in diffs) / len(diffs)
        step = max(1, len(keys) // 4000)
        svg(os.path.join(outdir, f"cam_{rpm:g}.svg"),
            f"Cam follower {rpm:g} rpm: event-driven (CVODE) vs Moreau-Jean h = {h:g}",
            [("event-driven u", [(ed[k][0], ed[k][1]) for k in keys[::step]], "#d62728"),
             ("time-stepping u", [(ts[k][0], ts[k][1]) for k in keys[::step]], "#1f77b4"),
             ("cam c(t)", [(ts[k][0], ts[k][2]) for k in keys[::step]], "#7f7f7f")], T)
        print(f"| {rpm:g} | {worst[0]:.3e} | {worst[1]:.4f} | {mean:.3e} | {sed:.3f} | {sts:.3f} |")

if __name__ == "__main__":
    main()
