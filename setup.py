"""Builds the Python package `nonsmooth` for `pip install .` / `python -m build`.

The extension nonsmooth._core is compiled from python/src/*.c in one of two
ways:

* NONSMOOTH_PREFIX=<prefix> (an installed nonsmooth: `cmake --install build
  --prefix <prefix>`): compiled here against <prefix>/include and linked to
  <prefix>/lib*/libnonsmooth_{mechanics,numerics}.so with that directory as
  its RUNPATH (the prefix must stay where it is);
* otherwise (bundled): CMake configures this checkout with static libraries
  (BUILD_SHARED_LIBS=OFF, no tests) for the running interpreter and builds
  the extension target, which then carries the library in itself. Needs the
  Debian packages tools/setup.sh installs (cmake, SuiteSparse, OpenBLAS,
  LAPACKE, HDF5 + libfclib, SUNDIALS). NONSMOOTH_CMAKE_ARGS adds arguments.

Offline, with Debian's NumPy:
    python3 -m venv --system-site-packages venv
    venv/bin/python -m pip install --no-build-isolation .
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

TOP = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(TOP, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(nonsmooth\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("setup.py: no project(nonsmooth VERSION ...) in CMakeLists.txt")
    return m.group(1)


def prefix_libdir(prefix):
    for d in glob.glob(os.path.join(prefix, "lib*")) + glob.glob(os.path.join(prefix, "lib", "*-linux-gnu")):
        if glob.glob(os.path.join(d, "libnonsmooth_numerics.*")):
            return d
    raise RuntimeError(f"NONSMOOTH_PREFIX={prefix}: no libnonsmooth_numerics under {prefix}/lib*")


class BuildCore(build_ext):
    """nonsmooth._core against an installed prefix, or bundled through CMake."""

    def build_extension(self, ext):
        prefix = os.environ.get("NONSMOOTH_PREFIX")
        if prefix:
            import numpy
            prefix = os.path.abspath(prefix)
            inc = os.path.join(prefix, "include")
            if not os.path.isfile(os.path.join(inc, "nonsmooth", "ns_config.h")):
                raise RuntimeError(f"NONSMOOTH_PREFIX={prefix}: no include/nonsmooth/ns_config.h there")
            libdir = prefix_libdir(prefix)
            ext.include_dirs += [inc, numpy.get_include()]
            ext.library_dirs += [libdir]
            ext.runtime_library_dirs += [libdir]
            ext.libraries += ["nonsmooth_mechanics", "nonsmooth_numerics"]
            # nonsmooth.Scene needs the Bullet collision library, installed
            # only when the prefix was built with libbullet-dev
            if glob.glob(os.path.join(libdir, "libnonsmooth_collision.*")):
                ext.libraries.insert(0, "nonsmooth_collision")
                ext.define_macros.append(("PYNS_HAVE_SCENE", None))
            else:
                ext.sources = [f for f in ext.sources if os.path.basename(f) != "scene.c"]
            ext.extra_compile_args += ["-std=c11", "-fvisibility=hidden"]
            return super().build_extension(ext)
        self.build_bundled(ext)

    def build_bundled(self, ext):
        cmake = shutil.which("cmake")
        if not cmake:
            raise RuntimeError("setup.py: cmake not found (apt-get install cmake, or set "
                               "NONSMOOTH_PREFIX to an installed nonsmooth)")
        bdir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        args = [cmake, "-S", TOP, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release",
                "-DBUILD_SHARED_LIBS=OFF", "-DNS_BUILD_TESTS=OFF", "-DNS_PYTHON=ON",
                f"-DPython3_EXECUTABLE={sys.executable}"]
        args += shlex.split(os.environ.get("NONSMOOTH_CMAKE_ARGS", ""))
        subprocess.run(args, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run([cmake, "--build", bdir, "--target", "nonsmooth_python", "-j", jobs],
                       check=True)
        built = glob.glob(os.path.join(bdir, "python", "nonsmooth", "_core*.so"))
        if len(built) != 1:
            raise RuntimeError(f"setup.py: expected one _core*.so in {bdir}/python/nonsmooth, got {built}")
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(built[0], dest)


setup(
    version=project_version(),
    packages=["nonsmooth"],
    package_dir={"nonsmooth": "python/nonsmooth"},
    package_data={"nonsmooth": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("nonsmooth._core",
                           sources=sorted(glob.glob("python/src/*.c")),
                           depends=["python/src/pyns.h"])],
    cmdclass={"build_ext": BuildCore},
    zip_safe=False,
)
