"""nonsmooth — Python interface of the nonsmooth C library (docs/python.md).

Problems (numerics):
    read(path, kind=None)                     a .dat or FCLIB .hdf5 file
    lcp(M, q), mlcp(M, q, n) / mlcp(A=..., B=..., C=..., D=..., a=..., b=...),
    relay(M, q, lb, ub), avi(M, q, H=, h= | lb=, ub=), equality(M, q),
    fc(W, q, mu, dim=3), gfc(M, H, q, b, mu, dim=3),
    gmp(M, q, types, blocks, mu=None, lb=, ub=),
    rfc(W, q, mu, mu_r, dim=5, mu_p=None), grfc(M, H, q, b, mu, mu_r)  from NumPy arrays or SciPy sparse
    ncp(F, n, jacobian=None) | ncp(M=, q=)       0 <= z _|_ F(z) >= 0, F a callable
    mcp(F, lb, ub, jacobian=None) | mcp(M=, q=, lb=, ub=)   box-constrained
    vi(F, lb, ub | project=, jacobian=None)      variational inequality over X
    cqp(M, q, lb=, ub= | cones=, mu= | project=, A=, b=)   convex QP
    soclcp(W, q, cones, mu)                      second-order cone LCP
    (NCP, MCP, VI, CQP, SOCLCP are the same constructors)
    Problem.write(path), Problem.data(), Problem.kind, Problem.size,
    Problem.solve(solver="auto", **options)

Solving:
    solve(problem, solver="auto", tol=1e-8, max_iter=0, ...) -> Result
        (status, converged, error, iterations, seconds, message, solution
        vectors as NumPy arrays: result.z, result.w, result.r, result.u, ...)
    solvers(kind=None) -> list of {name, kind, description, default, max_iter}

Mechanics (time-stepping and event-driven):
    Model(): add_lagrangian, add_lagrangian_nonlinear, add_first_order,
             add_first_order_nonlinear, add_law, add_interaction (linear H / C, B,
             or nonlinear h, jach, dhdt callbacks)
    Simulation(model, h=..., ...): step(), run(T) -> trajectory dict
    EventDriven(model, T=..., ...): run(until=None, observer=None) -> trajectory
             dict, step() -> event, events, stats (Lagrangian systems, Newton laws)

Errors: Error (base; .status), InputError (also ValueError), FileError (also
OSError), UnsupportedError (also NotImplementedError); MemoryError.
"""

try:
    from ._core import (  # noqa: F401
        Error, InputError, FileError, UnsupportedError,
        Problem, Result, Model, Simulation, EventDriven,
        read, solve, solvers,
        lcp, mlcp, relay, avi, equality, fc, gfc, gmp, rfc, grfc,
        ncp, mcp, vi, cqp, soclcp,
        version,
    )
except ImportError as exc:  # the usual cause: an interpreter without NumPy
    import sys as _sys
    if "numpy" in str(exc).lower():
        raise ImportError(
            f"nonsmooth needs NumPy, which {_sys.executable} cannot import; the package is "
            "built for Debian's /usr/bin/python3 (python3-numpy): run it with that interpreter"
        ) from exc
    raise

__version__ = version()

NCP, MCP, VI, CQP, SOCLCP = ncp, mcp, vi, cqp, soclcp

# ---- pickling (multiprocessing, joblib, dask): a Problem travels as its
# data (Problem.data(): the arrays themselves, SciPy sparse matrices as
# such) and is rebuilt by the constructor of its kind; a Result by its own
# __reduce__ (nonsmooth._core).
def _problem_from_data(kind, d):
    if kind == "lcp":
        return lcp(d["M"], d["q"])
    if kind == "equality":
        return equality(d["M"], d["q"])
    if kind == "relay":
        return relay(d["M"], d["q"], d["lb"], d["ub"])
    if kind == "mlcp":
        return mlcp(d["M"], d["q"], d["n"])
    if kind == "avi":
        return avi(d["M"], d["q"], **{k: d[k] for k in ("H", "h", "lb", "ub") if k in d})
    if kind in ("fc2d", "fc3d"):
        return fc(d["W"], d["q"], d["mu"], dim=d["dim"])
    if kind in ("gfc2d", "gfc3d"):
        return gfc(d["M"], d["H"], d["q"], d["b"], d["mu"], dim=d["dim"])
    if kind == "gmp":
        return gmp(d["M"], d["q"], d["types"], d["blocks"], d.get("mu"),
                   **{k: d[k] for k in ("lb", "ub") if k in d})
    raise ValueError(f"cannot rebuild a problem of kind {kind!r}")


def _reduce_problem(p):
    return _problem_from_data, (p.kind, p.data())


import copyreg as _copyreg  # noqa: E402

_copyreg.pickle(Problem, _reduce_problem)


# A Model travels as the calls that built it (Model._journal: method,
# arguments with their arrays copied, keywords, result) and is rebuilt by
# replaying them, so that a simulation of the copy runs bit for bit as one
# of the original. Callbacks go by reference (module-level functions and
# picklable callables); one pickle refuses is named in a TypeError.
def _model_from_journal(journal):
    m = Model()
    for name, args, kw, result in journal:
        r = getattr(m, name)(*args, **kw)
        if r != result:
            raise ValueError(f"Model replay: {name} returned {r!r}, the original {result!r}")
    return m


def _callables(x, where):
    if callable(x) and not hasattr(x, "tocsc"):
        yield where, x
    elif isinstance(x, (list, tuple)):
        for i, y in enumerate(x):
            yield from _callables(y, f"{where}[{i}]")
    elif isinstance(x, dict):
        for k, y in x.items():
            yield from _callables(y, f"{where}[{k!r}]")


def _reduce_model(m):
    import pickle
    journal = m._journal
    for name, args, kw, result in journal:
        found = list(_callables(list(args), "argument"))
        for k, v in kw.items():
            found += list(_callables(v, k))
        for where, fn in found:
            try:
                pickle.dumps(fn)
            except Exception as e:
                what = f"{name}(...) (id {result})" if result is not None else f"{name}(...)"
                raise TypeError(
                    f"Model cannot be pickled: callback {where}={fn!r} of {what} does not "
                    f"pickle ({type(e).__name__}: {e}); use a module-level function or a "
                    f"picklable callable object") from e
    return _model_from_journal, (journal,)


_copyreg.pickle(Model, _reduce_model)

__all__ = [
    "Error", "InputError", "FileError", "UnsupportedError",
    "Problem", "Result", "Model", "Simulation", "EventDriven",
    "read", "solve", "solvers",
    "lcp", "mlcp", "relay", "avi", "equality", "fc", "gfc", "gmp", "rfc", "grfc",
    "ncp", "mcp", "vi", "cqp", "soclcp", "NCP", "MCP", "VI", "CQP", "SOCLCP",
    "version",
]

# ---- rigid-body scenes with Bullet collision detection (nonsmooth.Scene:
# Scene(), Scene.read_hdf5(path) for a Siconos mechanics HDF5 scene, then
# primitive/convex/law/body/contactor/joint and run(T, h)); present when
# the library was built with Bullet (libbullet-dev).
try:
    from ._core import Scene  # noqa: F401,E402
except ImportError:
    pass
