"""The worked examples of docs/python.md run and produce what they promise."""
import csv
import os
import pathlib
import subprocess
import sys

import nonsmooth
from conftest import needs_event_driven

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def run(script, *args, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(pathlib.Path(nonsmooth.__file__).resolve().parents[1])  # this package
    r = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_bouncing_ball_example(tmp_path):
    out = run("bouncing_ball.py", "--out", str(tmp_path), "--T", "3", cwd=tmp_path)
    assert "impact at t = 0.4350 s" in out            # sqrt(2 * 0.9 / g) = 0.4284, next step end
    rows = list(csv.DictReader(open(tmp_path / "trajectory.csv")))
    assert len(rows) == 601 and float(rows[0]["z"]) == 1.0
    energy = [float(r["energy"]) for r in rows]
    assert all(b <= a + 1e-9 for a, b in zip(energy, energy[1:]))
    assert (tmp_path / "bouncing_ball.svg").read_text().lstrip().startswith(("<svg", "<?xml"))


def test_read_solve_plot_example(tmp_path, shared):
    out = run("read_solve_plot.py", str(shared / "lcp" / "lcp_exp_murty.dat"), "--out", str(tmp_path),
              cwd=tmp_path)
    assert "lcp" in out and "converged" in out
    assert (tmp_path / "convergence.svg").exists()


@needs_event_driven
def test_bouncing_ball_ed_example(tmp_path):
    out = run("bouncing_ball_ed.py", "--out", str(tmp_path), "--T", "3", cwd=tmp_path)
    # t1 = sqrt(2 * 0.9 / g) exactly (the event-driven scheme locates the impact)
    assert "impact at t = 0.4283529369 s (exact 0.4283529369)" in out
    rows = list(csv.DictReader(open(tmp_path / "trajectory_ed.csv")))
    kinds = [r["event"] for r in rows]
    assert kinds[0] == "start" and kinds.count("time") == 600 and kinds.count("nonsmooth") == 4
    # energy constant between impacts, lower after each
    energy = [float(r["energy"]) for r in rows]
    assert all(abs(b - a) < 1e-8 or k == "nonsmooth" for a, b, k in zip(energy, energy[1:], kinds[1:]))
    assert energy[-1] < energy[0]
    assert (tmp_path / "bouncing_ball_ed.svg").read_text().lstrip().startswith(("<svg", "<?xml"))


def test_spheres_box_example(tmp_path):
    # 60 spheres for 400 steps: they fall, land and pile; contacts come and go
    out = run("spheres_box.py", "--n", "60", "--steps", "400", "--profile", "100", cwd=tmp_path)
    first = out.splitlines()[0]
    nums = dict(k.split("=") for k in out.splitlines()[1].split()[1:])
    assert int(nums["contacts"]) > 60                   # every sphere rests on something
    added, removed = (int(w) for w in first.split(" added / ")[0].split()[-1:] +
                      first.split(" added / ")[1].split()[:1])
    assert added > int(nums["contacts"]) and removed > 0
    pen = float(first.split("max penetration ")[1].split()[0])
    assert pen < 0.1 * 0.8 * 0.05                       # below 10% of the smallest radius
    assert first.endswith("0 outside the box")
