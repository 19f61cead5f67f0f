#!/usr/bin/env bash
# Sets up, builds and runs every test.  tools/test.sh [--sanitize]
# With --sanitize: AddressSanitizer + UndefinedBehaviorSanitizer build in
# build-asan/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/tools/setup.sh" "$@"
build=$here/build
for a in "$@"; do [ "$a" = --sanitize ] && build=$here/build-asan; done
build=${NS_BUILD_DIR:-$build}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure -j 2
# pytest's closing line (the Python suite runs inside ctest as python_pytest)
log=$build/Testing/Temporary/LastTest.log
if [ -f "$log" ] && grep -q "Testing: python_pytest" "$log"; then
  awk '/Testing: python_pytest$/ {on = 1} on && /"python_pytest" end time/ {on = 0} on' "$log" |
    grep -E "^=+ .*(passed|failed|error).* in [0-9.]+s" | tail -1 | sed 's/^/pytest: /'
fi
