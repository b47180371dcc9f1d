"""Entry point of the Bazel py_test //tests:python_tests.

Runs pytest over tests/python inside the Bazel runfiles tree, where the npurt
package (with the Bazel-built npurt/_npurt.so) is on sys.path via
//sdk_python:npurt. Extra pytest arguments come from NPURT_BAZEL_PYTEST_ARGS.
"""
import os
import shlex
import sys

import pytest


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    tests_dir = os.path.join(os.path.dirname(here), "python")
    args = [tests_dir, "-q", "-p", "no:cacheprovider"]
    args += shlex.split(os.environ.get("NPURT_BAZEL_PYTEST_ARGS", ""))
    # As tests/conftest.py does, before npurt is imported here for the first time.
    os.environ.setdefault("NPURT_SIM_DEVICES", "2")
    import npurt  # fail early and clearly if the extension did not load

    print(f"bazel pytest: npurt from {os.path.dirname(npurt.__file__)}", flush=True)
    return int(pytest.main(args))


if __name__ == "__main__":
    sys.exit(main())
