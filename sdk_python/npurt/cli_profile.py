"""`python -m npurt profile [-m] script.py [args ...] -o trace.json`: profile a whole script.

Runs the script as ``__main__`` (like ``python script.py``) inside one
profiling session, then writes the Chrome trace (and optionally the op table
and a PNG timeline). The trace is written even when the script raises or
calls sys.exit; the exit code is the script's (1 for an uncaught exception),
2 for a usage error.
"""
from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("profile", help="profile a Python script and write a Chrome trace",
                              description=__doc__.split("\n\n")[1])
    p.add_argument("-o", "--output", default="trace.json", help="trace file (default trace.json)")
    p.add_argument("--table", action="store_true", help="print the op summary after the run")
    p.add_argument("--sort-by", default="device_time",
                   help="table order: device_time, calls, mean, max, name")
    p.add_argument("--plot", default=None, metavar="PNG", help="also draw the timeline (matplotlib)")
    p.add_argument("--no-blocks", action="store_true", help="do not record per-block spans")
    p.add_argument("-m", dest="module", action="store_true",
                   help="run SCRIPT as a module (like python -m), e.g. `npurt profile -m npurt demo`")
    p.add_argument("script", help="the Python script (or module, with -m) to run")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed to the script")
    p.set_defaults(func=main_with_args)
    return p


def _run_script(path: str, args, as_module: bool = False) -> int:
    saved_argv, saved_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = [path, *args]
    sys.path.insert(0, os.getcwd() if as_module else os.path.dirname(os.path.abspath(path)))
    try:
        if as_module:
            runpy.run_module(path, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(path, run_name="__main__")
        return 0
    except SystemExit as e:
        if e.code is None:
            return 0
        if isinstance(e.code, int):
            return e.code
        print(e.code, file=sys.stderr)
        return 1
    except Exception:  # the script's error: show it like python would, still write the trace
        traceback.print_exc()
        return 1
    finally:
        sys.argv = saved_argv
        if sys.path and saved_path0 is not None:
            sys.path.pop(0)


def main_with_args(args) -> int:
    if not args.module and not os.path.isfile(args.script):
        print(f"npurt profile: argument 'script': no such file '{args.script}'", file=sys.stderr)
        return 2
    from .profiler import profile
    try:
        session = profile(record_blocks=not args.no_blocks).start()
    except Exception as e:
        print(f"npurt profile: cannot start profiling: {e}", file=sys.stderr)
        return 2
    code = _run_script(args.script, args.args, as_module=args.module)
    result = session.stop()
    result.export_chrome_trace(args.output)
    print(f"npurt profile: {len(result.activities)} activities, trace written to {args.output}",
          file=sys.stderr)
    if args.table:
        print(result.table(args.sort_by))
    if args.plot:
        result.plot(args.plot)
        print(f"npurt profile: timeline written to {args.plot}", file=sys.stderr)
    return code
