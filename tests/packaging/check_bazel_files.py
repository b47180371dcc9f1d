#!/usr/bin/env python3
"""Structural check of npurt's Bazel files, for what no Bazel here can build.

No Bazel >= 6.4 (bzlmod) can be installed on the project's machines and
buildifier comes from npm, which is not reachable, so MODULE.bazel is checked
here instead (the Bazel 4 path is really built by tools/build_checks.sh):

  syntax     MODULE.bazel, WORKSPACE.bazel, every BUILD.bazel and .bzl parse
             (Starlark's syntax is a subset of Python's: parsed with ast);
  MODULE     only module/bazel_dep/use_extension/use_repo/register_* and
             extension tag calls; module() has name and a version equal to
             CMakeLists.txt's; every bazel_dep has a name and a version string,
             no duplicates; dev_dependency is a bool; use_repo uses a proxy;
             requirements_lock labels point at files that exist;
  repos      every external repository the BUILD files use (@name//...) is
             provided both by MODULE.bazel (bazel_dep / use_repo) and by
             WORKSPACE.bazel (the Bazel 4 shims), so both generations resolve;
  labels     every //pkg:target package used has a BUILD.bazel file;
  BUILD      no **kwargs / def in BUILD files (Bazel rejects them there);
  format     buildifier's basics: no tabs, no trailing spaces, newline at EOF,
             loads before other statements, 4-space indentation.
Prints `bazel files: N passed, M failed`; exits 1 when M > 0.
"""
import ast
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODULE_CALLS = {"module", "bazel_dep", "use_extension", "use_repo", "register_toolchains",
                "register_execution_platforms", "archive_override", "git_override",
                "local_path_override", "single_version_override"}
SKIP_DIRS = {".git", "build", "node_modules"}
BUILTIN_REPOS = {"bazel_tools", "local_config_cc", "platforms"}


class Checker:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"  FAIL  {what}" + (f": {detail}" if detail else ""))
        return ok


def starlark_files():
    for base, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("bazel-")]
        for f in files:
            if f in ("BUILD.bazel", "BUILD", "MODULE.bazel", "WORKSPACE.bazel", "WORKSPACE") or \
                    f.endswith((".bzl", ".BUILD")):
                yield os.path.join(base, f)


def rel(path):
    return os.path.relpath(path, ROOT)


def call_name(node):
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    return None


def kwargs(node):
    return {k.arg: k.value for k in node.keywords if k.arg}


def const(node):
    return node.value if isinstance(node, ast.Constant) else None


def check_format(c, path, text):
    lines = text.split("\n")
    c.check(text == "" or text.endswith("\n"), f"{rel(path)}: ends with a newline")
    c.check("\t" not in text, f"{rel(path)}: no tabs")
    bad = [i + 1 for i, line in enumerate(lines) if line != line.rstrip()]
    c.check(not bad, f"{rel(path)}: no trailing whitespace", f"lines {bad[:5]}")
    if path.endswith((".bazel", "BUILD")):
        odd = [i + 1 for i, line in enumerate(lines)
               if line.strip() and (len(line) - len(line.lstrip(" "))) % 4 != 0
               and not line.lstrip().startswith("#")]
        c.check(not odd, f"{rel(path)}: 4-space indentation", f"lines {odd[:5]}")


def check_loads_first(c, path, tree):
    seen_other = False
    ok = True
    for stmt in tree.body:
        is_load = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
            call_name(stmt.value) == "load"
        is_doc = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        if is_load and seen_other:
            ok = False
        if not is_load and not is_doc:
            seen_other = True
    c.check(ok, f"{rel(path)}: load() statements come first")


