#!/usr/bin/env python3
"""Checks npurt's conda files without a conda channel: environment.yml and
conda/recipe/recipe.yaml (rattler-build v1 format).

What it checks (each is one counted check):
  - both files parse as YAML (v1 recipes are plain YAML with ${{ }} strings);
  - recipe structure: schema_version 1, context, recipe/outputs (or package),
    source.path pointing at this repository, build.number, each output's name,
    build script and tests (known test kinds), about.license and summary;
  - versions: the rendered version is a valid conda version (rattler.Version)
    and equals project(npurt VERSION ...) in CMakeLists.txt and pyproject.toml;
  - every dependency string is a valid MatchSpec (rattler.MatchSpec) after
    replacing ${{ compiler('cxx') }} / pin_subpackage() by what they render to;
  - consistency: the Python output's run requirements cover pyproject's
    [project].dependencies; the environment has conda-forge and the tools the
    build needs (cmake, ninja, nanobind, scikit-build-core, numpy, pytest, gtest).
It does NOT solve or build anything (no conda channel is reachable here).
Prints `conda metadata: N passed, M failed`; exits 1 when M > 0.
`--self-test` feeds deliberately broken metadata and fails unless the broken
parts are caught (so the validator itself can be trusted).
"""
import argparse
import copy
import os
import re
import sys

import yaml

try:
    import rattler
except ImportError:  # pragma: no cover - reported as a failed check
    rattler = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TEST_KINDS = {"python", "script", "package_contents", "downstream", "r", "perl", "ruby"}
REQUIRED_ENV_TOOLS = ["cmake", "ninja", "nanobind", "scikit-build-core", "numpy", "pytest",
                      "gtest", "cxx-compiler", "python"]


class Checker:
    def __init__(self, quiet=False):
        self.passed, self.failed, self.quiet, self.failures = 0, 0, quiet, []

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(what + (f": {detail}" if detail else ""))
        if not self.quiet:
            print(("  ok    " if ok else "  FAIL  ") + what + (f": {detail}" if detail and not ok else ""))
        return ok


