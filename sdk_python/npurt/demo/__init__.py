"""``python -m npurt demo``: a tour of npurt, one section per module.

A section is a module of this package named ``s<NN>_<name>.py`` holding
``TITLE`` (a line of text) and ``run()`` (prints what it shows, raises on a
wrong result). Sections run in file-name order; the two-digit number leaves
room between them, so a later feature (kernels, graphs, ...) adds its part of
the demo by adding one file, nothing else.
"""
import importlib
import pkgutil
import sys
import time
import traceback


def sections():
    """(name, module) of every section, in running order."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name[:1] == "s" and m.name[1:3].isdigit())
    return [(name[4:], importlib.import_module(f"{__name__}.{name}")) for name in names]


def main(only=(), list_only=False, out=sys.stdout):
    """Runs the sections (all, or those named in `only`); returns the exit code."""
    chosen = sections()
    if list_only:
        for name, mod in chosen:
            print(f"{name:<12} {mod.TITLE}", file=out)
        return 0
    unknown = set(only) - {name for name, _ in chosen}
    if unknown:
        print(f"npurt demo: unknown section(s) {sorted(unknown)}; see `python -m npurt demo --list`", file=out)
        return 2
    failed = []
    for name, mod in chosen:
        if only and name not in only:
            continue
        print(f"\n== {mod.TITLE} ==", file=out)
        start = time.perf_counter()
        try:
            mod.run()
        except Exception:  # a failing section is reported, the others still run
            traceback.print_exc(file=out)
            failed.append(name)
        print(f"   ({(time.perf_counter() - start) * 1e3:.1f} ms)", file=out)
    print(f"\ndemo: {'FAILED sections: ' + ', '.join(failed) if failed else 'all sections passed'}", file=out)
    return 1 if failed else 0
