"""Entry point of the Bazel py_test //tests:python_tests.

Runs pytest over tests/python inside the Bazel runfiles tree against the
Bazel-built npurt package (//sdk_python:npurt: npurt/_npurt.so with
npurt/lib/libnpurt.so and libnpurt_kernels.so), and only that one: an editable
npurt install in the Python env (its import hook would win over the runfiles)
is stripped from this process and, through bazel_site/sitecustomize.py on
PYTHONPATH, from every interpreter a test starts. Exits 2 before running any
test if npurt still resolves elsewhere, here or in a child.
The test files to run are the target's args, paths relative to tests/python
(//tests:python_tests: a representative subset; //tests:python_tests_all: none,
i.e. the whole of tests/python). Extra pytest arguments come from
NPURT_BAZEL_PYTEST_ARGS.
"""
import importlib.util
import os
import shlex
import subprocess
import sys

import pytest


def load_site(path):
    spec = importlib.util.spec_from_file_location("npurt_bazel_site", path)
    module = importlib.util.module_from_spec(spec)
    os.environ.pop("NPURT_BAZEL_PACKAGE_ROOT", None)  # only define its functions here
    spec.loader.exec_module(module)
    return module


def child_npurt_dir():
    code = "import os, npurt; print(os.path.dirname(npurt.__file__))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    return r.stdout.strip() if r.returncode == 0 else "import failed: " + r.stderr.strip()[-500:]


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))            # <runfiles>/<ws>/tests/packaging
    workspace = os.path.dirname(os.path.dirname(here))
    package_root = os.path.join(workspace, "sdk_python")          # //sdk_python:npurt's import path
    expected = os.path.normpath(os.path.join(package_root, "npurt"))
    site_dir = os.path.join(here, "bazel_site")
    dropped = load_site(os.path.join(site_dir, "sitecustomize.py")).strip_other_npurt(package_root)
    os.environ["NPURT_BAZEL_PACKAGE_ROOT"] = package_root
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (site_dir, os.environ.get("PYTHONPATH")) if p)
    # As tests/conftest.py does, before npurt is imported here for the first time.
    os.environ.setdefault("NPURT_SIM_DEVICES", "2")
    import npurt  # fail early and clearly if the extension did not load

    found = {"this process": os.path.normpath(os.path.dirname(os.path.abspath(npurt.__file__))),
             "a child interpreter": os.path.normpath(child_npurt_dir())}
    for who, where in found.items():
        if where != expected:
            print(f"bazel pytest: npurt in {who} comes from {where}, not the runfiles ({expected})",
                  file=sys.stderr, flush=True)
            return 2
    if dropped:
        print(f"bazel pytest: ignored other npurt imports: {dropped}", flush=True)
    print(f"bazel pytest: npurt from {found['this process']}", flush=True)
    tests = os.path.join(os.path.dirname(here), "python")
    args = [os.path.join(tests, path) for path in sys.argv[1:]] or [tests]
    args += ["-q", "-p", "no:cacheprovider"]
    args += shlex.split(os.environ.get("NPURT_BAZEL_PYTEST_ARGS", ""))
    return int(pytest.main(args))


if __name__ == "__main__":
    sys.exit(main())
