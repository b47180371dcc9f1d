"""Keeps docs/*.md and README.md honest against the code.

Checks, over every Markdown file of docs/ plus README.md:
  * paths: every `inline code` token that looks like a repository path
    (has a '/' or a source-file extension, no spaces or placeholders) names a
    file or folder of the checkout -- as written, under one of the usual roots
    (runtime/, kernels/, the sim AI core folder, ...), or, for a bare file
    name, anywhere in the tree;
  * Bazel: every `//pkg:target` label names a target of that package's BUILD file;
  * gtest binaries: every `npurt_test_<folder>` matches a folder of tests/runtime;
  * CLI: every `python -m npurt <command>` names a command the parser knows;
  * Python names: every `nr.xxx` / `npurt.xxx` (and `nr.xxx.yyy`) resolves
    as an attribute of the installed package.
Code blocks are skipped for the path check (they hold shell output and
placeholders); their Python is run by tests/python/tools/test_docs.py.

Usage: python tools/check_docs.py [REPO_ROOT]  -> prints one line per problem,
exit status 1 when there is any.  ALLOWED lists the deliberate exceptions
(things that live outside this repository or are only produced by a build).
"""
import os
import re
import subprocess
import sys

# Tokens that look like paths but are not files of this checkout, each with why.
ALLOWED = {
    "npurt/include",               # wheel layout, created by the build
    "npurt/include/",
    "npurt/include/npurt/aicore",
    "include/npurt/aicore/",       # install layout of the sim kernel headers
    "acl_rt.h",                    # CANN headers, not in this repo
    "shared/DESIGN.md",            # the team's shared design notes, outside the repository
    "shared/reference/ascend-facts.md",
    "shared/reference/anchors.md",
    "ascendc.cmake",               # CANN's kernel build script
    "build/ascend_kernels/",       # build output folders and files
    "npurtConfig.cmake",
    "DIR/bench.md",
    "DIR/bench_ratios.png",
    "scaled_add/",                 # what `python -m npurt new-op scaled_add` generates
    "scaled_add_kernel.cc",
    "scaled_add_op.cc",
    "test_scaled_add.py",
}
# Prefixes of the installed wheel's layout (created by the build, not in git).
ALLOWED_PREFIXES = ("npurt/lib/",)
# `nr.xxx` names that stand for a user's own op or a family, not a real attribute.
NAMES_ALLOWED = {"nr.ops.my_op", "nr.ops.scaled_add", "nr.ops.reduce_"}
SOURCE_EXT = (".h", ".hpp", ".cc", ".c", ".py", ".sh", ".md", ".txt", ".bazel", ".inc", ".cmake", ".yaml", ".toml")
ROOTS = ("", "runtime/", "runtime/include/", "runtime/backends/", "runtime/backends/sim/aicore/",
         "runtime/backends/sim/aicore/include/", "runtime/backends/sim/aicore/include/npurt/", "sdk_python/",
         "sdk_python/npurt/", "kernels/", "tests/", "docs/", "tools/")
PLACEHOLDER = re.compile(r"[<>*{}$\[\]()|,=:;#@'\"]|\.\.\.")


def doc_files(root):
    docs = os.path.join(root, "docs")
    files = [os.path.join(docs, f) for f in sorted(os.listdir(docs)) if f.endswith(".md")]
    return files + [os.path.join(root, "README.md")]


def prose_code_spans(text):
    """Inline `code` spans outside fenced blocks, with their line numbers."""
    fenced = False
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            for span in re.findall(r"`([^`]+)`", line):
                yield lineno, span.strip()


def looks_like_path(token):
    # absolute paths (/usr/..., /tmp) and Bazel labels (//...) are not files of the checkout
    if " " in token or PLACEHOLDER.search(token) or token.startswith(("/", "-", "http", "~")):
        return False
    if not re.fullmatch(r"[A-Za-z0-9_./+-]+", token) or "/" == token:
        return False
    if "/" in token:
        # expressions such as a/b or 1/sqrt are not paths: a path has a dot or a known folder
        return "." in token.split("/")[-1] or token.endswith("/") or token.split("/")[0] in TOP_DIRS
    return token.endswith(SOURCE_EXT)


TOP_DIRS = {"runtime", "kernels", "sdk_python", "tests", "docs", "tools", "bench", "examples", "cmake",
            "conda", "packaging", "aicore", "include", "exec", "core", "memory", "ops", "backends"}


def tree(root):
    out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    files = set(out.split())
    dirs = {os.path.dirname(f) for f in files}
    for d in list(dirs):
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    base = {}
    for f in files:
        base.setdefault(os.path.basename(f), f)
    return files, dirs, base