def render(value, context):
    """Renders the ${{ ... }} expressions a MatchSpec or version may hold."""
    def one(m):
        expr = m.group(1).strip()
        if expr in context:
            return str(context[expr])
        if re.fullmatch(r"compiler\(['\"](\w+)['\"]\)", expr):
            lang = re.fullmatch(r"compiler\(['\"](\w+)['\"]\)", expr).group(1)
            return {"cxx": "gxx_linux-64", "c": "gcc_linux-64"}.get(lang, lang + "_compiler")
        pin = re.fullmatch(r"pin_subpackage\(['\"]([\w.-]+)['\"].*\)", expr)
        if pin:
            return pin.group(1)
        if expr in ("PYTHON",):
            return "python"
        raise ValueError(f"unknown expression ${{{{ {expr} }}}}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


def match_spec(c, spec, where):
    try:
        rattler.MatchSpec(spec)
        return c.check(True, f"{where}: MatchSpec '{spec}'")
    except Exception as e:  # rattler raises its own exception types
        return c.check(False, f"{where}: MatchSpec '{spec}'", str(e).splitlines()[0])


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        cm = re.search(r"project\(npurt VERSION ([0-9.]+)", f.read())
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        py = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    return (cm.group(1) if cm else None), (py.group(1) if py else None)


def pyproject_dependencies():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^dependencies\s*=\s*\[(.*?)\]", text, re.M | re.S)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else []


def package_name(spec):
    return re.split(r"[\s<>=!~\[]", spec.strip(), 1)[0].lower().replace("_", "-")


def check_requirements(c, reqs, context, where):
    names = {}
    if not isinstance(reqs, dict):
        c.check(False, f"{where}: requirements is a mapping", repr(reqs))
        return names
    for section in ("build", "host", "run", "run_constraints", "run_exports"):
        for item in reqs.get(section) or []:
            if isinstance(item, dict):  # if/then selectors
                items = (item.get("then") or []) + (item.get("else") or [])
            else:
                items = [item]
            for raw in items:
                try:
                    spec = render(raw, context)
                except ValueError as e:
                    c.check(False, f"{where}.{section}: '{raw}'", str(e))
                    continue
                if match_spec(c, spec, f"{where}.{section}"):
                    names.setdefault(section, set()).add(package_name(spec))
    return names


def check_tests(c, tests, where):
    if not c.check(isinstance(tests, list) and len(tests) > 0, f"{where}: has tests"):
        return
    for i, t in enumerate(tests):
        kinds = set(t) & TEST_KINDS if isinstance(t, dict) else set()
        c.check(len(kinds) == 1, f"{where}.tests[{i}]: one known test kind", f"keys {sorted(t)}")


def check_output(c, out, context, where, recipe_dir):
    pkg = out.get("package") or {}
    name = pkg.get("name")
    c.check(isinstance(name, str) and re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", name or "") is not None,
            f"{where}: package name '{name}'")
    script = (out.get("build") or {}).get("script")
    c.check(bool(script), f"{where}: build.script present")
    names = check_requirements(c, out.get("requirements") or {}, context, f"{name}.requirements")
    check_tests(c, out.get("tests"), name or where)
    return name, names


def check_recipe(c, recipe, recipe_dir):
    c.check(recipe.get("schema_version") == 1, "recipe: schema_version is 1 (rattler-build v1)")
    context = dict(recipe.get("context") or {})
    c.check("version" in context, "recipe: context.version")
    head = recipe.get("recipe") or recipe.get("package") or {}
    try:
        version = render(head.get("version", ""), context)
        rattler.Version(version)
        c.check(True, f"recipe: version '{version}' parses")
    except Exception as e:
        version = None
        c.check(False, "recipe: version parses", str(e))
    cm_version, py_version = project_version()
    c.check(version == cm_version == py_version, "recipe: version matches CMakeLists.txt and pyproject.toml",
            f"recipe {version}, CMake {cm_version}, pyproject {py_version}")
    context.setdefault("name", head.get("name"))
    src = (recipe.get("source") or {}).get("path")
    c.check(src is not None and os.path.isfile(os.path.join(recipe_dir, src, "CMakeLists.txt")),
            "recipe: source.path points at the repository root", f"path {src!r}")
    c.check(isinstance((recipe.get("build") or {}).get("number"), int), "recipe: build.number")
    about = recipe.get("about") or {}
    for key in ("license", "summary"):
        c.check(bool(about.get(key)), f"recipe: about.{key}")
    outputs = recipe.get("outputs") or [recipe]
    seen = {}
    for i, out in enumerate(outputs):
        name, names = check_output(c, out, context, f"outputs[{i}]", recipe_dir)
        seen[name] = names
    py = seen.get("npurt")
    if c.check(py is not None, "recipe: has the Python output 'npurt'"):
        run = py.get("run", set())
        for dep in pyproject_dependencies():
            c.check(package_name(dep) in run, f"npurt.run covers pyproject dependency '{dep}'",
                    f"run has {sorted(run)}")
    c.check("libnpurt" in seen, "recipe: has the C++ output 'libnpurt'")


def check_environment(c, env):
    c.check(isinstance(env.get("name"), str), "environment: name")
    c.check("conda-forge" in (env.get("channels") or []), "environment: conda-forge channel")
    names = set()
    for dep in env.get("dependencies") or []:
        if isinstance(dep, dict):
            pip = dep.get("pip")
            c.check(isinstance(pip, list) and all(isinstance(p, str) for p in pip),
                    "environment: pip section is a list of requirement strings")
            continue
        if match_spec(c, str(dep), "environment"):
            names.add(package_name(str(dep)))
    for tool in REQUIRED_ENV_TOOLS:
        c.check(tool in names, f"environment: provides {tool}")


def load_yaml(c, path):
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
        c.check(isinstance(data, dict), f"{os.path.relpath(path, ROOT)}: parses as a YAML mapping")
        return data if isinstance(data, dict) else None
    except (OSError, yaml.YAMLError) as e:
        c.check(False, f"{os.path.relpath(path, ROOT)}: parses as YAML", str(e).splitlines()[0])
        return None


def run(recipe, env, recipe_dir, quiet):
    c = Checker(quiet)
    if not c.check(rattler is not None, "py-rattler importable (pip install py-rattler)"):
        return c
    if recipe is not None:
        check_recipe(c, recipe, recipe_dir)
    if env is not None:
        check_environment(c, env)
    return c


def self_test(recipe, env, recipe_dir):
    """Breaks the metadata in known ways; every break must be caught."""
    breaks = {
        "bad match spec": lambda r, e: e["dependencies"].append("ninja >>=1"),
        "missing license": lambda r, e: r["about"].pop("license"),
        "version drift": lambda r, e: r["context"].update(version="9.9.9"),
        "dropped run dependency": lambda r, e: [o for o in r["outputs"] if o["package"]["name"] == "npurt"][0]
        ["requirements"]["run"].remove("numpy >=1.24"),
        "unknown test kind": lambda r, e: r["outputs"][0]["tests"].append({"shell": ["true"]}),
        "missing tool": lambda r, e: e["dependencies"].remove("ninja"),
    }
    caught = 0
    for what, breaker in breaks.items():
        r, e = copy.deepcopy(recipe), copy.deepcopy(env)
        breaker(r, e)
        c = run(r, e, recipe_dir, quiet=True)
        ok = c.failed > 0
        caught += ok
        print(f"  self-test {'caught' if ok else 'MISSED'}: {what}"
              + (f" ({c.failures[0]})" if c.failures else ""))
    return caught, len(breaks) - caught


def main():
    ap = argparse.ArgumentParser(description="Validate npurt's conda metadata (no build, no solve).")
    ap.add_argument("--recipe", default=os.path.join(HERE, "recipe", "recipe.yaml"))
    ap.add_argument("--environment", default=os.path.join(ROOT, "environment.yml"))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    pre = Checker()
    recipe = load_yaml(pre, args.recipe)
    env = load_yaml(pre, args.environment)
    c = run(recipe, env, os.path.dirname(os.path.abspath(args.recipe)), quiet=False)
    passed, failed = pre.passed + c.passed, pre.failed + c.failed
    if args.self_test and recipe is not None and env is not None:
        caught, missed = self_test(recipe, env, os.path.dirname(os.path.abspath(args.recipe)))
        passed, failed = passed + caught, failed + missed
    print(f"conda metadata: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
