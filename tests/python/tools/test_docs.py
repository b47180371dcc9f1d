"""The docs stay true: tools/check_docs.py finds no stale path / command / name,
and every ```python block of docs/*.md and README.md runs.

The blocks of one file run in order in one namespace (later blocks use names
of earlier ones, as a reader would); PRELUDES gives the few inputs a snippet
takes for granted (e.g. `actual`, `desired`).  The checks need the source tree
(docs/, tools/, git ls-files), so they are skipped where only an installed
package is available (Bazel runfiles without the docs).
"""
import importlib.util
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
HAVE_TREE = (ROOT / "docs").is_dir() and (ROOT / "tools" / "check_docs.py").is_file()
pytestmark = pytest.mark.skipif(not HAVE_TREE, reason="docs/ and tools/ not in this tree")

COMMON = "import numpy as np\nimport npurt as nr\n"
PRELUDES = {
    "profiling.md": "actual = nr.asarray(np.linspace(0, 1, 100, dtype=np.float32))\n"
                    "desired = np.linspace(0, 1, 100, dtype=np.float32)\n"
                    "y = nr.asarray(np.full(1 << 18, 2, np.float32))\n",
    "numpy-users.md": "",
}


def _load_checker():
    spec = importlib.util.spec_from_file_location("check_docs", ROOT / "tools" / "check_docs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _python_blocks(path):
    return re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.S | re.M)


def _docs_with_python():
    if not HAVE_TREE:
        return []
    files = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    return [f for f in files if _python_blocks(f)]


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs a git checkout (git ls-files)")
def test_docs_name_only_what_exists():
    checker = _load_checker()
    root = str(ROOT)
    problems = (checker.check_paths(root) + checker.check_bazel(root) + checker.check_gtest_binaries(root)
                + checker.check_cli(root) + checker.check_names(root))
    assert problems == [], "\n".join(problems)


def test_checker_catches_a_stale_reference(tmp_path):
    """The checker is not vacuous: a doc naming a missing file / command / name is reported."""
    checker = _load_checker()
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("")
    (tmp_path / "docs" / "x.md").write_text(
        "See `runtime/core/no_such_file.cc`, run `python -m npurt no-such-cmd`, call `nr.no_such_fn`,\n"
        "build `//:no_such_target` and `//:kept`, read `kept.h`, run npurt_test_nothing and npurt_test_core.\n")
    (tmp_path / "tests" / "runtime" / "core").mkdir(parents=True)
    (tmp_path / "tests" / "runtime" / "core" / "test_x.cc").write_text("")
    (tmp_path / "BUILD.bazel").write_text('cc_library(\n    name = "kept",\n)\n')
    (tmp_path / "kept.h").write_text("")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    t = str(tmp_path)
    out = (checker.check_paths(t) + checker.check_bazel(t) + checker.check_gtest_binaries(t) + checker.check_cli(t)
           + checker.check_names(t))
    assert any("npurt_test_nothing" in p for p in out)
    assert not any("npurt_test_core" in p for p in out), out
    assert any("no_such_file.cc" in p for p in out)
    assert any("//:no_such_target" in p for p in out)
    assert not any("kept" in p for p in out), out  # existing file and target: no false positive
    assert any("no-such-cmd" in p for p in out)
    assert any("nr.no_such_fn" in p for p in out)


@pytest.mark.parametrize("doc", _docs_with_python(), ids=lambda p: p.name)
def test_doc_python_examples_run(doc, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples write trace.json, timeline.png, ...
    ns = {"__name__": "__doc_example__"}
    exec(compile(COMMON + PRELUDES.get(doc.name, ""), f"<prelude {doc.name}>", "exec"), ns)
    for i, block in enumerate(_python_blocks(doc)):
        if importlib.util.find_spec("matplotlib") is None:  # optional (profiling.md's plots): the ASan stage lacks it
            block = "\n".join(line for line in block.splitlines() if ".plot(" not in line)
        exec(compile(block, f"<{doc.name} python block {i + 1}>", "exec"), ns)


# The C++ and C snippets of docs/embedding.md are fragments of one function:
# they are compiled (syntax and types only, against runtime/include) inside a
# function whose parameters are the few names the text takes for granted.
CPP_FRAME = ("#include <vector>\n{includes}\n#include <npurt/array_ops.h>\n#include <npurt/dispatch.h>\n"
             "#include <npurt/tensor.h>\n"
             "void doc_example(std::vector<float>& host, std::vector<float>& out, npurt::Tensor gamma,"
             " npurt::Tensor beta) {{\n{body}\n}}\n")
C_FRAME = ("#include <stdio.h>\n#include <stdint.h>\n#include <npurt/npurt.h>\n"
           "void doc_example(const int64_t* shape, const float* host, float* out, size_t bytes) {{\n{body}\n}}\n")


def _blocks(doc, lang):
    return re.findall(rf"^```{lang}\n(.*?)^```", (ROOT / "docs" / doc).read_text(encoding="utf-8"), flags=re.S | re.M)


@pytest.mark.parametrize("lang", ["cpp", "c"])
def test_embedding_snippets_compile(lang, tmp_path):
    compiler = shutil.which("c++" if lang == "cpp" else "cc")
    if compiler is None or not (ROOT / "runtime" / "include" / "npurt" / "npurt.h").is_file():
        pytest.skip("no compiler or no runtime/include")
    blocks = _blocks("embedding.md", lang)
    assert blocks, f"docs/embedding.md has no {lang} example"
    lines = [line for b in blocks for line in b.splitlines()]
    if lang == "cpp":
        src = CPP_FRAME.format(includes="\n".join(x for x in lines if x.startswith("#include")),
                               body="\n".join(x for x in lines if not x.startswith("#include")))
    else:
        src = C_FRAME.format(body="\n".join(lines))
    path = tmp_path / f"embedding_example.{'cc' if lang == 'cpp' else 'c'}"
    path.write_text(src)
    std = "-std=c++17" if lang == "cpp" else "-std=c11"
    r = subprocess.run([compiler, std, "-fsyntax-only", "-Wall", "-Werror", f"-I{ROOT / 'runtime' / 'include'}",
                        str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr + "\n--- source ---\n" + src
