"""The `liesim` wheel from the CMake build (pyproject.toml names setuptools as the backend).

The package is laid out as an installation prefix of its own, so that the extension module, the
`liesim` command and the kernel find each other and the plugins by relative paths:

    liesim/__init__.py, liesim/_liesim*.so      (RUNPATH $ORIGIN/lib)
    liesim/bin/liesim                            (RUNPATH $ORIGIN/../lib; plugins in ../lib/liesim/plugins)
    liesim/lib/libliesim.so.N, liesim/lib/liesim/plugins/*.so and their manifests

The CMake build folder is LIESIM_BUILD_DIR when set (an existing build, e.g. ./build after
scripts/build.sh: only what changed is rebuilt), else ./build-wheel, configured here for the
package alone (no tests, benchmarks or MPI). Its CMake options can be added with LIESIM_CMAKE_ARGS.
"""
import os
import re
import shlex
import shutil
import subprocess
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

SOURCE = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(SOURCE, "build-wheel"), exist_ok=True)  # setuptools' own files go there too


def project_version():
    with open(os.path.join(SOURCE, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(liesim VERSION ([0-9.]+)", f.read())
    if not match:
        raise RuntimeError("liesim: no `project(liesim VERSION ...)` in CMakeLists.txt")
    return match.group(1)


def cache_value(build_dir, name):
    with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    return None


def run(command):
    print("liesim: " + " ".join(shlex.quote(c) for c in command), flush=True)
    subprocess.run(command, check=True)


def cmake_build():
    """Configure (when new) and build the CMake project; returns the build folder."""
    build_dir = os.environ.get("LIESIM_BUILD_DIR") or "build-wheel"
    build_dir = os.path.join(SOURCE, build_dir)  # relative to the source tree (an absolute path stays)
    if shutil.which("cmake") is None:
        raise RuntimeError("liesim: cmake not found: the package is built by CMake (Debian: apt install cmake, "
                           "or scripts/install-deps.sh)")
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        run(["cmake", "-S", SOURCE, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DLIESIM_PYTHON=ON",
             "-DBUILD_TESTING=OFF", "-DLIESIM_BENCHMARKS=OFF", "-DLIESIM_MPI=OFF", "-DCMAKE_INSTALL_LIBDIR=lib"]
            + shlex.split(os.environ.get("LIESIM_CMAKE_ARGS", "")))
    elif cache_value(build_dir, "LIESIM_PYTHON") == "OFF":
        raise RuntimeError(f"liesim: {build_dir} is configured with LIESIM_PYTHON=OFF: reconfigure it with "
                           "-DLIESIM_PYTHON=ON, or unset LIESIM_BUILD_DIR to build in ./build-wheel")
    run(["cmake", "--build", build_dir, "-j", str(os.cpu_count() or 2)])
    return build_dir


class BuildWithCMake(build_py):
    """build_py, then the CMake build installed into a scratch prefix and laid out in the package."""

    def run(self):
        super().run()
        build_dir = cmake_build()
        libdir = cache_value(build_dir, "CMAKE_INSTALL_LIBDIR") or "lib"
        package = os.path.join(self.build_lib, "liesim")
        with tempfile.TemporaryDirectory() as prefix:
            run(["cmake", "--install", build_dir, "--prefix", prefix])
            python_dir = os.path.join(prefix, libdir, "python3", "dist-packages", "liesim")
            if not os.path.isdir(python_dir):
                raise RuntimeError(f"liesim: the CMake build in {build_dir} installed no Python package "
                                   "(pybind11-dev, python3-dev and python3-numpy are needed: scripts/install-deps.sh)")
            for name in os.listdir(python_dir):
                if name.startswith("_liesim"):
                    shutil.copy2(os.path.join(python_dir, name), package)
            os.makedirs(os.path.join(package, "bin"), exist_ok=True)
            shutil.copy2(os.path.join(prefix, "bin", "liesim"), os.path.join(package, "bin"))
            lib = os.path.join(package, "lib")
            shutil.rmtree(lib, ignore_errors=True)
            os.makedirs(lib)
            for name in os.listdir(os.path.join(prefix, libdir)):
                # The kernel once, under its SONAME, the name the binaries ask for (libliesim.so.1; a
                # wheel holds no symbolic links).
                if re.fullmatch(r"libliesim\.so\.[0-9]+", name):
                    shutil.copy2(os.path.join(prefix, libdir, name), os.path.join(lib, name))
            if not any(n.startswith("libliesim.so.") for n in os.listdir(lib)):
                raise RuntimeError(f"liesim: no kernel library (libliesim.so.N) in the installation of {build_dir}")
            shutil.copytree(os.path.join(prefix, libdir, "liesim"), os.path.join(lib, "liesim"), symlinks=False,
                            ignore=shutil.ignore_patterns("*.so.*"))
            # share/liesim beside bin/ as in a prefix: the plotting and strobe scripts, the viewer page, templates.
            share = os.path.join(package, "share", "liesim")
            shutil.rmtree(share, ignore_errors=True)
            shutil.copytree(os.path.join(prefix, "share", "liesim"), share, symlinks=False)


class BinaryDistribution(Distribution):
    """The wheel holds compiled code: tagged for this platform and Python."""

    def has_ext_modules(self):
        return True


setup(
    version=project_version(),
    packages=["liesim"],
    package_dir={"": "python"},
    cmdclass={"build_py": BuildWithCMake},
    distclass=BinaryDistribution,
    zip_safe=False,
    options={"build": {"build_base": os.path.join("build-wheel", "setuptools")},
             "egg_info": {"egg_base": "build-wheel"}},
)
