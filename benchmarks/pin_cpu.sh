# pin_cpu.sh — sourced by the benchmark scripts that time programs against
# each other, so that all of them run on one CPU: the CPUs of a shared VM
# can differ steadily in speed (docs/nsbench.md, "Against Siconos").
#
#   pin_cpu SETTING NAME
#
# SETTING: auto (the last CPU, when taskset is there; else none), none, or
# a CPU number. Sets $cpu (the number, or none) and $pin (the command
# prefix, "taskset -c N", or empty: used unquoted). Returns 2, with a
# message naming NAME, when a CPU is asked for and taskset is missing.
pin_cpu() {
  cpu=$1
  pin=""
  if [ "$cpu" = auto ]; then
    if command -v taskset >/dev/null; then
      # nproc honours OMP_NUM_THREADS, which the scripts set to 1
      cpu=$(( $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) - 1 ))
    else
      cpu=none
    fi
  fi
  if [ "$cpu" = none ]; then return 0; fi
  command -v taskset >/dev/null || { echo "$2: CPU $cpu needs taskset (util-linux)" >&2; return 2; }
  pin="taskset -c $cpu"
}
