#!/usr/bin/env python3
"""Checks that a libnpurt shared library exports only npurt's public API.

libnpurt is built with -fvisibility=hidden; the public headers
(runtime/include/npurt/*.h and the sim kernel API under
runtime/backends/sim/aicore/include) export their declarations through
NPURT_PUBLIC_BEGIN/END. This reads the dynamic symbol table
(`nm -D --defined-only`, demangled with c++filt) and sorts every symbol:

  ok        C API functions declared in npurt/npurt.h (npurt[A-Z]...);
            C++ entities in namespace npurt / AscendC whose every scope
            component is a name declared in a public header (comments
            stripped), and that is not on the internal list below;
            linker symbols (_end, _edata, __bss_start, _init, _fini)
  template  weak/unique std:: / __gnu_cxx:: template instantiations that the
            compiler must export because their arguments are public types
            (they are ODR-merged across libraries; counted, not failed)
  LEAK      anything else: an internal class or function (e.g. the pool's
            MemoryPool::Impl / PoolBlock internals, ThreadPool, the sim
            backend's SimBackend/SimStream), a name no public header declares,
            a strong std:: definition, or a symbol of another namespace.

Known leaks: tests/packaging/known_symbol_leaks.txt lists regular expressions
(one a line, `#` comments) of leaks already reported to their owners; they are
printed as KNOWN and not failed, so the check still fails on every NEW leak.
A pattern that matches nothing any more is reported as stale (remove it).

Exit status: 0 when there is no unknown LEAK and no declared C API function
is missing, 1 otherwise, 2 on usage errors. The last line is
`exported symbols: N passed, M failed`.
Usage: check_exported_symbols.py LIBRARY [--source-root DIR] [--known FILE] [--verbose]
"""
import argparse
import os
import re
import subprocess
import sys

LINKER_SYMBOLS = {"_end", "_edata", "__bss_start", "_init", "_fini"}
# Scope components that are internal whatever the headers forward-declare.
INTERNAL_COMPONENTS = {
    "Impl", "ThreadPool", "PoolBlock", "PoolSet", "Segment", "SimBackend",
    "SimStream", "SimEvent", "StreamImpl", "EventImpl", "(anonymous namespace)",
}
PUBLIC_NAMESPACES = {"npurt", "AscendC"}
TEMPLATE_NAMESPACES = {"std", "__gnu_cxx"}
PREFIXES = ("typeinfo name for ", "typeinfo for ", "vtable for ", "VTT for ",
            "guard variable for ", "non-virtual thunk to ", "virtual thunk to ",
            "construction vtable for ")


def public_header_files(root):
    dirs = [os.path.join(root, "runtime", "include", "npurt"),
            os.path.join(root, "runtime", "backends", "sim", "aicore", "include")]
    for d in dirs:
        for base, _, files in os.walk(d):
            for f in files:
                if f.endswith(".h"):
                    yield os.path.join(base, f)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def public_identifiers(root):
    names, c_api = set(), set()
    for path in public_header_files(root):
        with open(path, encoding="utf-8") as f:
            code = strip_comments(f.read())
        names.update(re.findall(r"[A-Za-z_]\w*", code))
        if os.path.basename(path) == "npurt.h":
            c_api.update(re.findall(r"\b(npurt[A-Z]\w*)\s*\(", code))
    return names, c_api


def read_symbols(library):
    nm = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                        capture_output=True, text=True).stdout.splitlines()
    rows = [line.split(None, 2) for line in nm if line.strip()]
    # A LOCAL symbol (lowercase type other than u/v/w: nm's GNU-unique and weak
    # letters) can sit in .dynsym without being bindable from outside: the BFD
    # linker keeps a hidden TLS variable there for its TLS relocation (Bazel's
    # libnpurt.so: npurt::sim::t_stream_windows, TLS LOCAL HIDDEN). Not exported.
    rows = [r for r in rows if len(r) == 3 and not (r[1].islower() and r[1] not in "uvw")]
    demangled = subprocess.run(["c++filt"], input="\n".join(r[2] for r in rows),
                               check=True, capture_output=True, text=True).stdout.splitlines()
    return [(r[1], r[2], d) for r, d in zip(rows, demangled)]


