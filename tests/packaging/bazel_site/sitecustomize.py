"""Start-up hook of the Python processes //tests:python_tests runs: npurt from the runfiles only.

tests/packaging/bazel_pytest_main.py puts this folder first on PYTHONPATH and
names the runfiles folder holding the Bazel-built npurt package in
$NPURT_BAZEL_PACKAGE_ROOT. Python imports this module after the site .pth files,
so it sees what an editable npurt install (scikit-build-core) added: its import
hook in sys.meta_path, which would win over the runfiles, and its source-tree
entry in sys.path. Both are removed, so `import npurt` in the test process and in
every interpreter a test spawns resolves to the runfiles copy. The
sitecustomize this module shadows (if any) still runs, first.
"""
import importlib.util
import os
import sys


def _names_npurt(finder):
    """True for a meta-path finder that redirects the npurt package (editable installs)."""
    names = []
    for attr in ("known_source_files", "known_wheel_files", "known_packages"):
        names += [n for n in (getattr(finder, attr, None) or ()) if isinstance(n, str)]
    return any(n == "npurt" or n.startswith("npurt.") for n in names)


def strip_other_npurt(package_root):
    """Drops every way to import npurt except `package_root`/npurt; returns what was dropped."""
    dropped = [f for f in sys.meta_path if _names_npurt(f)]
    sys.meta_path[:] = [f for f in sys.meta_path if f not in dropped]
    root = os.path.normpath(package_root)
    for entry in list(sys.path):
        path = os.path.normpath(os.path.abspath(entry or "."))
        if path != root and os.path.isfile(os.path.join(path, "npurt", "__init__.py")):
            sys.path.remove(entry)
            dropped.append(entry)
    if root not in (os.path.normpath(p) for p in sys.path):
        sys.path.insert(0, root)
    return dropped


def _run_shadowed_sitecustomize():
    here = os.path.normpath(os.path.dirname(os.path.abspath(__file__)))
    for entry in sys.path:
        candidate = os.path.join(entry or ".", "sitecustomize.py")
        if os.path.normpath(os.path.abspath(entry or ".")) != here and os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("_npurt_shadowed_sitecustomize", candidate)
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
            return


# The shadowed one first: stripping may drop the sys.path entry it lives in, and
# whatever it adds is stripped too.
_run_shadowed_sitecustomize()
if os.environ.get("NPURT_BAZEL_PACKAGE_ROOT"):
    strip_other_npurt(os.environ["NPURT_BAZEL_PACKAGE_ROOT"])
