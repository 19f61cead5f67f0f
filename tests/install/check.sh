#!/usr/bin/env bash
# Installs nonsmooth into a temporary prefix and builds two outside users of
# it: one with CMake's find_package(nonsmooth), one with pkg-config.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake -S "$top" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DNS_BUILD_TESTS=OFF \
      -DCMAKE_INSTALL_PREFIX="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" -j 2 >/dev/null
cmake --install "$tmp/build" >/dev/null
cmake -S "$here" -B "$tmp/user" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/user" >/dev/null
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib/x86_64-linux-gnu" "$tmp/user/use_nonsmooth"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig"
cc -std=c11 "$here/use_nonsmooth.c" -o "$tmp/use_pc" $(pkg-config --cflags --libs nonsmooth) -lm
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib/x86_64-linux-gnu" "$tmp/use_pc"
# the Python package, when built: importable from the prefix alone (RPATH to lib)
pydir=$(find "$tmp/prefix" -type d -path "*dist-packages/nonsmooth" 2>/dev/null | head -1)
if [ -n "$pydir" ]; then
  (cd "$tmp" && PYTHONPATH=$(dirname "$pydir") /usr/bin/python3 -c 'import nonsmooth as ns
r = ns.solve(ns.lcp([[2.0, 1.0], [1.0, 2.0]], [-1.0, -1.0]))
assert r.converged and abs(r.z[0] - 1 / 3) < 1e-12, r
print("install check: python package imported from", ns.__file__)')
elif [ "${NS_PYTHON:-}" = ON ]; then
  echo "install check: NS_PYTHON=ON but no python package was installed" >&2; exit 1
fi
echo "install check: find_package and pkg-config users both ok"
