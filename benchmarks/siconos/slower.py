#!/usr/bin/env python3
"""Runs where Siconos' same-named solver beats ours, from the two CSVs of
siconos-compare.sh (nsbench.csv, siconos.csv: same columns).

    benchmarks/siconos/slower.py OUT_DIR [--factor 1.1]

A run counts when Siconos converged and either we did not, or we took more
than FACTOR times its time per solve (warm, repeated: the seconds column).
One line per such run, then the count; exit status 0."""
import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return {(r["file"], r["kind"], r["solver"]): r for r in csv.DictReader(f)}


def main():
    args = sys.argv[1:]
    factor = 1.1
    if "--factor" in args:
        i = args.index("--factor")
        factor = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = args[0]
    ours, theirs = load(out + "/nsbench.csv"), load(out + "/siconos.csv")
    rows = []
    for key, s in theirs.items():
        o = ours.get(key)
        if o is None or s["status"] != "converged":
            continue
        ts, to = float(s["seconds"] or "nan"), float(o["seconds"] or "nan")
        if o["status"] != "converged":
            rows.append((key, o["status"], to, ts, float("inf")))
        elif to > factor * ts:
            rows.append((key, "converged", to, ts, to / ts))
    rows.sort(key=lambda r: -r[4])
    print("%-58s %-6s %-10s %-10s %11s %11s %8s" % ("file", "kind", "solver", "ours", "ours s", "siconos s", "ratio"))
    for (f, k, sv), st, to, ts, ratio in rows:
        print("%-58s %-6s %-10s %-10s %11.3g %11.3g %8.3g" % (f[-58:], k, sv, st, to, ts, ratio))
    print("%d runs where Siconos converged and ours did not or took more than %.2fx its time "
          "(of %d runs both made)" % (len(rows), factor, sum(1 for k in theirs if k in ours)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
