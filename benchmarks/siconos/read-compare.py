#!/usr/bin/env python3
"""Our readers and Siconos' on the same files, side by side, in one run.

    benchmarks/siconos/read-compare.py [--min-time S] [--rounds R] [--cpu N|none]
                                       [--csv FILE] [PATH...]

Every problem file under the PATHs (default: data/ and ../shared/data, and
../shared/rolling-data when present) is read again and again, warm, by

  - ours, told the kind (build/bin/read_speed --kind KIND), the work
    Siconos' reader does;
  - ours detecting the kind from the content (what nsolve does by default);
  - Siconos 4.4's reader of that kind (build/bin/ns_siconos_driver --read;
    FCLIB .hdf5 files through libfclib, which Siconos' FCLIB interface
    calls and Debian's build lacks),

each until S seconds (default 0.2) of the reading thread's CPU time are
spent; the three are alternated R times (default 3) and each keeps its
least time per read (on a shared machine a time only grows). Printed: per
file the µs per read of each, Siconos' time over ours, our MB/s, the µs of
only opening and reading the bytes (read(2)); then the files where
Siconos' reader is faster than ours by more than 1.1×, the geometric mean
of the ratio, and the files ours reads below 200 MB/s. --csv FILE writes
the table. --cpu N runs every reader on CPU N (taskset; default: the last
CPU, as siconos-compare.sh: the CPUs of a shared VM differ in speed).
Needs the build with libsiconos-numerics-dev (NS_BUILD_DIR picks the
build directory).
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


PIN = []


def run_csv(cmd):
    out = subprocess.run(PIN + cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, env=dict(os.environ, OPENBLAS_NUM_THREADS="1")).stdout
    return list(csv.DictReader(out.splitlines()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--min-time", type=float, default=0.2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--csv", help="write the table to this CSV file")
    ap.add_argument("--cpu", default="auto", help="CPU to run on (default: the last), or none")
    a = ap.parse_args()
    if a.cpu != "none":
        cpu = str(max(os.sched_getaffinity(0))) if a.cpu == "auto" else a.cpu
        if shutil.which("taskset"):
            PIN[:] = ["taskset", "-c", cpu]
            print(f"every reader on CPU {cpu}", file=sys.stderr)
        elif a.cpu != "auto":
            sys.exit("read-compare: --cpu needs taskset (util-linux)")
    build = os.environ.get("NS_BUILD_DIR", os.path.join(ROOT, "build"))
    rs = os.path.join(build, "bin", "read_speed")
    drv = os.path.join(build, "bin", "ns_siconos_driver")
    for exe, why in ((rs, "run tools/setup.sh"),
                     (drv, "install libsiconos-numerics-dev and re-run tools/setup.sh")):
        if not os.access(exe, os.X_OK):
            sys.exit(f"read-compare: {exe} not built ({why})")
    paths = a.paths
    if not paths:
        paths = [os.path.join(ROOT, "data")]
        for d in ("data", "rolling-data"):
            p = os.path.join(ROOT, "..", "shared", d)
            if os.path.isdir(p):
                paths.append(p)
    mt = str(a.min_time)
    best = {}   # file -> dict of least times

    def keep(f, col, v):
        row = best.setdefault(f, {})
        if v is not None and (col not in row or v < row[col]):
            row[col] = v

    kinds = {}
    for r in range(a.rounds):
        print(f"round {r + 1}/{a.rounds}: ours (detecting)", file=sys.stderr)
        for row in run_csv([rs, "--csv", "--min-time", mt] + paths):
            f = row["file"]
            kinds[f] = row["kind"]
            best.setdefault(f, {})["bytes"] = int(row["bytes"])
            keep(f, "detect", float(row["us_per_read"]))
            keep(f, "raw", float(row["us_bytes"]))
        by_kind = {}
        for f, k in kinds.items():
            by_kind.setdefault(k, []).append(f)
        for k, files in sorted(by_kind.items()):
            print(f"round {r + 1}/{a.rounds}: {k}, {len(files)} files, ours and Siconos",
                  file=sys.stderr)
            for row in run_csv([rs, "--csv", "--kind", k, "--min-time", mt] + files):
                keep(row["file"], "ours", float(row["us_per_read"]))
            for row in run_csv([drv, "--read", "--kind", k, "--min-time", mt] + files):
                if row["status"] == "ok":
                    keep(row["file"], "siconos", float(row["us_per_read"]))
                else:
                    best[row["file"]]["siconos_status"] = row["status"]

    rows = []
    for f in sorted(best):
        b = best[f]
        if "ours" not in b:
            continue
        sic = b.get("siconos")
        ratio = sic / b["ours"] if sic else None
        mbs = b["bytes"] / b["ours"]   # bytes per µs = MB/s
        rows.append((f, kinds[f], b["bytes"], b["ours"], b["detect"], sic,
                     b.get("siconos_status", "ok"), ratio, mbs, b["raw"]))
    w = max([len(os.path.relpath(r[0])) for r in rows] + [4])
    print(f"{'file':<{w}} {'kind':>6} {'bytes':>9} {'ours µs':>9} {'detect':>9} "
          f"{'Siconos':>9} {'Sic/ours':>8} {'MB/s':>7} {'bytes µs':>8}")
    for f, k, n, ours, det, sic, sst, ratio, mbs, raw in rows:
        s = f"{sic:9.1f}" if sic else f"{sst:>9}"
        rt = f"{ratio:8.2f}" if ratio else f"{'-':>8}"
        print(f"{os.path.relpath(f):<{w}} {k:>6} {n:9d} {ours:9.1f} {det:9.1f} {s} {rt} "
              f"{mbs:7.1f} {raw:8.1f}")
    cmp = [r for r in rows if r[7]]
    slower = [r for r in cmp if r[7] < 1 / 1.1]
    gm = math.exp(sum(math.log(r[7]) for r in cmp) / len(cmp)) if cmp else float("nan")
    below = [r for r in rows if r[8] < 200]
    print(f"\n{len(rows)} files; Siconos read {len(cmp)} of them (the others: its reader "
          f"refused or crashed). Geometric mean of Siconos' time over ours: {gm:.2f}.")
    print(f"Siconos' reader faster than ours by more than 1.1x: {len(slower)} file(s)")
    for r in slower:
        print(f"  {os.path.relpath(r[0])}: ours {r[3]:.1f} µs, Siconos {r[5]:.1f} µs ({r[7]:.2f})")
    print(f"Ours below 200 MB/s: {len(below)} file(s)" + (":" if below else ""))
    for r in below:
        print(f"  {os.path.relpath(r[0])}: {r[2]} bytes, {r[8]:.0f} MB/s ({r[3]:.1f} µs; "
              f"the bytes alone {r[9]:.1f} µs)")
    if a.csv:
        with open(a.csv, "w", newline="") as fh:
            cw = csv.writer(fh)
            cw.writerow(["file", "kind", "bytes", "ours_us", "ours_detect_us", "siconos_us",
                         "siconos_status", "siconos_over_ours", "ours_mb_s", "bytes_only_us"])
            for r in rows:
                cw.writerow(r)


if __name__ == "__main__":
    main()