def cmake_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(npurt VERSION ([0-9.]+)", f.read())
    return m.group(1) if m else None


def check_module(c, tree):
    provided, proxies, deps = set(), set(), set()
    module_seen = False
    for stmt in tree.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # docstring
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if not c.check(isinstance(value, ast.Call), "MODULE.bazel: only calls and proxy assignments",
                       ast.dump(stmt)[:80]):
            continue
        name = call_name(value)
        kw = kwargs(value)
        if isinstance(stmt, ast.Assign):
            c.check(name == "use_extension", "MODULE.bazel: assignments only bind use_extension()")
            proxies.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
            c.check(all(isinstance(const(a), str) for a in value.args[:2]) and len(value.args) >= 2,
                    "MODULE.bazel: use_extension(bzl_label, name)")
            continue
        if name and "." in name:
            c.check(name.split(".")[0] in proxies, f"MODULE.bazel: {name}() uses a declared extension")
            lock = const(kw.get("requirements_lock"))
            if lock is not None:
                c.check(label_file_exists(lock), f"MODULE.bazel: requirements_lock {lock} exists")
            continue
        c.check(name in MODULE_CALLS, f"MODULE.bazel: {name}() is a MODULE.bazel function")
        if name == "module":
            module_seen = True
            c.check(const(kw.get("name")) == "npurt", "MODULE.bazel: module(name = \"npurt\")")
            c.check(const(kw.get("version")) == cmake_version(),
                    "MODULE.bazel: module version equals CMakeLists.txt's",
                    f"{const(kw.get('version'))} vs {cmake_version()}")
        elif name == "bazel_dep":
            dep, ver = const(kw.get("name")), const(kw.get("version"))
            c.check(isinstance(dep, str) and re.fullmatch(r"[a-z][a-z0-9_.-]*", dep or ""),
                    f"MODULE.bazel: bazel_dep name {dep!r}")
            c.check(isinstance(ver, str) and re.fullmatch(r"\d+(\.\d+)*([.-][\w.]+)?", ver or ""),
                    f"MODULE.bazel: bazel_dep({dep}) version {ver!r}")
            c.check(dep not in deps, f"MODULE.bazel: bazel_dep({dep}) declared once")
            if "dev_dependency" in kw:
                c.check(isinstance(const(kw["dev_dependency"]), bool),
                        f"MODULE.bazel: bazel_dep({dep}) dev_dependency is a bool")
            deps.add(dep)
            provided.add(dep)
        elif name == "use_repo":
            first = value.args[0] if value.args else None
            c.check(isinstance(first, ast.Name) and first.id in proxies,
                    "MODULE.bazel: use_repo(proxy, ...) names a declared extension")
            provided.update(const(a) for a in value.args[1:] if isinstance(const(a), str))
    c.check(module_seen, "MODULE.bazel: has module()")
    return provided


def check_workspace(c, tree):
    provided = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_name(node) in (
                "local_repository", "new_local_repository", "local_nanobind"):
            name = const(kwargs(node).get("name"))
            path = const(kwargs(node).get("path"))
            provided.add(name)
            if path and not path.startswith("/"):
                c.check(os.path.isfile(os.path.join(ROOT, path, "WORKSPACE")),
                        f"WORKSPACE.bazel: shim {name} at {path} has a WORKSPACE file")
    return provided


def label_file_exists(label):
    m = re.fullmatch(r"//([\w/.-]*):([\w/.+-]+)", label)
    return bool(m) and os.path.isfile(os.path.join(ROOT, m.group(1), m.group(2)))


def used_labels(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.startswith(("@", "//")):
                yield node.value


def main():
    c = Checker()
    trees = {}
    for path in sorted(starlark_files()):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            tree = ast.parse(text, filename=path)
            c.check(True, f"{rel(path)}: parses")
            trees[rel(path)] = tree
        except SyntaxError as e:
            c.check(False, f"{rel(path)}: parses", f"line {e.lineno}: {e.msg}")
            continue
        check_format(c, path, text)
        if os.path.basename(path) in ("BUILD.bazel", "BUILD") or path.endswith(".BUILD"):
            splats = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
                      and any(k.arg is None for k in n.keywords)]
            c.check(not splats, f"{rel(path)}: no **kwargs in calls (not allowed in BUILD files)",
                    f"lines {splats[:5]}")
        if not os.path.basename(path).startswith("WORKSPACE"):  # WORKSPACE loads interleave
            check_loads_first(c, path, tree)
    module = trees.get("MODULE.bazel")
    workspace = trees.get("WORKSPACE.bazel")
    if not (c.check(module is not None, "MODULE.bazel exists and parses") and
            c.check(workspace is not None, "WORKSPACE.bazel exists and parses")):
        print(f"bazel files: {c.passed} passed, {c.failed} failed")
        return 1
    c.check(os.path.isfile(os.path.join(ROOT, "WORKSPACE.bzlmod")), "WORKSPACE.bzlmod exists")
    from_module = check_module(c, module)
    from_workspace = check_workspace(c, workspace)
    main_builds = {p: t for p, t in trees.items()
                   if os.path.basename(p) == "BUILD.bazel" and not p.startswith("third_party/bazel4/")}
    repos, packages = set(), set()
    for path, tree in main_builds.items():
        for label in used_labels(tree):
            m = re.match(r"@([\w.-]+)//", label)
            if m:
                repos.add(m.group(1))
            m = re.match(r"//([\w/.-]*)(:|$)", label)
            if m:
                packages.add(m.group(1))
    for repo in sorted(repos - BUILTIN_REPOS):
        c.check(repo in from_module, f"@{repo} is provided by MODULE.bazel (bzlmod)")
        c.check(repo in from_workspace, f"@{repo} is provided by WORKSPACE.bazel (Bazel 4)")
    for pkg in sorted(packages - {"visibility"}):
        c.check(os.path.isfile(os.path.join(ROOT, pkg, "BUILD.bazel")) or
                os.path.isfile(os.path.join(ROOT, pkg, "BUILD")), f"package //{pkg} has a BUILD file")
    print(f"checked {len(trees)} Starlark files, {len(repos)} external repositories, "
          f"{len(packages)} packages")
    print(f"bazel files: {c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
