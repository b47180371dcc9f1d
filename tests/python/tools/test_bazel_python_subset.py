"""tests/BUILD.bazel's Python test targets: //tests:python_tests runs a subset of
tests/python on the Bazel-built package, //tests:python_tests_all (manual) all of it.

The subset (PYTHON_SUBSET, the args of python_tests) must stay meaningful as the suite
changes: every entry is an existing test module, every folder of tests/python has at
least one module in it, and every module written for the Bazel package (it names
//tests:python_tests) is in it. The whole suite still runs in tools/test.sh's python
and asan steps; python_tests_all keeps it runnable on the Bazel package by name.
The BUILD file is parsed as Starlark (a subset of Python's syntax), as
tests/packaging/check_bazel_files.py does.
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
BUILD = ROOT / "tests" / "BUILD.bazel"
PYTHON_TESTS = ROOT / "tests" / "python"

pytestmark = pytest.mark.skipif(not BUILD.is_file(), reason="needs the source tree's tests/BUILD.bazel")


def _build():
    return ast.parse(BUILD.read_text(), str(BUILD))


def _subset():
    for stmt in _build().body:
        if isinstance(stmt, ast.Assign) and [t.id for t in stmt.targets] == ["PYTHON_SUBSET"]:
            return [ast.literal_eval(e) for e in stmt.value.elts]
    raise AssertionError("tests/BUILD.bazel has no PYTHON_SUBSET list")


def _py_tests():
    """name -> {keyword: source text} of each py_test call in tests/BUILD.bazel."""
    found = {}
    for node in ast.walk(_build()):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "py_test":
            kw = {k.arg: ast.unparse(k.value) for k in node.keywords}
            found[ast.literal_eval(kw["name"])] = kw
    return found


def _test_modules():
    return sorted(p.relative_to(PYTHON_TESTS).as_posix() for p in PYTHON_TESTS.rglob("test_*.py"))


def test_every_subset_entry_is_an_existing_test_module_listed_once():
    subset = _subset()
    assert subset, "PYTHON_SUBSET is empty"
    assert len(set(subset)) == len(subset), "duplicates in PYTHON_SUBSET"
    missing = sorted(set(subset) - set(_test_modules()))
    assert not missing, f"PYTHON_SUBSET names files that are not test modules under tests/python: {missing}"


def test_every_folder_of_tests_python_has_a_module_in_the_subset():
    folders = {m.split("/")[0] for m in _test_modules() if "/" in m}
    covered = {m.split("/")[0] for m in _subset() if "/" in m}
    assert folders - covered == set(), f"folders with no module in PYTHON_SUBSET: {sorted(folders - covered)}"


def test_modules_written_for_the_bazel_package_are_in_the_subset():
    this = pathlib.Path(__file__).resolve().relative_to(PYTHON_TESTS).as_posix()  # skips under Bazel
    written_for_it = {m for m in _test_modules()
                      if m != this and "//tests:python_tests" in (PYTHON_TESTS / m).read_text()}
    assert written_for_it, "no test module names //tests:python_tests (the search below is stale)"
    assert written_for_it - set(_subset()) == set(), "modules testing the Bazel package left out of the subset"


def test_python_tests_runs_the_subset_and_python_tests_all_everything_by_name():
    targets = _py_tests()
    subset, everything = targets["python_tests"], targets["python_tests_all"]
    assert subset.get("args") == "PYTHON_SUBSET"
    assert "args" not in everything  # no args: bazel_pytest_main.py runs all of tests/python
    assert everything.get("tags") == "['manual']" and "tags" not in subset
    for key in ("srcs", "data", "deps", "main"):
        assert subset[key] == everything[key], key