def split_top(text, sep):
    """Splits at `sep` outside <...>, (...) and [...]."""
    parts, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if depth == 0 and text.startswith(sep, i):
            parts.append(cur)
            cur, i = "", i + len(sep)
            continue
        cur += c
        i += 1
    parts.append(cur)
    return parts


def entity_components(demangled):
    """Scope components of the entity a demangled symbol names."""
    name = demangled
    for p in PREFIXES:
        if name.startswith(p):
            name = name[len(p):]
            break
    # The entity is the word holding the argument list; words before it are a
    # return type ("npurt::TensorSpec const* std::__niter_base<...>(...)"),
    # words after it qualifiers ("const", "&&").
    words = [w for w in split_top(name, " ") if w]
    calls = [w for w in words if "(" in w and not w.startswith("(")]
    name = calls[0] if calls else words[-1]
    comps = []
    for comp in split_top(name, "::"):
        comp = comp.strip()
        base = re.sub(r"\[abi:\w+\]", "", comp)
        is_function = "(" in base and not base.startswith("(anonymous")
        base = base.split("<", 1)[0] if not base.startswith("(") else base
        base = base.split("(", 1)[0] if is_function else base
        comps.append(base.strip())
        if is_function:  # locals of a function are not part of the API surface
            break
    return comps


def classify(kind, mangled, demangled, names, c_api):
    if mangled in LINKER_SYMBOLS:
        return "ok", ""
    if mangled == demangled and re.fullmatch(r"npurt[A-Z]\w*", mangled):
        return ("ok", "") if mangled in c_api else ("LEAK", "C symbol not declared in npurt.h")
    comps = entity_components(demangled)
    if not comps or not comps[0]:
        return "LEAK", "unparsed symbol"
    if comps[0] in TEMPLATE_NAMESPACES:
        if kind in "WVu":
            return "template", ""
        return "LEAK", "strong std:: definition"
    if comps[0] not in PUBLIC_NAMESPACES:
        return "LEAK", f"namespace '{comps[0]}' is not public"
    for comp in comps[1:]:
        bare = comp.lstrip("~")
        if comp in INTERNAL_COMPONENTS or bare in INTERNAL_COMPONENTS:
            return "LEAK", f"internal component '{comp}'"
        if bare.startswith(("operator", "{", "_GLOBAL")) or not bare:
            continue
        if bare not in names:
            return "LEAK", f"'{bare}' is not declared in any public header"
    return "ok", ""


def read_known(path):
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        lines = [line.split("#", 1)[0].strip() for line in f]
    return [re.compile(line) for line in lines if line]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("--source-root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--known", default=os.path.join(os.path.dirname(__file__),
                                                     "known_symbol_leaks.txt"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if not os.path.isfile(args.library):
        print(f"check_exported_symbols: library '{args.library}' does not exist", file=sys.stderr)
        return 2
    names, c_api = public_identifiers(os.path.abspath(args.source_root))
    if not c_api:
        print("check_exported_symbols: no C API found in npurt/npurt.h", file=sys.stderr)
        return 2
    known = read_known(args.known)
    used = set()
    counts = {"ok": 0, "template": 0, "LEAK": 0, "KNOWN": 0}
    exported_c = set()
    for kind, mangled, demangled in read_symbols(args.library):
        verdict, why = classify(kind, mangled, demangled, names, c_api)
        if verdict == "LEAK":
            hit = next((k for k in known if k.search(demangled)), None)
            if hit is not None:
                verdict = "KNOWN"
                used.add(hit.pattern)
        counts[verdict] += 1
        if verdict == "ok" and mangled in c_api:
            exported_c.add(mangled)
        if verdict in ("LEAK", "KNOWN") or args.verbose:
            print(f"{verdict:8} {kind} {demangled}" + (f"   <- {why}" if why else ""))
    missing = sorted(c_api - exported_c)
    for name in missing:  # a declared C function that is not exported is a failure too
        print(f"MISSING  C API function {name} declared in npurt.h is not exported")
    for k in known:
        if k.pattern not in used:
            print(f"stale known-leak pattern (matches nothing, remove it): {k.pattern}")
    failed = counts["LEAK"] + len(missing)
    print(f"{os.path.basename(args.library)}: {counts['ok']} public, {counts['template']} "
          f"template instantiations, {counts['KNOWN']} known leaks, {counts['LEAK']} new leaks, "
          f"{len(missing)} C API missing")
    print(f"exported symbols: {counts['ok'] + counts['template']} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
