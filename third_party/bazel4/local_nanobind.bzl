"""Bazel 4 offline stand-in for @nanobind_bazel.

A repository rule that finds nanobind and the Python headers in the Python
environment Bazel runs from (python3 on PATH, or $PYTHON_BIN_PATH), symlinks
them into the repository and writes:
  - BUILD with :python_headers and :nanobind (nanobind's NB_STATIC sources);
  - build_defs.bzl with nanobind_extension(name, srcs, deps, ...), the same
    name and output (<name>.so) as the real nanobind_bazel macro, so BUILD
    files are identical under bzlmod (where the BCR module is used).
It is `local = True` and re-runs when PATH / PYTHON_BIN_PATH / VIRTUAL_ENV
change, so switching envs picks up the right nanobind.
"""

_PROBE = """
import os, sysconfig, nanobind
print(sysconfig.get_paths()["include"])
print(os.path.dirname(nanobind.__file__))
print(nanobind.__version__)
"""

# The NB_STATIC source list of nanobind-config.cmake (nanobind 2.x and 3.x).
_NB_SOURCES = [
    "nb_internals", "nb_func", "nb_type", "nb_enum", "nb_ndarray",
    "nb_static_property", "nb_datetime", "common", "error", "trampoline", "implicit",
]

_BUILD = """
load("@rules_cc//cc:defs.bzl", "cc_library")

package(default_visibility = ["//visibility:public"])

# nanobind {version} from {nb_dir}
cc_library(
    name = "python_headers",
    hdrs = glob(["python_include/**/*.h"]),
    includes = ["python_include"],
)

cc_library(
    name = "nanobind",
    srcs = [{srcs}] + glob(["nanobind/src/*.h"]),
    hdrs = glob([
        "nanobind/include/**/*.h",
        "nanobind/ext/robin_map/include/**/*.h",
    ]),
    copts = ["-std=c++17", "-fvisibility=hidden", "-fno-strict-aliasing",
             "-ffunction-sections", "-fdata-sections", "-O2"],
    includes = ["nanobind/include", "nanobind/ext/robin_map/include"],
    local_defines = ["NB_BUILD", "NB_COMPACT_ASSERTIONS"],
    deps = [":python_headers"],
)
"""

_DEFS = '''
load("@rules_cc//cc:defs.bzl", "cc_binary")

def nanobind_extension(name, srcs = [], deps = [], copts = [], linkopts = [], **kwargs):
    """A Python extension module <name>.so linked statically against nanobind."""
    cc_binary(
        name = name + ".so",
        srcs = srcs,
        deps = deps + ["@nanobind_bazel//:nanobind"],
        copts = ["-fvisibility=hidden"] + copts,
        linkshared = True,
        linkstatic = True,
        linkopts = ["-Wl,--gc-sections"] + linkopts,
        **kwargs
    )
    native.alias(name = name, actual = ":" + name + ".so", visibility = kwargs.get("visibility"))
'''

def _local_nanobind_impl(rctx):
    python = rctx.os.environ.get("PYTHON_BIN_PATH") or rctx.which("python3")
    if not python:
        fail("local_nanobind: no python3 on PATH and PYTHON_BIN_PATH unset")
    res = rctx.execute([str(python), "-c", _PROBE])
    if res.return_code != 0:
        fail("local_nanobind: nanobind is not importable by %s (pip install nanobind):\n%s" %
             (python, res.stderr))
    py_include, nb_dir, version = res.stdout.strip().split("\n")
    rctx.symlink(py_include, "python_include")
    rctx.symlink(nb_dir, "nanobind")
    srcs = ", ".join(['"nanobind/src/%s.cpp"' % s for s in _NB_SOURCES])
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    rctx.file("BUILD", _BUILD.format(version = version, nb_dir = nb_dir, srcs = srcs))
    rctx.file("build_defs.bzl", _DEFS)

local_nanobind = repository_rule(
    implementation = _local_nanobind_impl,
    local = True,
    environ = ["PATH", "PYTHON_BIN_PATH", "VIRTUAL_ENV"],
)
