#!/bin/bash
# nsbench_mpi_faults.sh BIN_DIR MPIEXEC — nsbench under MPI when something
# dies, each case on 24 problem files run by the test-slow pseudo-solver
# (0.25 s per run, NSBENCH_TEST_FAULTS=1) over 3 ranks, one run at a time
# each (about 2 s a campaign):
#   runner  kill -9 of rank 1's runner process: its tasks go to the other
#           ranks; exit 0 and every row once, converged, no --resume needed;
#   rank    kill -9 of rank 1 itself: mpirun ends the job; --resume then
#           completes the CSV: every row once, converged;
#   mpirun  kill -9 of mpirun: the same.
# After each kill, no process of the job may be left running (checked by
# pid). Rows are counted as (file, solver) keys: none lost, none twice.
set -u
BIN=$1/nsbench
MPI=$2
dir=$(mktemp -d /tmp/ns_mpi_faults_XXXXXX)
trap 'rm -rf "$dir"' EXIT
export NSBENCH_TEST_FAULTS=1 ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
MPIRUN=("$MPI" --allow-run-as-root --oversubscribe --mca btl_vader_single_copy_mechanism none -np 3)
N=24
for i in $(seq -w 1 $N); do printf '2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 -2\n' > "$dir/p$i.dat"; done
fail() { echo "FAIL ($case): $*"; exit 1; }

# pids of the job's nsbench processes: ranks (parent mpirun) and runners
job_pids() { pgrep -f -- "$BIN .*--out $dir/" ; }
rank_pid() {   # rank $1's own process (not its runner: the runner's parent is a rank)
    for p in $(job_pids); do
        tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1" || continue
        pp=$(awk '{print $4}' /proc/$p/stat 2>/dev/null)
        [ "$(cat /proc/$pp/comm 2>/dev/null)" = nsbench ] && continue
        echo $p; return
    done
}
runner_pid() { local r; r=$(rank_pid $1); [ -n "$r" ] && pgrep -P "$r" -x nsbench | head -1; }
rows() { [ -f "$1" ] && tail -n +2 "$1" | wc -l || echo 0; }
done_rows() { [ -f "$1" ] && awk -F, 'NR > 1 && $5 == "converged"' "$1" | wc -l || echo 0; }

check_csv() {   # every file once with test-slow, converged
    local csv=$1
    [ "$(rows "$csv")" -eq $N ] || fail "$(rows "$csv") rows, want $N"
    local keys
    keys=$(tail -n +2 "$csv" | awk -F, '{print $1 "," $4 "," $5}' | sort)
    [ "$(echo "$keys" | sort -u | wc -l)" -eq $N ] || fail "a row twice: $keys"
    for i in $(seq -w 1 $N); do
        echo "$keys" | grep -qx "$dir/p$i.dat,test-slow,converged" || fail "p$i.dat missing or not converged: $keys"
    done
}

wait_rows() {   # until the CSV has $2 rows (at most 30 s)
    for _ in $(seq 3000); do [ "$(rows "$1")" -ge "$2" ] && return 0; sleep 0.01; done
    fail "the CSV never reached $2 rows"
}

no_leftovers() {
    for _ in $(seq 500); do [ -z "$(job_pids)" ] && return 0; sleep 0.01; done
    fail "processes of the job left running: $(job_pids)"
}

# --- runner death: the lost tasks run elsewhere, no row lost -------------
case=runner
csv=$dir/runner.csv
"${MPIRUN[@]}" "$BIN" --quiet --min-time 0 --jobs 1 --solvers test-slow --out "$csv" "$dir" > "$dir/out1" 2>&1 &
mp=$!
for _ in $(seq 3000); do r=$(runner_pid 1); [ -n "$r" ] && break; sleep 0.01; done
[ -n "$r" ] || fail "no runner of rank 1 found"
wait_rows "$csv" 1
[ "$(rows "$csv")" -lt $((N - 3)) ] || fail "the job was nearly over before the kill"
kill -9 "$r" || fail "could not kill the runner $r"
wait $mp; rc=$?
[ $rc -eq 0 ] || { cat "$dir/out1"; fail "exit $rc"; }
check_csv "$csv"
no_leftovers

# --- rank death, then --resume -------------------------------------------
for case in rank mpirun; do
    csv=$dir/$case.csv
    "${MPIRUN[@]}" "$BIN" --quiet --min-time 0 --jobs 1 --solvers test-slow --out "$csv" "$dir" > "$dir/out2" 2>&1 &
    mp=$!
    wait_rows "$csv" 2
    [ "$(rows "$csv")" -lt $((N - 3)) ] || fail "the job was nearly over before the kill"
    if [ $case = rank ]; then
        r=$(rank_pid 1); [ -n "$r" ] || fail "no rank 1 found"
        kill -9 "$r" || fail "could not kill rank 1 ($r)"
    else
        kill -9 $mp || fail "could not kill mpirun"
    fi
    wait $mp
    no_leftovers
    before=$(done_rows "$csv")   # an interrupted rank 0 also writes "interrupted" rows
    [ "$before" -lt $N ] || fail "the job finished before the kill ($before rows)"
    "${MPIRUN[@]}" "$BIN" --quiet --min-time 0 --jobs 1 --solvers test-slow --out "$csv" --resume "$dir" > "$dir/out3" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { cat "$dir/out3"; fail "--resume exit $rc"; }
    check_csv "$csv"
    no_leftovers
done
echo "nsbench MPI faults: runner, rank and mpirun deaths, no row lost or doubled"
