#!/usr/bin/env python3
"""table_summary.py — the FC3D robustness table from fc_siconos_bench TSVs.

usage: table_summary.py TABLE.tsv [MORE.tsv ...]

Rows of later files replace rows of earlier ones with the same (file,
solver), so a partial re-run (e.g. only the Newton-based solvers after a
change) can be laid over a full one. Prints markdown: one row per file, one
column per solver, cells "✓ ITER SECs" (converged) or "✗ ERROR" (with the
status when it is not max_iter), then the solved count per solver over the
files and as a percentage.
"""
import csv
import sys


def cell(r):
    if r["converged"] == "yes":
        return "✓ %s %.3gs" % (r["iterations"], float(r["seconds"]))
    err = r["error"]
    e = "%.0e" % float(err) if err not in ("-", "") and float(err) >= 0 else "?"
    st = r.get("status", "")
    tag = {"max_iter": "", "time_limit": " (60s)", "timeout": " (killed)"}.get(st, " (" + st + ")")
    return "✗ " + e + tag


def main(paths):
    rows, files, solvers, nc = {}, [], [], {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                k = (r["file"], r["solver"])
                rows[k] = r
                if r["file"] not in files:
                    files.append(r["file"])
                if r["solver"] not in solvers:
                    solvers.append(r["solver"])
                nc[r["file"]] = r["contacts"]
    files.sort(key=lambda f: (int(nc[f]) if nc[f].lstrip("-").isdigit() else 0, f))
    print("| file | nc | " + " | ".join(solvers) + " |")
    print("|---|---:|" + "---|" * len(solvers))
    for f in files:
        print("| %s | %s | %s |" % (f, nc[f], " | ".join(
            cell(rows[(f, s)]) if (f, s) in rows else "" for s in solvers)))
    print()
    print("| solver | solved | of | % |")
    print("|---|---:|---:|---:|")
    for s in solvers:
        ran = [rows[(f, s)] for f in files if (f, s) in rows]
        ok = sum(r["converged"] == "yes" for r in ran)
        print("| %s | %d | %d | %.0f |" % (s, ok, len(ran), 100.0 * ok / max(len(ran), 1)))
    unsolved = [f for f in files if not any(rows.get((f, s), {}).get("converged") == "yes"
                                            for s in solvers)]
    print()
    print("files no solver solves: " + (", ".join(unsolved) if unsolved else "none"))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
