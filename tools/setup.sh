#!/usr/bin/env bash
# Installs the Debian packages nonsmooth needs (only those missing), then
# configures and builds into build/ (or $NS_BUILD_DIR).
#   tools/setup.sh [--sanitize] [--fuzz]
# Non-interactive; needs root (or sudo) only when something is missing.
# NS_PYTHON=ON|OFF|AUTO (environment) is passed to CMake (python/CMakeLists.txt).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${NS_BUILD_DIR:-$here/build}
cmake_args=(-DCMAKE_BUILD_TYPE=${NS_BUILD_TYPE:-RelWithDebInfo})
pkgs=(build-essential cmake pkg-config libsuitesparse-dev libopenblas-dev
      liblapacke-dev libhdf5-dev libfclib-dev libsundials-dev libcmocka-dev
      libopenmpi-dev openmpi-bin libbullet-dev
      python3-dev python3-numpy python3-scipy python3-pytest
      python3-setuptools python3-pip python3-venv)
[ -n "${NS_PYTHON:-}" ] && cmake_args+=(-DNS_PYTHON="$NS_PYTHON")
for a in "$@"; do
  case "$a" in
    --sanitize) cmake_args+=(-DNS_SANITIZE=ON); build=${NS_BUILD_DIR:-$here/build-asan} ;;
    --fuzz) pkgs+=(clang libclang-rt-14-dev) ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$a'" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2
cmake -S "$here" -B "$build" "${cmake_args[@]}" >/dev/null
cmake --build "$build" -j "$jobs"
echo "setup: built in $build" >&2

# Python package (docs/python.md): importable as `python3 -c "import nonsmooth"`
# from the top of the checkout through a link to the default build's package
# (elsewhere: PYTHONPATH=<checkout>/build/python). It is built for Debian's
# /usr/bin/python3; when `python3` here is a pyenv interpreter without NumPy,
# a .python-version ("system") makes pyenv's python3 in this checkout be
# Debian's. Both files are untracked (.gitignore).
if [ "$build" = "$here/build" ] && [ -d "$build/python/nonsmooth" ]; then
  [ -e "$here/nonsmooth" ] && [ ! -L "$here/nonsmooth" ] || ln -sfn build/python/nonsmooth "$here/nonsmooth"
  py=$(cd "$here" && command -v python3 || true)
  if [ -n "$py" ] && ! (cd "$here" && python3 -c 'import numpy' 2>/dev/null) &&
     [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null &&
     [ "${py#*/.pyenv/}" != "$py" ] && [ ! -e "$here/.python-version" ]; then
    echo system > "$here/.python-version"
    echo "setup: python3 here is pyenv's without NumPy; wrote .python-version (system): python3 in this checkout is /usr/bin/python3" >&2
  fi
fi
