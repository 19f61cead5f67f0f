"""Every ```python block of docs/python.md runs, in order, in one namespace
(the synopsis blocks use the names a short preamble defines below: a
1-dof ball, its matrices, a callback or two), so the calls, keywords and
defaults the page shows are the package's."""
import os
import pathlib
import re

import numpy as np
import pytest

import nonsmooth as ns
from conftest import SOURCE, _has_event_driven

DOC = SOURCE / "docs" / "python.md"


def _blocks():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _preamble(shared):
    g = {"np": np, "ns": ns}
    g.update(
        path=str(shared / "fc3d" / "Capsules-i100-889.dat"),
        M=np.eye(1), q0=[1.0], v0=[0.0], A=-np.eye(1), x0=[1.0],
        H=[[1.0]], b=[0.0], C=[[1.0]], B=[[1.0]], T=0.01, L=1.0,
        h=lambda t, Q: [Q[0]], jach=lambda t, Q: [[1.0]],
        M_of_q=np.eye(1), f=[0.0], dfdq=np.zeros((1, 1)), dfdv=np.zeros((1, 1)),
        fx=[0.0], J=np.zeros((1, 1)), t=0.005,
    )
    model = ns.Model()
    ball = model.add_lagrangian(np.eye(1), [1.0], [0.0], fext=[-9.81])
    model.add_interaction(model.add_law("newton", e=0.5), ball, H=[[1.0]])
    g["model"] = model
    return g


def test_docs_python_blocks_run(shared, tmp_path, monkeypatch):
    if not _has_event_driven():
        pytest.skip("the event-driven block needs SUNDIALS")
    monkeypatch.chdir(tmp_path)            # blocks write files (lcp.dat)
    base = _preamble(shared)
    g = dict(base)
    blocks = _blocks()
    assert len(blocks) >= 7
    for k, src in enumerate(blocks):
        src = src.replace("../shared/data/", str(shared) + "/")
        g.update(base)                      # the preamble's names, whatever a block before set
        if "mass=lambda q" in src:          # the nonlinear block: its own system sizes
            g["q0"], g["v0"] = [1.0], [0.0]
        if "ns.EventDriven(model" in src:   # ids of the preamble's model
            g.update(ds=0, i=0, sim=ns.Simulation(g["model"], h=1e-3))
        if "add_law(\"equality\"), p" in src:
            g["p"] = g["m"].add_lagrangian(np.eye(2), [1.0, 0.0], [0.0, 0.0])
        try:
            exec(compile(src, f"{DOC.name} block {k}", "exec"), g)
        except Exception as e:
            pytest.fail(f"docs/python.md python block {k} fails: {type(e).__name__}: {e}\n{src}")
