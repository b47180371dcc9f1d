"""tests/packaging/bazel_site/sitecustomize.py: the interpreters //tests:python_tests starts
import npurt from the folder $NPURT_BAZEL_PACKAGE_ROOT names, whatever else the env has
(an editable install's import hook, a source-tree path), and the shadowed sitecustomize
still runs."""
import os
import pathlib
import subprocess
import sys

SITE = pathlib.Path(__file__).resolve().parents[2] / "packaging" / "bazel_site"
SHOW = "import os, npurt; print(os.path.dirname(os.path.abspath(npurt.__file__)))"


def run(tmp_path, with_root):
    root = tmp_path / "runfiles_pkg"
    (root / "npurt").mkdir(parents=True)
    (root / "npurt" / "__init__.py").write_text("")  # a stand-in for the runfiles package
    other = tmp_path / "other"
    (other / "npurt").mkdir(parents=True)
    (other / "npurt" / "__init__.py").write_text("")  # a competing npurt on sys.path
    (other / "sitecustomize.py").write_text("import os; os.environ['SHADOWED_SITE_RAN'] = '1'\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SITE), str(other), str(root)]))
    env.pop("NPURT_BAZEL_PACKAGE_ROOT", None)
    if with_root:
        env["NPURT_BAZEL_PACKAGE_ROOT"] = str(root)
    code = SHOW + "; print(os.environ.get('SHADOWED_SITE_RAN'))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.split(), root, other


def test_npurt_comes_from_the_named_root(tmp_path):
    (where, ran), root, _ = run(tmp_path, with_root=True)
    assert where == str(root / "npurt")
    assert ran == "1"  # the sitecustomize it shadows still ran


def test_without_the_variable_nothing_is_stripped(tmp_path):
    (where, ran), root, _ = run(tmp_path, with_root=False)
    # The control for the test above: left alone, the competing npurt (earlier on
    # sys.path) or an editable install's hook wins over the root.
    assert where != str(root / "npurt")
    assert ran == "1"