def path_exists(token, files, dirs, base):
    t = token.rstrip("/")
    for r in ROOTS:
        if r + t in files or r + t in dirs:
            return True
    if "/" not in t and t in base:
        return True
    # a suffix of a real path (e.g. `aicore/vec_sort.h`, `backends/sim/sim_stream.cc`)
    return any(f.endswith("/" + t) for f in files) or any(d.endswith("/" + t) for d in dirs)


def brace_variants(token):
    """One {a,b} group expanded (`x.{h,cc}` -> x.h, x.cc); other tokens as they are."""
    m = re.fullmatch(r"([A-Za-z0-9_./+-]*)\{([A-Za-z0-9_.,/+-]+)\}([A-Za-z0-9_./+-]*)", token)
    if not m:
        return [token]
    return [m.group(1) + alt + m.group(3) for alt in m.group(2).split(",")]


def doc_code_spans(root):
    """(doc path relative to root, line number, span) over the inline code spans of every doc's prose."""
    for doc in doc_files(root):
        with open(doc, encoding="utf-8") as fh:
            text = fh.read()
        for lineno, span in prose_code_spans(text):
            yield os.path.relpath(doc, root), lineno, span


def check_paths(root):
    files, dirs, base = tree(root)
    return [f"{rel}:{lineno}: no such path `{variant}`"
            for rel, lineno, span in doc_code_spans(root)
            for variant in brace_variants(span)  # `acl_api.{h,cc}` names acl_api.h and acl_api.cc
            if variant not in ALLOWED and not variant.startswith(ALLOWED_PREFIXES) and looks_like_path(variant)
            and not path_exists(variant, files, dirs, base)]


def bazel_label_exists(root, label, dirs):
    """//pkg:name (or //pkg): the package's BUILD file declares name, or, for the generated
    gtest targets of //tests, a folder tests/<path> with name == path with '/' -> '_'."""
    pkg, _, name = label[2:].partition(":")
    name = name or pkg.rsplit("/", 1)[-1]
    build = next((os.path.join(root, pkg, b) for b in ("BUILD.bazel", "BUILD")
                  if os.path.isfile(os.path.join(root, pkg, b))), None)
    if build is None:
        return False
    with open(build, encoding="utf-8") as fh:
        if f'name = "{name}"' in fh.read():
            return True
    return pkg == "tests" and any(d.startswith("tests/runtime/") and d[len("tests/"):].replace("/", "_") == name
                                  for d in dirs)


def check_bazel(root):
    _, dirs, _ = tree(root)
    return [f"{rel}:{lineno}: no Bazel target `{span}`"
            for rel, lineno, span in doc_code_spans(root)
            if re.fullmatch(r"//[\w/.-]*(:[\w/.-]+)?", span) and span != "//" and "..." not in span
            and not bazel_label_exists(root, span, dirs)]


def doc_lines(root):
    """(doc path relative to root, line number, line) over every line of every doc."""
    for doc in doc_files(root):
        rel = os.path.relpath(doc, root)
        with open(doc, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                yield rel, lineno, line


def check_gtest_binaries(root):
    """Every `npurt_test_<x>` names the gtest binary of a folder tests/runtime/<x with '_' for '/'>."""
    _, dirs, _ = tree(root)
    known = {"npurt_test_" + d[len("tests/runtime/"):].replace("/", "_") for d in dirs if d.startswith("tests/runtime/")}
    return [f"{rel}:{lineno}: no gtest binary `{name}`"
            for rel, lineno, line in doc_lines(root)
            for name in re.findall(r"(?<![\w/])npurt_test_[a-z0-9_]+(?![\w.<])", line) if name not in known]


def check_cli(root):
    from npurt.__main__ import _parser

    sub = next(a for a in _parser()._actions if a.dest == "command")
    known = set(sub.choices) | {"--cmake-dir", "cmake-dir", "--help", "-h"}
    return [f"{rel}:{lineno}: unknown command `python -m npurt {cmd}`"
            for rel, lineno, line in doc_lines(root)
            for cmd in re.findall(r"python -m npurt ([-\w]+)", line) if cmd not in known]


def missing_name(npurt, dotted, full):
    """True when `full` (nr.a.b) names nothing: only modules and classes are checked (instance
    attributes are not visible here); file names such as npurt.h are not names."""
    parts = dotted.split(".")
    if parts[-1] in ("h", "py", "md", "so", "cc"):
        return False
    obj = npurt
    for p in parts:
        if not hasattr(obj, p):
            return isinstance(obj, (type(npurt), type)) and full not in NAMES_ALLOWED
        obj = getattr(obj, p)
    return False


def check_names(root):
    import npurt

    return [f"{rel}:{lineno}: npurt has no `{m.group(0)}`"
            for rel, lineno, line in doc_lines(root)
            for m in re.finditer(r"(?<![\w.])(?:nr|npurt)\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)", line)
            if missing_name(npurt, m.group(1), m.group(0))]


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems = (check_paths(root) + check_bazel(root) + check_gtest_binaries(root) + check_cli(root)
                + check_names(root))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
