#!/usr/bin/env python3
"""Runs where Siconos' same-named solver beats ours, from the two CSVs of
siconos-compare.sh (nsbench.csv, siconos.csv: same columns).

    benchmarks/siconos/slower.py OUT_DIR [OUT_DIR...] [--factor 1.1]

With several OUT_DIRs (repeated runs of siconos-compare.sh on the same
files), each side's time of a run is its least over the directories (on a
loaded machine a time only grows) and a side counts as converged when it
converged in every directory. A run counts when Siconos converged and
either we did not, or we took more than FACTOR times its time per solve
(warm, repeated: the seconds column). One line per such run, then the
count, then per kind: runs, such runs, and the geometric mean of Siconos'
time / ours over the runs both converged. Exit status 0."""
import csv
import math
import sys


def load(path):
    with open(path, newline="") as f:
        return {(r["file"], r["kind"], r["solver"]): r for r in csv.DictReader(f)}


def best(tables, key):
    """(converged in every table, least converged time or nan)"""
    rows = [t[key] for t in tables if key in t]
    conv = bool(rows) and all(r["status"] == "converged" for r in rows)
    times = [float(r["seconds"]) for r in rows if r["status"] == "converged" and r["seconds"]]
    status = rows[0]["status"] if rows else "missing"
    if rows and not conv:
        status = next(r["status"] for r in rows if r["status"] != "converged")
    return conv, status, (min(times) if times else float("nan"))


def main():
    args = sys.argv[1:]
    factor = 1.1
    if "--factor" in args:
        i = args.index("--factor")
        factor = float(args[i + 1])
        del args[i:i + 2]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    ours = [load(d + "/nsbench.csv") for d in args]
    theirs = [load(d + "/siconos.csv") for d in args]
    rows, kinds, both = [], {}, 0
    for key in theirs[0]:
        if key not in ours[0]:
            continue
        both += 1
        k = kinds.setdefault(key[1], [0, 0, []])
        k[0] += 1
        sconv, _, ts = best(theirs, key)
        oconv, ostatus, to = best(ours, key)
        if not sconv:
            continue
        if oconv and to > 0 and ts > 0:
            k[2].append(math.log(ts / to))
        if not oconv:
            rows.append((key, ostatus, to, ts, float("inf")))
        elif to > factor * ts:
            rows.append((key, "converged", to, ts, to / ts))
        else:
            continue
        k[1] += 1
    rows.sort(key=lambda r: -r[4])
    print("%-58s %-6s %-10s %-10s %11s %11s %8s" % ("file", "kind", "solver", "ours", "ours s", "siconos s", "ratio"))
    for (f, k, sv), st, to, ts, ratio in rows:
        print("%-58s %-6s %-10s %-10s %11.3g %11.3g %8.3g" % (f[-58:], k, sv, st, to, ts, ratio))
    print("%d runs where Siconos converged and ours did not or took more than %.2fx its time "
          "(of %d runs both made)" % (len(rows), factor, both))
    print("%-6s %5s %7s %s" % ("kind", "runs", "slower", "geomean siconos/ours (runs)"))
    for name in sorted(kinds):
        n, s, logs = kinds[name]
        g = math.exp(sum(logs) / len(logs)) if logs else float("nan")
        print("%-6s %5d %7d %.2f (%d)" % (name, n, s, g, len(logs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
