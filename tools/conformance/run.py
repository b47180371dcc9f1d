"""Differential conformance run: every case of cases.py on npurt vs array-api-strict.

    python tools/conformance/run.py [--examples 30] [--seed N] [--only sum,exp] [--json out.json]

Without --seed the draws are derandomized (the same examples every run, what
CI needs); --seed N draws another reproducible set (vary N to search wider).

Prints one line per function (pass, fail with the first failure, missing)
and the fraction of the standard's functions that pass. This is the
project's own measure; the issue's external suite is run elsewhere.
"""
import argparse
import json
import os
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hypothesis.strategies as st  # noqa: E402
from hypothesis import HealthCheck, Phase, given, reject, seed, settings  # noqa: E402
import numpy as np  # noqa: E402
from hypothesis.extra.array_api import make_strategies_namespace  # noqa: E402

from cases import build_cases  # noqa: E402
from compare import compare, to_reference  # noqa: E402


# The standard npurt implements (npurt.__array_api_version__). array-api-strict 2.6
# defaults to 2025.12, whose changes npurt does not claim (meshgrid and
# broadcast_arrays return tuples there, lists in 2024.12; searchsorted takes a
# scalar), so the reference is pinned to this version.
STANDARD = "2024.12"


def reference_namespace():
    """array-api-strict, behaving as the STANDARD version of the array API."""
    import array_api_strict as xs
    xs.set_array_api_strict_flags(api_version=STANDARD)
    return xs


def known_gaps(path=os.path.join(os.path.dirname(os.path.abspath(__file__)), "known_gaps.txt")):
    """{function: reason} of the documented gaps (lines `name: reason`, # comments)."""
    gaps = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, reason = line.partition(":")
                gaps[name.strip()] = reason.strip()
    return gaps


def _resolve(namespace, name):
    """namespace.name, also for an extension's functions ("linalg.det"); None when absent."""
    for part in name.split("."):
        namespace = getattr(namespace, part, None)
    return namespace


def check_case(case, nr, xs, xps, examples, draw_seed=None):
    """Runs one case; returns None when it passes, else the first failure as text.
    draw_seed None: derandomized draws; an int: that seed's draws."""
    fn, ref = _resolve(nr, case.name), _resolve(xs, case.name)
    if fn is None:
        return "missing"

    @settings(max_examples=examples, deadline=None, database=None, derandomize=draw_seed is None,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    @given(st.data())
    def prop(data):
        args, kwargs = case.draw(data, nr, xps)
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = ref(*to_reference(args, nr, xs), **to_reference(kwargs, nr, xs))
        except Exception:
            reject()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            actual = fn(*args, **kwargs)
        if case.compare is not None:
            case.compare(actual, expected, args, kwargs, nr)
        else:
            compare(actual, expected, case.tolerance, nr)

    if draw_seed is not None:
        prop = seed(draw_seed)(prop)
    try:
        prop()
    except Exception as err:  # the failure after shrinking
        return f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"[:300]
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=30)
    ap.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: derandomized)")
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    opts = ap.parse_args(argv)
    xs = reference_namespace()
    import npurt as nr
    xps = make_strategies_namespace(nr)
    cases = [c for c in build_cases() if not opts.only or c.name in opts.only.split(",")]
    results, start = {}, time.time()
    for case in cases:
        t0 = time.time()
        results[case.name] = check_case(case, nr, xs, xps, opts.examples, opts.seed)
        status = "pass" if results[case.name] is None else results[case.name]
        print(f"{case.group:<13} {case.name:<22} {time.time() - t0:6.1f}s  {status}", flush=True)
    passed = sum(r is None for r in results.values())
    drawn = "derandomized" if opts.seed is None else f"seed {opts.seed}"
    print(f"\nconformance (differential vs array-api-strict, {opts.examples} examples each, {drawn}): "
          f"{passed}/{len(results)} functions pass ({100.0 * passed / max(1, len(results)):.1f}%) "
          f"in {time.time() - start:.0f}s")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
