#!/usr/bin/env bash
# Install check (CI): configures nonsmooth WITHOUT an install prefix, installs
# it into a fresh temporary prefix (cmake --install --prefix, the README's
# route), then, with no LD_LIBRARY_PATH anywhere:
#  - the installed nsolve and nsbench start (their RUNPATH finds the libraries);
#  - an outside C program per library (numerics, mechanics) is built with
#    CMake's find_package(nonsmooth) and with pkg-config, and runs;
#  - the install tree is moved elsewhere and the pkg-config users still build
#    and run (relocatable .pc files and RUNPATHs);
#  - the CMake-installed Python package imports and solves;
#  - `pip install --no-build-isolation .` into a venv (Debian's NumPy through
#    --system-site-packages) builds the extension against the installed
#    prefix (NONSMOOTH_PREFIX) and `import nonsmooth` works in the venv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LD_LIBRARY_PATH
cmake -S "$top" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DNS_BUILD_TESTS=OFF >/dev/null
cmake --build "$tmp/build" -j 2 >/dev/null
prefix="$tmp/prefix"
cmake --install "$tmp/build" --prefix "$prefix" >/dev/null
"$prefix/bin/nsolve" --version
"$prefix/bin/nsbench" --version
grep -q '^prefix=${pcfiledir}/' "$(find "$prefix" -name nonsmooth.pc)"
test -f "$prefix/include/nonsmooth/ns_config.h"

# find_package users
cmake -S "$here" -B "$tmp/user" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/user" >/dev/null
"$tmp/user/use_nonsmooth"
"$tmp/user/use_mechanics"

# pkg-config users, built and run from a given install tree
pc_users() {
  local p=$1 out=$2
  export PKG_CONFIG_PATH="$(dirname "$(find "$p" -name nonsmooth.pc | head -1)")"
  local libdir
  libdir=$(pkg-config --variable=libdir nonsmooth)
  case "$(pkg-config --cflags nonsmooth-mechanics)" in
    *openmpi*|*hdf5*) echo "install check: Cflags carry dependency paths" >&2; exit 1 ;;
  esac
  cc -std=c11 "$here/use_nonsmooth.c" -o "$out/use_pc" \
     $(pkg-config --cflags --libs nonsmooth) -Wl,-rpath,"$libdir" -lm
  cc -std=c11 "$here/use_mechanics.c" -o "$out/use_pc_mech" \
     $(pkg-config --cflags --libs nonsmooth-mechanics) -Wl,-rpath,"$libdir" -lm
  "$out/use_pc"
  "$out/use_pc_mech"
}
pc_users "$prefix" "$tmp"
mv "$prefix" "$tmp/moved"
mkdir "$tmp/moved-out"
pc_users "$tmp/moved" "$tmp/moved-out"
"$tmp/moved/bin/nsolve" --version >/dev/null
mv "$tmp/moved" "$prefix"
unset PKG_CONFIG_PATH

# the Python package, when built: importable from the prefix alone (RPATH to lib)
pydir=$(find "$prefix" -type d -path "*dist-packages/nonsmooth" 2>/dev/null | head -1)
if [ -n "$pydir" ]; then
  (cd "$tmp" && PYTHONPATH=$(dirname "$pydir") /usr/bin/python3 -c 'import nonsmooth as ns
r = ns.solve(ns.lcp([[2.0, 1.0], [1.0, 2.0]], [-1.0, -1.0]))
assert r.converged and abs(r.z[0] - 1 / 3) < 1e-12, r
print("install check: python package imported from", ns.__file__)')
elif [ "${NS_PYTHON:-}" = ON ]; then
  echo "install check: NS_PYTHON=ON but no python package was installed" >&2; exit 1
fi

# pip install into a venv, against the installed prefix
if /usr/bin/python3 -c 'import numpy, setuptools, pip, venv' 2>/dev/null; then
  /usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
  # from a copy of the sources without build directories: pip builds in
  # the tree, and setuptools would reuse an extension an earlier run linked
  # against another prefix
  mkdir "$tmp/src"
  tar -C "$top" --exclude='./build*' --exclude='./.git' -cf - . | tar -C "$tmp/src" -xf -
  NONSMOOTH_PREFIX="$prefix" "$tmp/venv/bin/python" -m pip install -q --no-build-isolation \
      --no-index "$tmp/src"
  (cd "$tmp" && "$tmp/venv/bin/python" -c 'import nonsmooth as ns, sys
assert ns.__file__.startswith(sys.prefix), ns.__file__
r = ns.solve(ns.lcp([[2.0, 1.0], [1.0, 2.0]], [-5.0, -6.0]), tol=1e-12)
assert r.converged and abs(r.z[0] - 4 / 3) < 1e-9 and abs(r.z[1] - 7 / 3) < 1e-9, r
print("install check: pip-installed package", ns.__version__, "from", ns.__file__)'
   "$tmp/venv/bin/python" -m nonsmooth --version)
  # with the Bullet collision library installed, the pip build has nonsmooth.Scene too
  if [ -n "$(find "$prefix" -name 'libnonsmooth_collision.*' 2>/dev/null | head -1)" ]; then
    (cd "$tmp" && "$tmp/venv/bin/python" -c 'import nonsmooth as ns; assert hasattr(ns, "Scene"); print("install check: pip-installed package has Scene")')
  fi
elif [ "${NS_PYTHON:-}" = ON ]; then
  echo "install check: NS_PYTHON=ON but python3-setuptools/pip/venv are missing" >&2; exit 1
fi
echo "install check: find_package and pkg-config users (numerics, mechanics), relocated tree, python ok"
